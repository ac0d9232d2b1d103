import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { createFrontendsRouter } from '@ledgerline/gateway/frontends.router.ts';
import { HOME_FIRST_PAINT_SCRIPT_SOURCE } from '@ledgerline/gateway/home-page.ts';
import { FIRST_PAINT_SCRIPT_SOURCE, type FirmSignInInfo } from '@ledgerline/gateway/sign-in-page.ts';

describe('frontends router', () => {
  let frontendsDir: string;
  let app: express.Express;

  beforeAll(async () => {
    frontendsDir = await mkdtemp(path.join(tmpdir(), 'frontends-'));
    const files: Record<string, string> = {
      'shell/dist/index.html': '<!doctype html><html><head><title>Ledgerline</title><script defer src="/main.js"></script></head><body><div id="root"></div><link rel="stylesheet" href="/theme.0123456789abcdef.css"></body></html>',
      'shell/dist/main.js': 'main()',
      'shell/dist/836.550e4d8bfe9dc915.js': 'chunk()',
      'account/dist/mf-manifest.json': '{"name":"account"}',
      'account/dist/remoteEntry.js': 'entry()',
      'account/dist/41.a666a808b3de2c41.js': 'remoteChunk()',
      'hidden/dist/secret.js': 'not listed',
      'account/dist/routes.json': JSON.stringify({ routes: [{ path: '/account-settings', tenantScoped: true, title: 'Account Settings' }], navItems: [], loadOnSignIn: true }),
      // A remote with many pages: its list is worth compressing.
      'tasks/dist/routes.json': JSON.stringify({ routes: Array.from({ length: 40 }, (_, i) => ({ path: `/tasks/page-${i}`, tenantScoped: true, title: `Task page ${i}` })), navItems: [] }),
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

  it('sends the remote list compressed when it is worth it', async () => {
    const large = express();
    large.use(createFrontendsRouter({ frontendsDir, remotes: ['account', 'tasks'] }));
    // supertest decodes the body it receives.
    const br = await request(large).get('/frontends.json').set('Accept-Encoding', 'gzip, br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers.vary).toContain('Accept-Encoding');
    const list = br.body as { remotes: { name: string; routes: unknown[] }[] };
    expect(list.remotes.map((r) => [r.name, r.routes.length])).toEqual([['account', 1], ['tasks', 40]]);
    const plain = await request(large).get('/frontends.json').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(list);
  });

  describe("a firm's sign-in page in the first HTML", () => {
    const firms: Record<string, FirmSignInInfo> = {
      acme: { name: 'Acme <Tax> & "Books" Co', shortName: 'acme', isActive: true, passkeySignIn: true, clientEmailSignIn: false },
      sleepy: { name: 'Sleepy Ledgers', shortName: 'sleepy', isActive: false },
    };
    const asked: string[] = [];
    const withFirms = express();
    beforeAll(() => {
      withFirms.use(createFrontendsRouter({ frontendsDir, remotes: ['account'], firmSignIn: async (shortName) => { asked.push(shortName); return firms[shortName] ?? null; } }));
    });
    const page = (url: string) => request(withFirms).get(url).set('Accept', 'text/html').set('Accept-Encoding', 'identity').expect(200);

    it("carries the firm's name, the form and the firm's facts, escaped, before the app's root", async () => {
      const html = (await page('/acme/login')).text;
      expect(html).toContain('<h1 class="login-card__title">Acme &lt;Tax&gt; &amp; &quot;Books&quot; Co</h1>');
      expect(html).toContain('<span class="login-card__initials">AC</span>');
      expect(html.indexOf('id="first-paint-form"')).toBeLessThan(html.indexOf('<div id="root">'));
      expect(html).toContain('<input id="first-paint-username"');
      expect(html).toContain('type="password"');
      // The firm offers passkeys, not e-mailed codes.
      expect(html).toContain('Sign in with a passkey');
      expect(html).not.toContain('E-mail me a sign-in code');
      const json = /<script type="application\/json" id="first-paint-firm">([^<]*)<\/script>/.exec(html)?.[1];
      expect(JSON.parse(json!)).toEqual(firms.acme);
      expect(json).not.toContain('<');
      expect(html).toContain('<title>Sign In · Ledgerline</title>');
      expect(html).toMatch(/<style>#first-paint~#root\{display:none\}/);
      // The page's own script starts the app's, at the visitor's first act.
      expect(html).not.toContain('<script defer src="/main.js">');
      expect(html).toContain('<meta name="first-paint-app" content="/main.js">');
      // Nor the app's style sheets: the page has its own style until the app starts.
      expect(html).not.toContain('rel="stylesheet"');
    });

    it('holds a form sent early and starts the app with the one inline script, which the content security policy names by its hash', async () => {
      const html = (await page('/acme/login')).text;
      const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
      expect(scripts).toHaveLength(1);
      expect(`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`).toBe(FIRST_PAINT_SCRIPT_SOURCE);
    });

    it('is compressed like the other files', async () => {
      const br = await request(withFirms).get('/acme/login').set('Accept', 'text/html').set('Accept-Encoding', 'br').expect(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.text).toContain('first-paint-form');
    });

    it('is the plain shell for an unknown or inactive firm, the platform sign-in and every other page', async () => {
      asked.length = 0;
      for (const url of ['/nobody/login', '/sleepy/login', '/admin/login', '/login', '/acme/tasks', '/Bad-Name/login']) {
        const html = (await page(url)).text;
        expect(html).not.toContain('first-paint');
        expect(html).toContain('<div id="root"></div>');
        expect(html).toContain('<script defer src="/main.js"></script>');
      }
      expect(asked).toEqual(['nobody', 'sleepy']);
    });
  });

  describe("the home's first screen in the first HTML", () => {
    const page = (url: string) => request(app).get(url).set('Accept', 'text/html').set('Accept-Encoding', 'identity').expect(200);

    it('is drawn, before the root, by the one inline script the content security policy names by its hash, at / and /{tenant}/dashboard', async () => {
      for (const url of ['/', '/acme/dashboard', '/acme/dashboard/']) {
        const html = (await page(url)).text;
        const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1]!);
        expect(scripts).toHaveLength(1);
        expect(`'sha256-${createHash('sha256').update(scripts[0]!).digest('base64')}'`).toBe(HOME_FIRST_PAINT_SCRIPT_SOURCE);
        expect(html.indexOf('<script>')).toBeLessThan(html.indexOf('<div id="root"></div>'));
        expect(html).toContain('<style>#first-paint-home{');
        // The app starts as on any page, its style sheets after the content.
        expect(html).toContain('<script defer src="/main.js"></script>');
        expect(html.indexOf('<link rel="stylesheet" href="/theme.0123456789abcdef.css">')).toBeGreaterThan(html.indexOf('<div id="root"></div>'));
      }
    });

    it('is not drawn on any other page', async () => {
      for (const url of ['/admin/dashboard', '/acme/tasks', '/acme/dashboard/more', '/Bad-Name/dashboard']) {
        expect((await page(url)).text).not.toContain('first-paint-home');
      }
    });
  });

  it('answers 404 rather than failing when the shell is not built', async () => {
    const empty = express();
    empty.use(createFrontendsRouter({ frontendsDir: path.join(frontendsDir, 'nothing'), remotes: [] }));
    await request(empty).get('/tasks').set('Accept', 'text/html').expect(404);
  });
});
