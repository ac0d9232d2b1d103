import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { INTERNAL_TENANTS_PATH, TENANT_LIST_VERSION_HEADER, type TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { identityTenantChanges, TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';

/*
 * Firm routing follows changes (issue 45): identity's internal firm list carries a version
 * that every change to a firm bumps; asked "since <version>" it answers 304 and no body while
 * nothing changed, so the gateway and the services stop re-reading the whole list.
 */
let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let identityUrl: string;
let call: ReturnType<typeof apiClient>;
const FIRM = `ver${randomBytes(3).toString('hex')}`;

const list = async (since?: string) => {
  const r = await fetch(`${identityUrl}${INTERNAL_TENANTS_PATH}${since === undefined ? '' : `?since=${since}`}`);
  const text = await r.text();
  return { status: r.status, version: r.headers.get(TENANT_LIST_VERSION_HEADER), body: text ? JSON.parse(text) as TenantEventPayload[] : null, text };
};

beforeAll(async () => {
  portal = await startTestPortal();
  identityUrl = portal.serviceUrls.get('identity')!;
  call = apiClient(portal.gatewayUrl);
}, 120_000);
afterAll(async () => { await portal.stop(); });

describe('the versioned firm list', () => {
  let firmId: number;

  it('answers 304 without a body while unchanged, and the new list with a new version after each change', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    expect(first.version).toMatch(/^\d+$/);
    const unchanged = await list(first.version!);
    expect(unchanged).toMatchObject({ status: 304, version: first.version, text: '' });

    const created = await call<{ id: number }>('POST', '/api/companies', portal.adminToken, { name: 'Versioned Tax', shortName: FIRM });
    expect(created.status).toBe(201);
    firmId = created.body.id;
    const afterCreate = await list(first.version!);
    expect(afterCreate.status).toBe(200);
    expect(afterCreate.version).not.toBe(first.version);
    expect(afterCreate.body!.map((f) => f.shortName)).toContain(FIRM);
    expect((await list(afterCreate.version!)).status).toBe(304);

    expect((await call('PUT', `/api/companies/${firmId}`, portal.adminToken, { name: 'Versioned Tax', shortName: FIRM, isActive: false })).status).toBe(200);
    const afterDeactivate = await list(afterCreate.version!);
    expect(afterDeactivate.status).toBe(200);
    expect(afterDeactivate.body!.find((f) => f.shortName === FIRM)).toMatchObject({ isActive: false });

    expect((await call('DELETE', `/api/companies/${firmId}`, portal.adminToken)).status).toBe(200);
    const afterDelete = await list(afterDeactivate.version!);
    expect(afterDelete.status).toBe(200);
    expect(afterDelete.body!.map((f) => f.shortName)).not.toContain(FIRM);
  });

  it('refuses a version that is not one with a 400 naming the field', async () => {
    const r = await list('yesterday');
    expect(r.status).toBe(400);
    expect(r.text).toContain('since');
  });

  it('a service registry reads the whole list only when it changed, and still finds a firm created a moment ago', async () => {
    const changes = identityTenantChanges(() => identityUrl);
    let wholeLists = 0;
    const registry = new TenantRegistry({ source: async () => { const l = await changes(); if (l) wholeLists++; return l; }, minRefreshMs: 0 });
    for (let i = 0; i < 5; i++) await registry.refresh();
    expect(wholeLists).toBe(1);

    const other = `${FIRM}b`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Other Tax', shortName: other })).status).toBe(201);
    expect(await registry.find(other)).toMatchObject({ shortName: other, isActive: true });
    expect(wholeLists).toBe(2);
    await registry.refresh();
    expect(wholeLists).toBe(2);
    expect((await registry.active()).map((f) => f.shortName)).toContain(other);
  });
});
