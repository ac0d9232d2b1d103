import type { Request, Response } from 'express';

/** Whether the client asked for server-sent events instead of one JSON reply. */
export const wantsEventStream = (req: Request): boolean => (req.header('accept') ?? '').includes('text/event-stream');

/**
 * A server-sent event stream opened by its first event, so anything that fails before
 * (validation, access, rate limits) still answers with its status and `{ message }`.
 * `signal` aborts when the client goes away before the stream was ended.
 */
export class LazyEventStream {
  readonly #res: Response;
  readonly #abort = new AbortController();
  #ended = false;

  constructor(res: Response) {
    this.#res = res;
    res.on('close', () => { if (!this.#ended) this.#abort.abort(); });
  }

  get signal(): AbortSignal { return this.#abort.signal; }
  get started(): boolean { return this.#res.headersSent; }

  send(event: string, data: unknown): void {
    if (this.#ended || this.#abort.signal.aborted) return;
    if (!this.#res.headersSent) {
      this.#res.status(200).set({
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Proxies in front of the portal (nginx) must pass each event on at once.
        'x-accel-buffering': 'no',
      });
      this.#res.flushHeaders();
    }
    this.#res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    this.#ended = true;
    if (!this.#res.writableEnded) this.#res.end();
  }
}
