import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { createFrontendsRouter } from '@ledgerline/gateway/frontends.router.ts';

describe('frontends router', () => {
  let frontendsDir: string;
  let app: express.Express;

  beforeAll(async () => {
    frontendsDir = await mkdtemp(path.join(tmpdir(), 'frontends-'));
    const files: Record<string, string> = {
      'shell/dist/index.html': '<!doctype html><div id="root"></div>',
      'shell/dist/main.js': 'main()',
      'shell/dist/836.550e4d8bfe9dc915.js': 'chunk()',
      'account/dist/mf-manifest.json': '{"name":"account"}',
      'account/dist/remoteEntry.js': 'entry()',
      'account/dist/41.a666a808b3de2c41.js': 'remoteChunk()',
      'hidden/dist/secret.js': 'not listed',
      'account/dist/routes.json': JSON.stringify({ routes: [{ path: '/account-settings', tenantScoped: true, title: 'Account Settings' }], navItems: [], loadOnSignIn: true }),
    };
    // What the build's precompression writes beside a file; each copy says which it is.
    const compressed: Record<string, Buffer> = {
      'account/dist/remoteEntry.js.br': brotliCompressSync('entry() from br'),
      'account/dist/remoteEntry.js.gz': gzipSync('entry() from gz'),
      'shell/dist/836.550e4d8bfe9dc915.js.gz': gzipSync('chunk() from gz'),
    };
    for (const [file, content] of Object.entries({ ...files, ...compressed })) {
      await mkdir(path.dirname(path.join(frontendsDir, file)), { recursive: true });
      await writeFile(path.join(frontendsDir, file), content);
    }
    app = express();
    app.use(createFrontendsRouter({ frontendsDir, remotes: ['account'] }));
  });

  afterAll(async () => {
    await rm(frontendsDir, { recursive: true, force: true });
  });

  it('lists the remotes with their manifest URLs and declared pages', async () => {
    const response = await request(app).get('/frontends.json').expect(200);
    expect(response.body).toEqual({
      remotes: [
        {
          name: 'account',
          manifestUrl: '/remotes/account/mf-manifest.json',
          routes: [{ path: '/account-settings', tenantScoped: true, title: 'Account Settings' }],
          navItems: [],
          loadOnSignIn: true,
        },
      ],
    });
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('lists a remote built without declarations by name and manifest only', async () => {
    const bare = express();
    bare.use(createFrontendsRouter({ frontendsDir, remotes: ['hidden'] }));
    const response = await request(bare).get('/frontends.json').expect(200);
    expect(response.body).toEqual({ remotes: [{ name: 'hidden', manifestUrl: '/remotes/hidden/mf-manifest.json' }] });
  });

  it('sends the precompressed copy the browser accepts, brotli first, with the original media type', async () => {
    const br = await request(app).get('/remotes/account/remoteEntry.js').set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript/);
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.text).toBe('entry() from br');

    const gz = await request(app).get('/remotes/account/remoteEntry.js').set('Accept-Encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe('entry() from gz');

    const hashed = await request(app).get('/836.550e4d8bfe9dc915.js').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(hashed.headers['content-encoding']).toBe('gzip');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(hashed.text).toBe('chunk() from gz');

    const plain = await request(app).get('/remotes/account/remoteEntry.js').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    expect(plain.text).toBe('entry()');
  });

  it('never serves a file outside a dist through an encoded path', async () => {
    await request(app).get('/remotes/account/..%2f..%2fhidden%2fdist%2fsecret.js').set('Accept-Encoding', 'br').expect(404);
  });

  it('serves a remote from its dist, hashed files immutable, entry files revalidated', async () => {
    const manifest = await request(app).get('/remotes/account/mf-manifest.json').expect(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const entry = await request(app).get('/remotes/account/remoteEntry.js').expect(200);
    expect(entry.headers['cache-control']).toBe('no-cache');
    const chunk = await request(app).get('/remotes/account/41.a666a808b3de2c41.js').expect(200);
    expect(chunk.text).toBe('remoteChunk()');
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves only listed remotes and never answers /remotes with the shell page', async () => {
    await request(app).get('/remotes/hidden/secret.js').set('Accept', 'text/html').expect(404);
    await request(app).get('/remotes/account/missing.js').set('Accept', 'text/html').expect(404);
  });

  it('serves the shell assets at /', async () => {
    const main = await request(app).get('/main.js').expect(200);
    expect(main.headers['cache-control']).toBe('no-cache');
    const chunk = await request(app).get('/836.550e4d8bfe9dc915.js').expect(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('falls back to index.html for client-side routes that accept HTML', async () => {
    for (const url of ['/', '/acme/dashboard', '/account-settings']) {
      const response = await request(app).get(url).set('Accept', 'text/html,application/xhtml+xml').expect(200);
      expect(response.text).toContain('<div id="root"></div>');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('leaves API, socket.io, non-HTML and non-GET requests to the rest of the gateway', async () => {
    await request(app).get('/api/clients').set('Accept', 'text/html').expect(404);
    await request(app).get('/socket.io/').set('Accept', 'text/html').expect(404);
    await request(app).get('/acme/dashboard').set('Accept', 'application/json').expect(404);
    await request(app).post('/acme/dashboard').set('Accept', 'text/html').expect(404);
  });

  it('answers 404 rather than failing when the shell is not built', async () => {
    const empty = express();
    empty.use(createFrontendsRouter({ frontendsDir: path.join(frontendsDir, 'nothing'), remotes: [] }));
    await request(empty).get('/tasks').set('Accept', 'text/html').expect(404);
  });
});
