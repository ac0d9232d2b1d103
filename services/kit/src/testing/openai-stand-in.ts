import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers one request (consumed in order; afterwards it answers normally). */
export interface StandInBehaviour {
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  status?: number;
  /** Wait this long before the first byte. */
  delayMs?: number;
  /** Wait this long between streamed pieces. */
  pieceDelayMs?: number;
  /** Reply with this text instead of the deterministic one. */
  reply?: string;
  /** Streaming: break the connection after this many pieces. */
  dropAfterPieces?: number;
}

export interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream?: boolean;
  max_tokens?: number;
}

export interface OpenAiStandIn {
  /** Base URL for OPENAI_BASE_URL (ends in /v1). */
  url: string;
  /** Every chat completion request received, oldest first. */
  requests: ChatCompletionRequest[];
  /** When each request arrived (`performance.now()` of this process), for benchmarks. */
  arrivals: number[];
  /** Queues behaviours for the next requests. */
  enqueue(...behaviours: StandInBehaviour[]): void;
  close(): Promise<void>;
}

/** The question a request asks: what follows 'Question: ' in its last message. */
const questionOf = (body: ChatCompletionRequest): string => {
  const last = body.messages.at(-1)?.content ?? '';
  const at = last.lastIndexOf('Question: ');
  return at >= 0 ? last.slice(at + 'Question: '.length) : last;
};

/** Deterministic: names the question and how many earlier turns came with it. */
export const standInReply = (body: ChatCompletionRequest): string =>
  `Stand-in answer to "${questionOf(body)}" after ${body.messages.length - 2} earlier messages.`;

/**
 * A local OpenAI-compatible chat completions server for tests (DESIGN §7: tests never
 * reach a real model): deterministic replies, streaming as server-sent events, errors and
 * slow answers on demand, and a record of every prompt it was sent.
 */
export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const requests: ChatCompletionRequest[] = [];
  const arrivals: number[] = [];
  const queue: StandInBehaviour[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Not found' } }));
      return;
    }
    const arrivedAt = performance.now();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatCompletionRequest;
    requests.push(body);
    arrivals.push(arrivedAt);
    const b = queue.shift() ?? {};
    if (b.delayMs) await sleep(b.delayMs);
    if (res.destroyed) return;
    if (b.status) {
      // retry-after 0: the client's backoff stays short in tests.
      res.writeHead(b.status, { 'content-type': 'application/json', 'retry-after': '0' })
        .end(JSON.stringify({ error: { message: `Stand-in error ${b.status}`, type: 'stand_in' } }));
      return;
    }
    const reply = b.reply ?? standInReply(body);
    const id = `chatcmpl-standin-${requests.length}`;
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id, object: 'chat.completion', created: 0, model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
      }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pieces = reply.match(/\S+\s*/g) ?? [reply];
    for (const [i, piece] of pieces.entries()) {
      if (b.dropAfterPieces !== undefined && i >= b.dropAfterPieces) {
        // Let the pieces already written reach the client first: a reset that overtakes them looks like a failed connection (which is retried).
        await sleep(100);
        res.destroy();
        return;
      }
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`);
      if (b.pieceDelayMs) await sleep(b.pieceDelayMs);
      if (res.destroyed) return;
    }
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    arrivals,
    enqueue: (...b) => { queue.push(...b); },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

// Unref'd: a slow answer nobody waits for any more must not keep a test process alive.
const sleep = (ms: number) => new Promise((r) => { setTimeout(r, ms).unref(); });
