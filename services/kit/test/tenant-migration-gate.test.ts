import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { MemoryBus } from '@ledgerline/kit/bus/memory-bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { migrateTenant, tenantSchemasBehind, type ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { createServiceApp } from '@ledgerline/kit/http/service-app.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { INTERNAL_TENANTS_PATH } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { FIRM_MIGRATING_MESSAGE, FIRM_MIGRATING_RETRY_SECONDS, TenantMigrationGate } from '@ledgerline/kit/tenancy/tenant-migration-gate.ts';
import { followTenantSchemas } from '@ledgerline/kit/tenancy/tenant-schema-follower.ts';
import { createTenantMigrationRouter } from '@ledgerline/kit/tenancy/tenant-migration.router.ts';
import { INTERNAL_MIGRATE_PATH, INTERNAL_MIGRATION_PROGRESS_PATH } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { MemorySigningKeyStore } from '@ledgerline/kit/auth/signing-key-store.ts';
import { createTokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import { createTokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';

const logger = createLogger('gate-test', 'silent');
const firm = (label: string) => {
  const suffix = randomBytes(3).toString('hex');
  return { id: 1, name: label, shortName: `${label}${suffix}`, schemaName: `t_${label}_${suffix}`, isActive: true, urlPattern: 'path', customDomain: null, customSubdomain: null };
};

/*
 * Issue 45: a service listens before it has migrated every firm; a firm still behind answers
 * 503 with Retry-After until its own schema is current, and every other firm is served.
 */
describe.each(databaseTargets())('Background tenant migrations behind a gate ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let identity: http.Server;
  let identityUrl: string;
  const current = firm('current');
  const behind = firm('behind');
  const missing = firm('missing');
  const broken = firm('broken');
  // The broken firm's upgrade fails until the test mends it (as an operator would, before "Refresh schema").
  let brokenFails = true;
  const v1: ServiceMigrations = { service: 'notes', scope: 'tenant', migrations: [{ id: '001_notes', sql: 'CREATE TABLE notes (id serial PRIMARY KEY)' }] };
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  const v2: ServiceMigrations = {
    ...v1,
    // The upgrade's migration waits for the test to let it finish, so the test sees the firms while they migrate.
    migrations: [...v1.migrations, {
      id: '002_tags', sql: 'ALTER TABLE notes ADD COLUMN tags text[]',
      run: async (tx) => {
        await released;
        const { rows } = await tx.query<{ schema: string }>('SELECT current_schema() AS schema');
        if (brokenFails && rows[0]?.schema === broken.schemaName) throw new Error('this firm cannot be upgraded yet');
      },
    }],
  };

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migrateTenant(db, current.schemaName, [{ ...v2, migrations: v2.migrations.map((m) => ({ ...m, run: undefined })) }]);
    await migrateTenant(db, behind.schemaName, [v1]);
    await migrateTenant(db, broken.schemaName, [v1]);
    identity = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === INTERNAL_TENANTS_PATH ? JSON.stringify([current, behind, missing, broken]) : '[]');
    });
    await new Promise<void>((resolve) => identity.listen(0, '127.0.0.1', resolve));
    identityUrl = `http://127.0.0.1:${(identity.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    release();
    identity.close();
    await scratch.drop();
  });

  it('serves current firms at once, answers 503 with Retry-After for firms still migrating, and opens each when done', async () => {
    const gate = new TenantMigrationGate();
    const notes = express.Router();
    notes.get('/api/notes', (_req, res) => { res.json([]); });
    const issuer = createTokenIssuer({ issuer: 'https://portal.test/identity', keyStore: new MemorySigningKeyStore(), tokenTtlSeconds: 600 });
    const tokens = createTokenVerifier({ issuers: [{ issuer: issuer.issuer, jwks: () => issuer.jwks() }] });
    const app = createServiceApp({ name: 'notes', logger, routers: [createTenantMigrationRouter(db, tokens, [v2], gate), gate.router(), notes], readiness: [] });
    const bus = new MemoryBus();
    const follower = await followTenantSchemas({ service: 'notes', db, bus, sets: [v2], gate, identityUrl: () => identityUrl, logger });
    expect(follower).not.toBeNull();
    // The admin console's upgrade progress reads each service's internal answer (platform administrators only).
    const admin = await issuer.sign({ sub: '1', username: 'root', fullName: 'Platform Admin', role: 'Admin', tenant: null, platformAdmin: true });
    const firmAdmin = await issuer.sign({ sub: '2', username: 'boss', fullName: 'Firm Admin', role: 'Admin', tenant: current.shortName, platformAdmin: false });
    const progress = async (token = admin) => request(app).get(INTERNAL_MIGRATION_PROGRESS_PATH).set('authorization', `Bearer ${token}`);
    expect((await progress()).body).toEqual({ behind: 3, pending: 3, firms: [behind, missing, broken].map((f) => f.shortName).sort() });
    expect((await progress(firmAdmin)).status).toBe(403);

    expect((await request(app).get('/api/notes').set(TENANT_HEADER, current.shortName)).status).toBe(200);
    for (const waiting of [behind, missing, broken]) {
      const r = await request(app).get('/api/notes').set(TENANT_HEADER, waiting.shortName);
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe(String(FIRM_MIGRATING_RETRY_SECONDS));
      expect(r.body).toEqual({ message: FIRM_MIGRATING_MESSAGE });
    }

    release();
    await follower!.caughtUp;
    // The firm whose upgrade failed stays closed; the others are open.
    expect((await progress()).body).toEqual({ behind: 3, pending: 1, firms: [broken.shortName] });
    for (const f of [current, behind, missing]) expect((await request(app).get('/api/notes').set(TENANT_HEADER, f.shortName)).status).toBe(200);
    expect((await request(app).get('/api/notes').set(TENANT_HEADER, broken.shortName)).status).toBe(503);

    // Mended, the platform admin's "Refresh schema" migrates it and opens it.
    brokenFails = false;
    const refreshed = await request(app).post(INTERNAL_MIGRATE_PATH).set('authorization', `Bearer ${admin}`).send({ schemaName: broken.schemaName });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ actions: ['notes: 002_tags'] });
    expect((await request(app).get('/api/notes').set(TENANT_HEADER, broken.shortName)).status).toBe(200);
    expect((await progress()).body).toEqual({ behind: 3, pending: 0, firms: [] });
    expect(await tenantSchemasBehind(db, [current, behind, missing, broken].map((f) => f.schemaName), [v2])).toEqual([]);
    await follower!.close();
    await bus.close();
  });
});
