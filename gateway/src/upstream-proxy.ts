import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { RouteTarget } from './route-table.ts';

/** Headers that describe one connection, never forwarded across the proxy. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization',
  'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect',
]);

export interface UpstreamProxy {
  /** Streams the request to `target` at `path` and its answer back to `res`. */
  forward(target: RouteTarget, req: IncomingMessage, res: ServerResponse, path: string): void;
  close(): Promise<void>;
}

/**
 * HTTP to the services over undici pools: one per upstream origin, parsed once, with
 * keep-alive connections, both bodies streamed with backpressure (uploads, downloads and
 * server-sent events alike). Websocket upgrades are not HTTP requests and go elsewhere.
 */
export function createUpstreamProxy(options: { maxSocketsPerUpstream: number; logger: Logger }): UpstreamProxy {
  const pools = new Map<string, Pool>();
  const poolFor = (url: string): Pool => {
    let pool = pools.get(url);
    if (!pool) {
      pool = new Pool(url, { connections: options.maxSocketsPerUpstream, keepAliveTimeout: 10_000 });
      pools.set(url, pool);
    }
    return pool;
  };

  return {
    forward(target, req, res, path) {
      const length = req.headers['content-length'];
      const hasBody = length === undefined ? req.headers['transfer-encoding'] !== undefined : length !== '0';
      poolFor(target.url).dispatch(
        { method: req.method ?? 'GET', path, headers: withoutHopByHop(req.headers), body: hasBody ? req : null },
        new ResponseRelay(res, target, options.logger),
      );
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.destroy()));
      pools.clear();
    },
  };
}

function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept: IncomingHttpHeaders = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) kept[name] = headers[name];
  return kept;
}

/** Writes the upstream's answer to the client as it arrives; a client that leaves aborts it. */
class ResponseRelay implements Dispatcher.DispatchHandler {
  readonly #res: ServerResponse;
  readonly #target: RouteTarget;
  readonly #logger: Logger;

  constructor(res: ServerResponse, target: RouteTarget, logger: Logger) {
    this.#res = res;
    this.#target = target;
    this.#logger = logger;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#res.once('close', () => {
      if (!this.#res.writableFinished) controller.abort(new Error('client closed the connection'));
    });
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    for (const name of HOP_BY_HOP) delete headers[name];
    this.#res.writeHead(statusCode, statusMessage, headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#res.write(chunk)) {
      controller.pause();
      this.#res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.#res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    const res = this.#res;
    if (res.destroyed) return; // the client left first
    this.#logger.warn({ err: String(err), service: this.#target.service }, 'upstream unavailable');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: `The ${this.#target.service} service is unavailable. Please try again.` }));
  }
}
