import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketServer } from 'socket.io';
import { io as connectSocket } from 'socket.io-client';
import { MemorySigningKeyStore } from '@ledgerline/kit/auth/signing-key-store.ts';
import { createTokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import { createTokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { CLIENT_ADDRESS_HEADER, TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { createGateway } from '../src/gateway.ts';
import { loadGatewayConfig } from '../src/gateway.config.ts';
import { RouteTable } from '../src/route-table.ts';
import { TenantDirectory } from '../src/tenant-directory.ts';

const listen = (server: http.Server): Promise<string> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

const issuer = createTokenIssuer({ issuer: 'test-issuer', keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 600 });
const staff = (tenant: string, role = 'CPA') => issuer.sign({ sub: '7', username: 'cpa', fullName: 'C P A', role, tenant, platformAdmin: false });
const platformAdmin = () => issuer.sign({ sub: '1', username: 'root', fullName: 'Root', role: 'Admin', tenant: null, platformAdmin: true });

let upstream: http.Server;
let sockets: SocketServer;
let gatewayServer: http.Server;
let gatewayUrl: string;
let upstreamUrl: string;
let closeUpgrades: () => void;
let closeGateway: () => Promise<void>;
const tenants = new TenantDirectory();

beforeAll(async () => {
  // An upstream that echoes what the gateway forwarded, plus a socket.io echo.
  const app = express();
  app.use((req, res) => {
    let size = 0;
    req.on('data', (c: Buffer) => { size += c.length; });
    req.on('end', () => res.json({
      url: req.url, tenant: req.header(TENANT_HEADER) ?? null, auth: req.header('authorization') ?? null, size,
      clientAddress: req.header(CLIENT_ADDRESS_HEADER) ?? null,
    }));
  });
  upstream = http.createServer(app);
  sockets = new SocketServer(upstream);
  sockets.on('connection', (s) => s.on('echo', (msg: string, ack: (r: string) => void) => ack(`echo:${msg}`)));
  upstreamUrl = await listen(upstream);

  const routes = new RouteTable();
  routes.addService({ service: 'echo', url: upstreamUrl }, ['things', 'public/things'], ['/socket.io/']);
  routes.addService({ service: 'down', url: 'http://127.0.0.1:1' }, ['down']);
  // A service in the gateway's own process: its URL answers nothing, so only the handover can.
  routes.addService({ service: 'local', url: 'http://127.0.0.1:1', inProcess: app }, ['local-things']);
  tenants.replaceAll([
    { shortName: 'acme', isActive: true, urlPattern: 'subdomain', customDomain: null, customSubdomain: 'acme' },
    { shortName: 'sleepy', isActive: false, urlPattern: 'path', customDomain: null, customSubdomain: null },
  ]);
  const gateway = createGateway({
    config: loadGatewayConfig({ GATEWAY_JSON_MAX_BYTES: '1000', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' }),
    routes,
    services: () => [{ service: 'echo', url: upstreamUrl }],
    tenants,
    tokens: createTokenVerifier({ issuers: [{ issuer: 'test-issuer', jwks: () => issuer.jwks() }] }),
    logger: createLogger('gateway-test', 'silent'),
    frontends: null,
  });
  closeUpgrades = gateway.closeUpgrades;
  closeGateway = gateway.close;
  gatewayServer = http.createServer(gateway.handle);
  gatewayServer.on('upgrade', gateway.upgrade);
  gatewayUrl = await listen(gatewayServer);
});

afterAll(async () => {
  await closeGateway();
  await new Promise((r) => sockets.close(r));
  gatewayServer.closeAllConnections();
  upstream.closeAllConnections();
  await new Promise((r) => gatewayServer.close(r));
  await new Promise((r) => upstream.close(r));
});

const get = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${gatewayUrl}${path}`, { headers });
  return { status: r.status, body: (await r.json()) as Record<string, unknown>, headers: r.headers };
};

describe('gateway', () => {
  it('forwards tenant-prefixed calls unprefixed with the tenant header', async () => {
    const token = await staff('acme');
    const r = await get('/api/acme/things/3?q=1', { authorization: `Bearer ${token}` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ url: '/api/things/3?q=1', tenant: 'acme', auth: `Bearer ${token}` });
  });

  it('takes the tenant from the token for unprefixed calls', async () => {
    const r = await get('/api/things', { authorization: `Bearer ${await staff('acme')}` });
    expect(r.body).toMatchObject({ url: '/api/things', tenant: 'acme' });
  });

  it('takes the tenant from the host for subdomain URL patterns', async () => {
    // fetch() may not set Host; node:http can.
    const body = await new Promise<Record<string, unknown>>((resolve, reject) => {
      http.get(`${gatewayUrl}/api/public/things/1`, { headers: { host: 'acme.portal.test' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
      }).on('error', reject);
    });
    expect(body).toMatchObject({ url: '/api/public/things/1', tenant: 'acme' });
  });

  it('never lets a client set the trusted tenant header', async () => {
    const r = await get('/api/public/things/1', { [TENANT_HEADER]: 'acme' });
    expect(r.body).toMatchObject({ tenant: null });
  });

  it('refuses a token of tenant A on tenant B', async () => {
    const r = await get('/api/beta/things', { authorization: `Bearer ${await staff('acme', 'Admin')}` });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('This account belongs to another firm.');
  });

  it('lets a platform administrator act in any tenant', async () => {
    const r = await get('/api/beta/things', { authorization: `Bearer ${await platformAdmin()}` });
    expect(r.body).toMatchObject({ tenant: 'beta' });
  });

  it('refuses an invalid token with a clear 401', async () => {
    const token = await staff('acme');
    const r = await get('/api/things', { authorization: `Bearer ${token.slice(0, -4)}AAAA` });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('Invalid authentication token. Please log in again.');
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const r = await get('/api/acme/nothing');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Not found: GET /api/acme/nothing');
  });

  it('refuses requests for an inactive tenant', async () => {
    const r = await get('/api/sleepy/things');
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Tenant not found');
  });

  it('rejects an oversized body with 413 before it reaches a service', async () => {
    const r = await fetch(`${gatewayUrl}/api/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(2000) }) });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { message: string }).message).toMatch(/too large/);
  });

  it('answers 503 with a message when a service is down', async () => {
    const r = await get('/api/down');
    expect(r.status).toBe(503);
    expect(r.body.message).toBe('The down service is unavailable. Please try again.');
  });

  it('hands calls for a service in its own process straight to it, with the same rewriting, checks and headers', async () => {
    const token = await staff('acme');
    const r = await fetch(`${gatewayUrl}/api/acme/local-things/5?q=2`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ url: '/api/local-things/5?q=2', tenant: 'acme', size: 7, clientAddress: '127.0.0.1' });
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await get('/api/beta/local-things', { authorization: `Bearer ${token}` })).status).toBe(403);
    const big = await fetch(`${gatewayUrl}/api/acme/local-things`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: 'x'.repeat(2000) });
    expect(big.status).toBe(413);
  });

  it('sets security headers', async () => {
    const r = await get('/api/public/things/1');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('proxies websocket upgrades for /socket.io', async () => {
    const socket = connectSocket(gatewayUrl, { transports: ['websocket'], reconnection: false });
    try {
      const reply = await new Promise<string>((resolve, reject) => {
        socket.on('connect_error', reject);
        socket.on('connect', () => socket.emit('echo', 'hello', resolve));
      });
      expect(reply).toBe('echo:hello');
    } finally {
      socket.close();
    }
  });

  it('ends its proxied websockets when asked (shutdown), which would otherwise keep its server from closing', async () => {
    const socket = connectSocket(gatewayUrl, { transports: ['websocket'], reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => { socket.on('connect_error', reject); socket.on('connect', () => resolve()); });
      const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      closeUpgrades();
      expect(await ended).toBe('transport close');
    } finally {
      socket.close();
    }
  });

  it('tells services the connection\'s address, whatever a client claims in X-Forwarded-For or the gateway\'s own header', async () => {
    const r = await get('/api/acme/things', { 'x-forwarded-for': '203.0.113.9', [CLIENT_ADDRESS_HEADER]: '198.51.100.1' });
    expect(r.body.clientAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  /** A second gateway over the echo upstream, with its own settings. */
  async function withGateway(env: Record<string, string>, run: (url: string) => Promise<void>): Promise<void> {
    const routes = new RouteTable();
    routes.addService({ service: 'echo', url: upstreamUrl }, ['things'], ['/socket.io/']);
    const gateway = createGateway({
      config: loadGatewayConfig(env),
      routes, services: () => [], tenants: new TenantDirectory(),
      tokens: createTokenVerifier({ issuers: [{ issuer: 'test-issuer', jwks: () => issuer.jwks() }] }),
      logger: createLogger('gateway-test', 'silent'), frontends: null,
    });
    const server = http.createServer(gateway.handle);
    server.on('upgrade', gateway.upgrade);
    try {
      await run(await listen(server));
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await gateway.close();
    }
  }
  const forwardedFor = (i: number) => ({ headers: { 'x-forwarded-for': `203.0.113.${i}` } });

  it('rate-limits a client that floods the API, even one that rotates X-Forwarded-For', async () => {
    await withGateway({ GATEWAY_RATE_LIMIT_PER_MINUTE: '3' }, async (url) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${url}/api/things`, forwardedFor(i))).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const r = await fetch(`${url}/api/things`);
      expect(((await r.json()) as { message: string }).message).toBe('Too many requests. Please wait a moment and try again.');
    });
  });

  it('counts socket.io handshakes, polling or websocket, in the same per-address limit (a session\'s later requests are not handshakes)', async () => {
    await withGateway({ GATEWAY_RATE_LIMIT_PER_MINUTE: '3' }, async (url) => {
      const poll = (query = '') => fetch(`${url}/socket.io/?EIO=4&transport=polling${query}`);
      const opened = await poll();
      expect(opened.status).toBe(200);
      const sid = (JSON.parse((await opened.text()).slice(1)) as { sid: string }).sid;
      // Continuing the session is not a new handshake: it is not counted, whatever the count.
      for (let i = 0; i < 3; i++) expect((await fetch(`${url}/socket.io/?EIO=4&transport=polling&sid=${sid}`, { method: 'POST', body: '40' })).status).toBe(200);
      const websocket = () => new Promise<string>((resolve) => {
        const socket = connectSocket(url, { transports: ['websocket'], reconnection: false, forceNew: true });
        socket.once('connect', () => { socket.close(); resolve('connected'); });
        socket.once('connect_error', () => { socket.close(); resolve('refused'); });
      });
      expect(await websocket()).toBe('connected');
      expect((await fetch(`${url}/api/things`)).status).toBe(200);
      // The address has used its 3: handshakes of either kind are refused, and API calls too.
      const refused = await poll();
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { message: string }).message).toBe('Too many requests. Please wait a moment and try again.');
      expect(await websocket()).toBe('refused');
      expect((await fetch(`${url}/api/things`)).status).toBe(429);
    });
  });

  it('believes X-Forwarded-For from the configured proxies only (TRUSTED_PROXIES)', async () => {
    await withGateway({ GATEWAY_RATE_LIMIT_PER_MINUTE: '3', TRUSTED_PROXIES: '127.0.0.1, ::ffff:127.0.0.1' }, async (url) => {
      // This test is the proxy: each forwarded client has its own limit and is named to the services.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${url}/api/things`, forwardedFor(i))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const echoed = (await (await fetch(`${url}/api/things`, forwardedFor(7))).json()) as { clientAddress: string };
      expect(echoed.clientAddress).toBe('203.0.113.7');
    });
    expect(() => loadGatewayConfig({ TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/TRUSTED_PROXIES/);
    expect(() => loadGatewayConfig({ TRUSTED_PROXIES: 'ingress.local' })).toThrow(/IP address or a CIDR block/);
    expect(loadGatewayConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8 ,fd00::/8' }).trustedProxies).toEqual(['10.0.0.0/8', 'fd00::/8']);
  });
});
