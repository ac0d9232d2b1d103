import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../src/db/database.ts';
import { migrateTenant, prepareTenantSchema, type ServiceMigrations } from '../src/db/migrations.ts';
import { openPostgresDatabase } from '../src/db/postgres-database.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';

/** Ten services, each with a table of its own in every firm's schema. */
const SERVICES: ServiceMigrations[] = Array.from({ length: 10 }, (_, i) => ({
  service: `svc${i}`, scope: 'tenant', migrations: [{ id: '001', sql: `CREATE TABLE svc${i}_things (id serial PRIMARY KEY)` }],
}));

describe.each(databaseTargets())('A new firm\'s schema ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  const fresh = () => `s_new_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
  });
  afterAll(async () => { await scratch.drop(); });

  it('is prepared once (schema and history), and preparing again changes nothing', async () => {
    const schema = fresh();
    await prepareTenantSchema(db, schema);
    await prepareTenantSchema(db, schema);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'schema_migrations'`, [schema]);
    expect(rows[0]!.n).toBe(1);
    expect(await migrateTenant(db, schema, SERVICES.slice(0, 2))).toEqual(['svc0: 001', 'svc1: 001']);
  });

  it('refuses a schema name a firm may not have', async () => {
    await expect(prepareTenantSchema(db, 'portal')).rejects.toThrow(/reserved/);
    await expect(prepareTenantSchema(db, 'Bad-Name')).rejects.toThrow(/Schema name/);
  });

  if (target.name !== 'postgres') return;

  /** Transactions rolled back in the scratch database so far (a failed CREATE rolls one back). */
  const rollbacks = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
      return Number(rows[0]!.n);
    } finally {
      await client.end();
    }
  };

  /** Every service migrates the firm at the same moment, each from a pool (a process) of its own. */
  const raceServices = async (schema: string): Promise<string[]> => {
    const pools = await Promise.all(SERVICES.map(() => openPostgresDatabase({ url: scratch.url!, maxConnections: 1 })));
    try {
      return (await Promise.all(SERVICES.map((set, i) => migrateTenant(pools[i]!, schema, [set])))).flat();
    } finally {
      // Closing ends the backends, which flushes their statistics for rollbacks() to read.
      await Promise.all(pools.map((p) => p.close()));
    }
  };

  it('ten services migrating a prepared firm at once create nothing twice and fail no transaction', async () => {
    for (let round = 0; round < 3; round++) {
      const schema = fresh();
      await prepareTenantSchema(db, schema);
      const before = await rollbacks();
      expect((await raceServices(schema)).sort()).toEqual(SERVICES.map((s) => `${s.service}: 001`).sort());
      expect(await rollbacks()).toBe(before);
    }
  });

  it('services racing over a firm nobody prepared (a follower catching up) still fail no transaction', async () => {
    for (let round = 0; round < 3; round++) {
      const schema = fresh();
      const before = await rollbacks();
      expect(await raceServices(schema)).toHaveLength(SERVICES.length);
      expect(await rollbacks()).toBe(before);
    }
  });
});
