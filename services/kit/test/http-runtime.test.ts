import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { Conflict, Forbidden, Invalid, NotFound, RateLimited, TooLarge, Unauthenticated, Unavailable } from '@ledgerline/kit/errors.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { createServiceApp } from '@ledgerline/kit/http/service-app.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';

const logger = createLogger('http-test', 'silent');

function app(ready = true) {
  const api = new ApiRegistry('demo');
  const router = express.Router();
  api.route(router, {
    method: 'post', path: '/api/widgets', summary: 'Create a widget', status: 201,
    body: z.object({ name: z.string().trim().min(2, 'Name must be at least 2 characters'), size: z.number().int().min(0).default(0) }),
  }, ({ body }) => ({ created: body }));
  api.route(router, {
    method: 'get', path: '/api/widgets/:id', summary: 'Get a widget',
    query: z.object({ verbose: z.enum(['true', 'false']).optional() }),
  }, ({ params, query }) => ({ id: params.id, verbose: query.verbose ?? null }));
  api.route(router, { method: 'delete', path: '/api/widgets/:id', summary: 'Delete' }, () => undefined);
  const errors = { Invalid: new Invalid('bad'), Unauthenticated: new Unauthenticated(), Forbidden: new Forbidden('no'), NotFound: new NotFound('gone'),
    Conflict: new Conflict('taken'), TooLarge: new TooLarge('big'), RateLimited: new RateLimited('slow down', 30), Unavailable: new Unavailable('later') };
  router.get('/throw/:kind', (req) => { throw errors[req.params.kind as keyof typeof errors] ?? new Error('secret internals'); });
  return createServiceApp({
    name: 'demo', logger, routers: [router], openapi: () => api.document(),
    readiness: [{ name: 'db', check: async () => { if (!ready) throw new Error('down'); } }],
    jsonLimitBytes: 100,
  });
}

describe('service HTTP runtime', () => {
  it('refuses NUL and other control characters anywhere in a body or query, naming the field; tabs and line breaks pass', async () => {
    for (const [send, field] of [
      [{ name: 'ab\u0000c' }, 'name'],
      [{ name: 'ok', tags: ['fine', 'bell\u0007'] }, 'tags[1]'],
      [{ name: 'ok', nested: { deeper: { note: 'esc\u001b[31m' } } }, 'nested.deeper.note'],
      [{ name: 'ok', ['key\u0000']: 1 }, 'key\u0000'],
    ] as const) {
      const r = await request(app()).post('/api/widgets').send(send);
      expect({ status: r.status, body: r.body }).toEqual({ status: 400, body: { message: `${field} must not contain control characters` } });
    }
    expect((await request(app()).post('/api/widgets').send({ name: 'line one\nline\ttwo\r\n' })).status).toBe(201);
    const query = await request(app()).get('/api/widgets/1?verbose=tr%00ue');
    expect(query.body).toEqual({ message: 'verbose must not contain control characters' });
    // Nesting deeper than any stack: still a 400, not a crash.
    const deep = `${'['.repeat(20_000)}"x\\u0001"${']'.repeat(20_000)}`;
    const nested = await request(createServiceApp({ name: 'deep', logger, routers: [], readiness: [] })).post('/nothing').set('content-type', 'application/json').send(deep);
    expect(nested.status).toBe(400);
  });

  it('validates bodies with the schema and returns its message', async () => {
    const ok = await request(app()).post('/api/widgets').send({ name: ' ab ' });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ created: { name: 'ab', size: 0 } });
    const bad = await request(app()).post('/api/widgets').send({ name: 'a' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Name must be at least 2 characters');
  });

  it('parses query and path parameters, and answers 204 for no content', async () => {
    expect((await request(app()).get('/api/widgets/7?verbose=true')).body).toEqual({ id: '7', verbose: 'true' });
    expect((await request(app()).get('/api/widgets/7?verbose=maybe')).status).toBe(400);
    expect((await request(app()).delete('/api/widgets/7')).status).toBe(204);
  });

  it('maps every domain error to its status with a { message } body', async () => {
    const expected: Record<string, number> = { Invalid: 400, Unauthenticated: 401, Forbidden: 403, NotFound: 404, Conflict: 409, TooLarge: 413, RateLimited: 429, Unavailable: 503 };
    for (const [kind, status] of Object.entries(expected)) {
      const r = await request(app()).get(`/throw/${kind}`);
      expect([kind, r.status]).toEqual([kind, status]);
      expect(typeof r.body.message).toBe('string');
    }
    expect((await request(app()).get('/throw/RateLimited')).headers['retry-after']).toBe('30');
  });

  it('never leaks an unexpected error', async () => {
    const r = await request(app()).get('/throw/unknown');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ message: 'Internal server error' });
  });

  it('answers malformed and oversized JSON with 4xx', async () => {
    expect((await request(app()).post('/api/widgets').set('content-type', 'application/json').send('{"name":')).body).toEqual({ message: 'Malformed JSON body' });
    const big = await request(app()).post('/api/widgets').send({ name: 'x'.repeat(500) });
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ message: 'Request body is too large' });
  });

  it('serves health, readiness, metrics, request ids and OpenAPI', async () => {
    expect((await request(app()).get('/healthz')).body).toEqual({ status: 'ok', service: 'demo' });
    expect((await request(app()).get('/readyz')).status).toBe(200);
    const down = await request(app(false)).get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body.failed).toEqual(['db: Error: down']);
    const withId = await request(app()).get('/healthz').set('x-request-id', 'abc-123');
    expect(withId.headers['x-request-id']).toBe('abc-123');
    expect((await request(app()).get('/metrics')).text).toContain('http_request_duration_seconds');
    const doc = (await request(app()).get('/openapi.json')).body;
    expect(doc.paths['/api/widgets'].post.requestBody.content['application/json'].schema.properties.name.minLength).toBe(2);
    expect(doc.paths['/api/widgets/{id}'].get.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' }), expect.objectContaining({ name: 'verbose', in: 'query' })]));
    expect((await request(app()).get('/nope')).body).toEqual({ message: 'Not found: GET /nope' });
  });
});
