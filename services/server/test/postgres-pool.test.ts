import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadPlatformConfig } from '../src/platform.config.ts';
import { createDatabase } from '@ledgerline/kit/db/create-database.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';

const postgresUrl = realServerUrl('POSTGRES_URL');
const suite = postgresUrl ? describe : describe.skip;

describe('pool settings in the platform config', () => {
  it('recycle connections by default, and read every bound from its variable', () => {
    const defaults = loadPlatformConfig({});
    expect(defaults).toMatchObject({ postgresPoolMax: 10, postgresPoolMaxLifetimeSeconds: 1800, postgresPoolMaxUses: 7500 });
    expect(loadPlatformConfig({ POSTGRES_POOL_MAX: '3', POSTGRES_POOL_MAX_LIFETIME_SECONDS: '0', POSTGRES_POOL_MAX_USES: '100' }))
      .toMatchObject({ postgresPoolMax: 3, postgresPoolMaxLifetimeSeconds: 0, postgresPoolMaxUses: 100 });
  });

  it('refuse a pool of no connections or a negative bound, naming the variable', () => {
    expect(() => loadPlatformConfig({ POSTGRES_POOL_MAX: '0' })).toThrow(/POSTGRES_POOL_MAX=/);
    expect(() => loadPlatformConfig({ POSTGRES_POOL_MAX_USES: '-1' })).toThrow(/POSTGRES_POOL_MAX_USES=/);
  });
});

suite('PostgreSQL pool hygiene', () => {
  let scratch: { url: string; drop(): Promise<void> };
  const opened: Database[] = [];
  const open = async (pool: Parameters<typeof createDatabase>[0]['pool']) => {
    const db = await createDatabase({ postgresUrl: scratch.url, pool });
    opened.push(db);
    return db;
  };
  const backendsOf = async (db: Database, checkouts: number) => {
    const pids: number[] = [];
    for (let i = 0; i < checkouts; i++) pids.push((await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    return pids;
  };

  beforeAll(async () => { scratch = await createScratchDatabase(postgresUrl!); });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await scratch.drop();
  });

  it('a connection is replaced after maxUses checkouts, so no backend serves for ever', async () => {
    const db = await open({ maxConnections: 1, maxUses: 3 });
    const pids = await backendsOf(db, 9);
    const uses = new Map<number, number>();
    for (const pid of pids) uses.set(pid, (uses.get(pid) ?? 0) + 1);
    expect(uses.size).toBeGreaterThanOrEqual(3);
    for (const n of uses.values()) expect(n).toBeLessThanOrEqual(3);
  });

  it('without a bound a single connection serves every checkout', async () => {
    const db = await open({ maxConnections: 1, maxUses: 0 });
    expect(new Set(await backendsOf(db, 9)).size).toBe(1);
  });

  it('maxConnections caps the connections the pool opens at once', async () => {
    const db = await open({ maxConnections: 2 });
    const inFlight = await Promise.all(Array.from({ length: 6 }, () => db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid, pg_sleep(0.05)')));
    expect(new Set(inFlight.map((r) => r.rows[0]!.pid)).size).toBeLessThanOrEqual(2);
  });
});
