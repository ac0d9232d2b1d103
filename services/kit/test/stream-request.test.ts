import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { streamRequest } from '../src/http/stream-request.ts';

/*
 * A streamed request body passes through bounded memory whatever its size, also when the
 * peer reads it more slowly than it is produced (fetch held all of it: a firm archive's
 * gigabyte in the importing process); a peer's early refusal comes back as its answer.
 */
describe('streamRequest', () => {
  let server: http.Server;
  let url: string;
  let received = 0; // what the slow reader has taken so far, to measure what is in flight

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      if (req.url === '/refuse') {
        res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Too large' }));
        return;
      }
      let bytes = 0;
      for await (const chunk of req) {
        bytes += (chunk as Buffer).length;
        received = bytes;
        await nextTurn(); // a reader slower than the writer
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
  });

  it('sends 512 MB to a slow reader holding a small part of it at any time', async () => {
    // What is in flight (written, not yet read) is what the sender holds; the process's
    // arrayBuffers would also count garbage the collector has not yet taken.
    const body = new PassThrough();
    const reply = streamRequest(`${url}/store`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
    const chunk = Buffer.alloc(64 * 1024, 7);
    let written = 0;
    let peakInFlight = 0;
    for (let i = 0; i < 8192; i++) {
      if (!body.write(chunk)) await once(body, 'drain');
      written += chunk.length;
      peakInFlight = Math.max(peakInFlight, written - received);
    }
    body.end();
    expect(await reply).toEqual({ status: 200, ok: true, body: { bytes: 512 * 1024 * 1024 } });
    expect(peakInFlight).toBeLessThan(32 * 1024 * 1024);
  }, 120_000);

  it('answers a refusal the peer sends before reading the body', async () => {
    const body = new PassThrough();
    const reply = streamRequest(`${url}/refuse`, { method: 'POST', headers: {}, body });
    body.write(Buffer.alloc(1024));
    const answer = await reply;
    body.destroy();
    expect(answer).toEqual({ status: 413, ok: false, body: { message: 'Too large' } });
  });
});
