import type { Database, Queryable } from './database.ts';
import { isUniqueViolation } from './sql-errors.ts';
import { PLATFORM_SCHEMA, assertSchemaName, quoteIdent, tenantSchema } from './tenant-schema.ts';

/** One forward-only step. `id` sorts in apply order, e.g. `001_create_files`. */
export interface Migration {
  id: string;
  /** Runs with the target schema first on the search path: write unqualified table names. */
  sql: string;
  /**
   * Runs after `sql` in the same transaction, for data changes SQL cannot compute (a value only
   * shared code knows how to derive). Same search path; forward-only like the SQL.
   */
  run?: (tx: Queryable) => Promise<void>;
}

/** A service's migrations for one scope: every tenant schema, or the platform schema. */
export interface ServiceMigrations {
  service: string;
  scope: 'tenant' | 'platform';
  migrations: readonly Migration[];
}

const HISTORY_TABLE = 'schema_migrations';

// Advisory-lock namespace (first key) so our locks never collide with another user's.
const MIGRATION_LOCK_CLASS = 0x4c4c4d47; // "LLMG"

/**
 * Brings `schema` up to date with `sets`, creating the schema if missing. Returns what it
 * applied as `"service: id"`, empty when already current. Each migration and its history
 * row commit together, so a failing migration leaves nothing behind and is retried next
 * time. Concurrent callers (several replicas starting at once) serialise on an advisory
 * lock per schema and re-check the history under it, so each migration runs once.
 */
export async function migrateSchema(db: Database, schema: string, sets: readonly ServiceMigrations[]): Promise<string[]> {
  assertSchemaName(schema);
  sets.forEach(checkSet);
  const history = `${quoteIdent(schema)}.${HISTORY_TABLE}`;
  const lock = migrationLock(schema);

  const exists = await db.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [history]);
  if (!exists.rows[0]?.t) await createHistory(db, schema, history, lock);

  const applied = new Set(
    (await db.query<{ key: string }>(`SELECT service || ': ' || id AS key FROM ${history}`)).rows.map((r) => r.key),
  );
  const target = db.forSchema(schema);
  const actions: string[] = [];
  for (const set of sets) {
    for (const migration of set.migrations) {
      const action = `${set.service}: ${migration.id}`;
      if (applied.has(action)) continue;
      const ran = await target.transaction(async (tx) => {
        await lock(tx);
        // Another process may have applied it while we waited for the lock.
        const done = await tx.query(`SELECT 1 FROM ${history} WHERE service = $1 AND id = $2`, [set.service, migration.id]);
        if (done.rowCount > 0) return false;
        await tx.query(migration.sql);
        if (migration.run) await migration.run(tx);
        await tx.query(`INSERT INTO ${history} (service, id) VALUES ($1, $2)`, [set.service, migration.id]);
        return true;
      }).catch((err: unknown) => {
        throw new Error(`Migration ${action} failed in schema ${schema}`, { cause: err });
      });
      if (ran) actions.push(action);
    }
  }
  return actions;
}

/** Migrates one tenant's schema with the tenant-scoped sets (platform sets are ignored). */
export function migrateTenant(db: Database, schemaName: string, sets: readonly ServiceMigrations[]): Promise<string[]> {
  return migrateSchema(db, tenantSchema(schemaName), sets.filter((s) => s.scope === 'tenant'));
}

/** Schemas whose history is read in one statement: each one's table is locked for the statement, so a batch stays far below the lock table's size. */
const CURRENT_CHECK_BATCH = 100;

/**
 * Brings every firm's schema up to date with the tenant-scoped sets. Which schemas are
 * already current is read in a few statements for all firms (`tenantSchemasBehind`), and
 * only the others are migrated one by one. Returns what it applied, per schema name.
 */
export async function migrateTenants(db: Database, schemaNames: readonly string[], sets: readonly ServiceMigrations[]): Promise<Map<string, string[]>> {
  const applied = new Map<string, string[]>();
  for (const schemaName of await tenantSchemasBehind(db, schemaNames, sets)) {
    const actions = await migrateTenant(db, schemaName, sets);
    if (actions.length) applied.set(schemaName, actions);
  }
  return applied;
}

/**
 * The firms (by schema name, in the order given) whose schema misses a migration of the
 * tenant-scoped sets, read in one statement plus one per hundred firms: checking each schema
 * on its own cost two round trips per firm and service, which made start-up grow with the
 * number of firms (21.8 s at 1,000, issue 45).
 */
