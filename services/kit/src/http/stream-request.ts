import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';

export interface StreamedReply {
  status: number;
  ok: boolean;
  /** The answer's JSON (null when empty; the text when it is not JSON). */
  body: unknown;
}

/**
 * A request to a peer whose body streams from `body` at the pace the peer reads it, so a
 * body of any size passes through a few chunks of memory. fetch does not do that here:
 * given a stream, it holds what it has taken of it until the request ends (a gigabyte
 * forwarded to a service that stores it more slowly was a gigabyte held). The answer is
 * read whole: peers answer small JSON. A caller whose peer may answer before reading
 * everything (a refusal) destroys `body`, which nobody reads any more.
 */
export function streamRequest(url: string, options: { method: string; headers: Record<string, string>; body: Readable }): Promise<StreamedReply> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request(target, { method: options.method, headers: options.headers });
    request.on('error', reject);
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = text;
        }
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, body });
      });
    });
    options.body.on('error', (err) => request.destroy(err));
    options.body.pipe(request);
  });
}
