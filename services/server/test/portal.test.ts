import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPortal, type RunningPortal } from '../src/portal.ts';
import { adminLogin, portalTestEnv } from '../src/portal-harness.ts';

let portal: RunningPortal;
let gw: string;

beforeAll(async () => {
  portal = await startPortal({ env: portalTestEnv() });
  gw = portal.gatewayUrl!;
});
afterAll(async () => { await portal.stop(); });

const json = async (r: Response) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> });

describe('portal, all targets in one process', () => {
  it('runs each service on its own port behind the gateway', async () => {
    const identity = portal.serviceUrls.get('identity')!;
    expect(identity).not.toBe(gw);
    expect((await json(await fetch(`${identity}/healthz`))).body).toEqual({ status: 'ok', service: 'identity' });
    expect((await json(await fetch(`${gw}/readyz`))).body).toMatchObject({ status: 'ready', failed: [] });
    expect((await json(await fetch(`${identity}/readyz`))).status).toBe(200);
  });

  it('signs the seeded platform administrator in through the gateway', async () => {
    const { status, body } = await json(await adminLogin(gw));
    expect(status).toBe(200);
    const token = body.token as string;
    expect(token.length).toBeGreaterThan(50);
    expect(token.split('.')).toHaveLength(3);
    expect(body.user).toMatchObject({ id: expect.any(Number), username: 'platform-admin', fullName: 'Platform Administrator', role: 'Admin', tenant: null, platformAdmin: true });

    const me = await json(await fetch(`${gw}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }));
    expect(me.body).toMatchObject({ username: 'platform-admin', platformAdmin: true, actingTenant: null });
    const inTenant = await json(await fetch(`${gw}/api/acme/auth/me`, { headers: { authorization: `Bearer ${token}` } }));
    expect(inTenant.body).toMatchObject({ actingTenant: 'acme' });
  });

  it('answers bad logins with the spec messages', async () => {
    expect(await json(await adminLogin(gw, 'wrong-password'))).toEqual({ status: 401, body: { message: 'Invalid admin credentials' } });
    const empty = await json(await fetch(`${gw}/api/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"  ","password":"x"}' }));
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Username is required');
    const noPassword = await json(await fetch(`${gw}/api/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":"a"}' }));
    expect(noPassword.body.message).toBe('Password is required');
    const malformed = await json(await fetch(`${gw}/api/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' }));
    expect(malformed).toEqual({ status: 400, body: { message: 'Malformed JSON body' } });
  });

  it('requires a token where the service does', async () => {
    expect(await json(await fetch(`${gw}/api/auth/me`))).toEqual({ status: 401, body: { message: 'Authentication required. Please log in again.' } });
  });

  it('serves the JWKS, the aggregated API docs and metrics', async () => {
    const jwks = await json(await fetch(`${gw}/.well-known/jwks.json`));
    expect((jwks.body.keys as { kty: string }[])[0]?.kty).toBe('EC');
    const docs = await json(await fetch(`${gw}/api/docs/openapi.json`));
    expect(Object.keys(docs.body.paths as object)).toEqual(expect.arrayContaining(['/api/admin/auth/login', '/api/auth/me']));
    expect((await fetch(`${gw}/api/docs`)).headers.get('content-type')).toContain('text/html');
    const metrics = await (await fetch(`${portal.serviceUrls.get('identity')}/metrics`)).text();
    expect(metrics).toContain('http_request_duration_seconds');
  });

  it('answers unknown API paths with JSON 404 and never a 5xx for junk', async () => {
    expect(await json(await fetch(`${gw}/api/acme/nope`))).toEqual({ status: 404, body: { message: 'Not found: GET /api/acme/nope' } });
    const junk = await fetch(`${gw}/api/admin/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '\u0000\u0001' });
    expect(junk.status).toBe(400);
  });
});