export async function tenantSchemasBehind(db: Database, schemaNames: readonly string[], sets: readonly ServiceMigrations[]): Promise<string[]> {
  const tenantSets = sets.filter((s) => s.scope === 'tenant');
  if (!tenantSets.length) return [];
  const current = await currentTenantSchemas(db, schemaNames, tenantSets);
  return schemaNames.filter((name) => !current.has(name));
}

/** The firms (by schema name) whose history already holds every migration of `sets`. */
async function currentTenantSchemas(db: Database, schemaNames: readonly string[], sets: readonly ServiceMigrations[]): Promise<Set<string>> {
  const expected = sets.flatMap((set) => set.migrations.map((m) => `${set.service}: ${m.id}`));
  const schemaOf = new Map(schemaNames.map((name) => [tenantSchema(name), name]));
  // Firms without a history table yet (created while this service was down) are not current.
  const { rows: withHistory } = await db.query<{ schema: string }>(
    `SELECT s AS schema FROM unnest($1::text[]) AS s WHERE to_regclass(quote_ident(s) || '.${HISTORY_TABLE}') IS NOT NULL`,
    [[...schemaOf.keys()]],
  );
  const current = new Set<string>();
  for (let i = 0; i < withHistory.length; i += CURRENT_CHECK_BATCH) {
    const batch = withHistory.slice(i, i + CURRENT_CHECK_BATCH).map((r) => r.schema);
    const { rows } = await db.query<{ schema: string; n: number }>(
      batch.map((schema, j) =>
        `SELECT $${j + 2}::text AS schema, count(*)::int AS n FROM ${quoteIdent(schema)}.${HISTORY_TABLE} WHERE service || ': ' || id = ANY($1::text[])`,
      ).join(' UNION ALL '),
      [expected, ...batch],
    );
    for (const r of rows) if (r.n === expected.length) current.add(schemaOf.get(r.schema)!);
  }
  return current;
}

/** Migrates the platform schema (`portal`) with the platform-scoped sets (tenant sets are ignored). */
export function migratePlatform(db: Database, sets: readonly ServiceMigrations[]): Promise<string[]> {
  return migrateSchema(db, PLATFORM_SCHEMA, sets.filter((s) => s.scope === 'platform'));
}

/**
 * Creates a tenant's schema and its migration history, once, before the services migrate it
 * (identity calls this before asking every service to migrate a new firm). Services that
 * then migrate at the same moment find the schema there and create nothing themselves:
 * before, ten services raced to create each new firm's schema and PostgreSQL logged a
 * duplicate-key error on pg_namespace for every loser.
 */
export async function prepareTenantSchema(db: Database, schemaName: string): Promise<void> {
  const schema = tenantSchema(schemaName);
  await createHistory(db, schema, `${quoteIdent(schema)}.${HISTORY_TABLE}`, migrationLock(schema));
}

const migrationLock = (schema: string) => (tx: Queryable) =>
  tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2)::int)', [MIGRATION_LOCK_CLASS, schema]);

async function createHistory(db: Database, schema: string, history: string, lock: (tx: Queryable) => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction(async (tx) => {
        await lock(tx);
        // The advisory lock does not refresh a session's catalog cache, so `IF NOT EXISTS`
        // alone may miss a schema that the caller we waited for has just committed, and fail
        // on the catalog's unique index. Reading the catalog tables with this statement's
        // snapshot sees it: then there is nothing to create.
        const { rows } = await tx.query<{ schema: boolean; history: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema,
                  EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2) AS history`,
          [schema, HISTORY_TABLE],
        );
        if (rows[0]?.history) return;
        if (!rows[0]?.schema) await tx.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
        await tx.query(
          `CREATE TABLE IF NOT EXISTS ${history} (
             service text NOT NULL,
             id text NOT NULL,
             applied_at timestamptz NOT NULL DEFAULT now(),
             PRIMARY KEY (service, id))`,
        );
      });
      return;
    } catch (err) {
      // Kept as a safety net (a creator outside this lock, an older replica during an upgrade).
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

function checkSet(set: ServiceMigrations): void {
  if (!set.service) throw new Error('Migration set without a service name');
  set.migrations.forEach((m, i) => {
    const previous = set.migrations[i - 1];
    if (!m.id) throw new Error(`${set.service}: migration without an id`);
    // Ascending ids catch a migration inserted or renamed out of order before it runs anywhere.
    if (previous && previous.id >= m.id) {
      throw new Error(`${set.service}: migration ids must be unique and ascending (${previous.id}, ${m.id})`);
    }
  });
}
