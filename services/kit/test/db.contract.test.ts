import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Database } from '../src/db/database.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { migratePlatform, migrateSchema, migrateTenant, migrateTenants, type ServiceMigrations } from '../src/db/migrations.ts';
import { conflictOnUnique, isUniqueViolation } from '../src/db/sql-errors.ts';
import { tenantSchema } from '../src/db/tenant-schema.ts';
import { Conflict, Invalid } from '../src/errors.ts';

const uniqueSchema = (label: string): string => `t_${label}_${randomBytes(4).toString('hex')}`;

const notesMigrations: ServiceMigrations = {
  service: 'notes',
  scope: 'tenant',
  migrations: [
    { id: '001_create_notes', sql: 'CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL UNIQUE)' },
    { id: '002_add_author', sql: "ALTER TABLE notes ADD COLUMN author text NOT NULL DEFAULT 'system'" },
  ],
};

describe.each(databaseTargets())('Database contract ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let tenantA: string;
  let tenantB: string;

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    tenantA = uniqueSchema('a');
    tenantB = uniqueSchema('b');
    await migrateTenant(db, tenantA, [notesMigrations]);
    await migrateTenant(db, tenantB, [notesMigrations]);
  });

  afterAll(async () => {
    await scratch.drop();
  });

  describe('queries', () => {
    it('binds parameters and returns rows with a row count', async () => {
      const r = await db.query<{ n: number; s: string }>('SELECT $1::int + $2::int AS n, $3::text AS s', [2, 3, "o'hara"]);
      expect(r.rows).toEqual([{ n: 5, s: "o'hara" }]);
      expect(r.rowCount).toBe(1);
    });

    it('parses types the same on every adapter: int8 as number, date as YYYY-MM-DD, jsonb as object', async () => {
      const r = await db.query<{ c: unknown; d: unknown; j: unknown; ts: unknown }>(
        `SELECT count(*) AS c, DATE '2024-02-29' AS d, '{"a":[1,2]}'::jsonb AS j, TIMESTAMPTZ '2024-01-02T03:04:05Z' AS ts
         FROM generate_series(1, 3)`,
      );
      expect(r.rows[0]).toEqual({ c: 3, d: '2024-02-29', j: { a: [1, 2] }, ts: new Date('2024-01-02T03:04:05Z') });
    });

    it('runs several statements in one call when there are no parameters and returns the last result', async () => {
      const r = await db.query<{ x: number }>('SELECT 1 AS x; SELECT 2 AS x');
      expect(r.rows).toEqual([{ x: 2 }]);
    });

    it('reports affected rows for writes', async () => {
      const t = db.forSchema(tenantA);
      await t.query("INSERT INTO notes (body) VALUES ('count-1'), ('count-2')");
      const updated = await t.query("UPDATE notes SET author = 'me' WHERE body LIKE 'count-%'");
      expect(updated.rowCount).toBe(2);
      const none = await t.query("DELETE FROM notes WHERE body = 'missing'");
      expect(none.rowCount).toBe(0);
    });

    it('answers ping', async () => {
      await expect(db.ping()).resolves.toBeUndefined();
    });
  });

  describe('transactions', () => {
    it('commits on resolve', async () => {
      const t = db.forSchema(tenantA);
      const id = await t.transaction(async (tx) => {
        const r = await tx.query<{ id: number }>("INSERT INTO notes (body) VALUES ('committed') RETURNING id");
        return r.rows[0]?.id;
      });
      const r = await t.query('SELECT body FROM notes WHERE id = $1', [id]);
      expect(r.rows).toEqual([{ body: 'committed' }]);
    });

    it('rolls back every write on throw and rethrows the error', async () => {
      const t = db.forSchema(tenantA);
      const boom = new Error('boom');
      await expect(
        t.transaction(async (tx) => {
          await tx.query("INSERT INTO notes (body) VALUES ('rolled-back-1')");
          await tx.query("INSERT INTO notes (body) VALUES ('rolled-back-2')");
          throw boom;
        }),
      ).rejects.toBe(boom);
      const r = await t.query("SELECT count(*) AS c FROM notes WHERE body LIKE 'rolled-back-%'");
      expect(r.rows[0]?.c).toBe(0);
    });

    it('rolls back when a statement fails and stays usable afterwards', async () => {
      const t = db.forSchema(tenantA);
      await expect(
        t.transaction(async (tx) => {
          await tx.query("INSERT INTO notes (body) VALUES ('before-error')");
          await tx.query('SELECT * FROM no_such_table');
        }),
      ).rejects.toThrow();
      expect((await t.query("SELECT 1 FROM notes WHERE body = 'before-error'")).rowCount).toBe(0);
      expect((await t.query('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    });

    // Only a server can drop a connection under a transaction (a restart, a failover). In
    // a process of its own: an unhandled 'error' event would end that process.
    if (target.name === 'postgres') {
      it('survives the server dropping a connection in the middle of a transaction: that transaction fails, the process and the pool go on', () => {
        const child = spawnSync(process.execPath, [join(import.meta.dirname, 'fixtures', 'dropped-connection.ts'), scratch.url!], { encoding: 'utf8', timeout: 60_000 });
        expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({ status: 0, stdout: 'transaction failed; afterwards answers' });
      });
    }

    it('refuses queries on a tx handle after its transaction ended', async () => {
      const leaked = await db.transaction(async (tx) => tx);
      await expect(leaked.query('SELECT 1')).rejects.toThrow('Transaction already ended');
    });

    it('keeps the schema of a handle after a rolled-back transaction of another schema', async () => {
      await expect(db.forSchema(tenantB).transaction(async () => { throw new Error('undo'); })).rejects.toThrow('undo');
      await db.forSchema(tenantA).query("INSERT INTO notes (body) VALUES ('after-rollback')");
      expect((await db.forSchema(tenantB).query("SELECT 1 FROM notes WHERE body = 'after-rollback'")).rowCount).toBe(0);
      expect((await db.forSchema(tenantA).query("SELECT 1 FROM notes WHERE body = 'after-rollback'")).rowCount).toBe(1);
    });
  });

  describe('forSchema isolation (other tenant cannot see it)', () => {
    it('keeps rows of two schemas with the same table apart', async () => {
      await db.forSchema(tenantA).query("INSERT INTO notes (body) VALUES ('only-a')");
      await db.forSchema(tenantB).query("INSERT INTO notes (body) VALUES ('only-b')");
      const inA = await db.forSchema(tenantA).query("SELECT body FROM notes WHERE body LIKE 'only-%'");
      const inB = await db.forSchema(tenantB).query("SELECT body FROM notes WHERE body LIKE 'only-%'");
      expect(inA.rows).toEqual([{ body: 'only-a' }]);
      expect(inB.rows).toEqual([{ body: 'only-b' }]);
    });

    it('does not resolve tenant tables from the Database itself', async () => {
      await expect(db.query('SELECT * FROM notes')).rejects.toThrow();
    });

    it('never mixes schemas under many concurrent interleaved queries and transactions', async () => {
      const a = db.forSchema(tenantA);
      const b = db.forSchema(tenantB);
      const work = Array.from({ length: 120 }, (_, i) => {
        const [handle, label] = i % 2 === 0 ? [a, 'a'] : [b, 'b'];
        if (i % 3 === 0) {
          return handle.transaction(async (tx) => {
            await tx.query('INSERT INTO notes (body) VALUES ($1)', [`mix-${label}-${i}`]);
            return (await tx.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]?.s;
          });
        }
        return handle
          .query('INSERT INTO notes (body) VALUES ($1)', [`mix-${label}-${i}`])
          .then(() => handle.query<{ s: string }>('SELECT current_schema() AS s'))
          .then((r) => r.rows[0]?.s);
      });
      const schemas = await Promise.all(work);
      schemas.forEach((s, i) => expect(s).toBe(i % 2 === 0 ? tenantA : tenantB));

      const bodies = async (schema: string) =>
        (await db.forSchema(schema).query<{ body: string }>("SELECT body FROM notes WHERE body LIKE 'mix-%'")).rows.map((r) => r.body);
      const inA = await bodies(tenantA);
      const inB = await bodies(tenantB);
      expect(inA).toHaveLength(60);
      expect(inB).toHaveLength(60);
      expect(inA.every((body) => body.startsWith('mix-a-'))).toBe(true);
      expect(inB.every((body) => body.startsWith('mix-b-'))).toBe(true);
    });

    it('rejects schema names that are not plain identifiers, and tenants mapped to reserved schemas', () => {
      expect(() => db.forSchema('Bad-Name')).toThrow(Invalid);
      expect(() => db.forSchema('a"; DROP SCHEMA public; --')).toThrow(Invalid);
      expect(() => db.forSchema('x'.repeat(64))).toThrow(Invalid);
      expect(() => tenantSchema('portal')).toThrow(Invalid);
      expect(() => tenantSchema('public')).toThrow(Invalid);
      expect(() => tenantSchema('pg_catalog')).toThrow(Invalid);
      expect(tenantSchema('acme_tax')).toBe('acme_tax');
    });
  });

  describe('sql errors', () => {
    it('maps a unique violation to Conflict only where asked, with the caller’s message', async () => {
      const t = db.forSchema(tenantA);
      await t.query("INSERT INTO notes (body) VALUES ('dup')");
      const duplicate = () => t.query("INSERT INTO notes (body) VALUES ('dup')");
      const raw = await duplicate().catch((e: unknown) => e);
      expect(isUniqueViolation(raw)).toBe(true);
      expect(raw).not.toBeInstanceOf(Conflict);
      const mapped = await conflictOnUnique(duplicate(), 'A note with this text already exists.').catch((e: unknown) => e);
      expect(mapped).toBeInstanceOf(Conflict);
      expect((mapped as Conflict).message).toBe('A note with this text already exists.');
      await expect(conflictOnUnique(t.query('SELECT * FROM nope'), 'unused')).rejects.not.toBeInstanceOf(Conflict);
    });
  });

  describe('migrations', () => {
    it('creates the schema, reports the actions applied, and returns [] when up to date', async () => {
      const schema = uniqueSchema('m');
      expect(await migrateTenant(db, schema, [notesMigrations])).toEqual(['notes: 001_create_notes', 'notes: 002_add_author']);
      expect(await migrateTenant(db, schema, [notesMigrations])).toEqual([]);
      const history = await db.forSchema(schema).query<{ service: string; id: string }>(
        'SELECT service, id FROM schema_migrations ORDER BY id',
      );
      expect(history.rows).toEqual([
        { service: 'notes', id: '001_create_notes' },
        { service: 'notes', id: '002_add_author' },
      ]);
      const extended: ServiceMigrations = {
        ...notesMigrations,
        migrations: [...notesMigrations.migrations, { id: '003_add_tags', sql: 'ALTER TABLE notes ADD COLUMN tags text[]' }],
      };
      expect(await migrateTenant(db, schema, [extended])).toEqual(['notes: 003_add_tags']);
    });

    it('migrates many firms at start-up by reading which are current in one statement per hundred, and migrates only the others', async () => {
      const extended: ServiceMigrations = {
        ...notesMigrations,
        migrations: [...notesMigrations.migrations, { id: '003_add_tags', sql: 'ALTER TABLE notes ADD COLUMN tags text[]' }],
      };
      const current = Array.from({ length: 105 }, () => uniqueSchema('cur'));
      for (const schema of current) await migrateTenant(db, schema, [extended]);
      const behind = uniqueSchema('behind');
      await migrateTenant(db, behind, [notesMigrations]);
      const missing = uniqueSchema('missing');

      // Counts the calls the start-up check makes: none per current firm.
      let calls = 0;
      const counted = new Proxy(db, {
        get(target, prop) {
          const value = Reflect.get(target, prop, target) as unknown;
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => { calls++; return (value as (...a: unknown[]) => unknown).apply(target, args); };
        },
      });
      expect(await migrateTenants(counted, current, [extended])).toEqual(new Map());
      expect(calls).toBe(3); // which have a history (1), then two batches of at most a hundred

      const applied = await migrateTenants(db, [...current, behind, missing], [extended]);
      expect(Object.fromEntries(applied)).toEqual({
        [behind]: ['notes: 003_add_tags'],
        [missing]: ['notes: 001_create_notes', 'notes: 002_add_author', 'notes: 003_add_tags'],
      });
      expect(await migrateTenants(db, [behind, missing], [extended])).toEqual(new Map());
    });

    it('applies only tenant sets per tenant and only platform sets to the platform schema', async () => {
      const schema = uniqueSchema('scope');
      const platform: ServiceMigrations = {
        service: 'notes',
        scope: 'platform',
        migrations: [{ id: '001_note_kinds', sql: 'CREATE TABLE note_kinds (name text PRIMARY KEY)' }],
      };
      expect(await migrateTenant(db, schema, [notesMigrations, platform])).toEqual(['notes: 001_create_notes', 'notes: 002_add_author']);
      expect(await migratePlatform(db, [notesMigrations, platform])).toEqual(['notes: 001_note_kinds']);
      expect((await db.query('SELECT count(*) AS c FROM portal.note_kinds')).rows[0]?.c).toBe(0);
      await expect(db.forSchema(schema).query('SELECT * FROM note_kinds')).rejects.toThrow();
    });

    it('rolls back a failing migration, records nothing for it, and retries it next time', async () => {
      const schema = uniqueSchema('fail');
      const broken: ServiceMigrations = {
        service: 'notes',
        scope: 'tenant',
        migrations: [
          notesMigrations.migrations[0]!,
          { id: '002_broken', sql: 'CREATE TABLE half_done (id int); SELECT * FROM missing_table' },
        ],
      };
      await expect(migrateTenant(db, schema, [broken])).rejects.toThrow(`Migration notes: 002_broken failed in schema ${schema}`);
      const t = db.forSchema(schema);
      expect((await t.query<{ id: string }>('SELECT id FROM schema_migrations')).rows).toEqual([{ id: '001_create_notes' }]);
      expect((await t.query("SELECT to_regclass('half_done') AS t")).rows).toEqual([{ t: null }]);

      const fixed: ServiceMigrations = {
        ...broken,
        migrations: [broken.migrations[0]!, { id: '002_broken', sql: 'CREATE TABLE half_done (id int)' }],
      };
      expect(await migrateTenant(db, schema, [fixed])).toEqual(['notes: 002_broken']);
    });

    it('applies each migration once when several callers migrate the same schema at once', async () => {
      const schema = uniqueSchema('race');
      const runs = await Promise.all(Array.from({ length: 6 }, () => migrateSchema(db, schema, [notesMigrations])));
      expect(runs.flat().sort()).toEqual(['notes: 001_create_notes', 'notes: 002_add_author']);
      const history = await db.forSchema(schema).query('SELECT count(*) AS c FROM schema_migrations');
      expect(history.rows[0]?.c).toBe(2);
    });

    it('rejects migration ids that are duplicated or out of order before running anything', async () => {
      const schema = uniqueSchema('order');
      const unordered: ServiceMigrations = {
        service: 'notes',
        scope: 'tenant',
        migrations: [notesMigrations.migrations[1]!, notesMigrations.migrations[0]!],
      };
      await expect(migrateTenant(db, schema, [unordered])).rejects.toThrow('unique and ascending');
      expect((await db.query('SELECT to_regnamespace($1) AS s', [schema])).rows).toEqual([{ s: null }]);
    });
  });
});
