import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';
import { quoteIdent } from '../db/tenant-schema.ts';

/**
 * The tables a service owns in a tenant schema, found by running its tenant migrations in
 * a scratch schema inside a transaction that is rolled back: no list to keep by hand, so a
 * table or column another migration adds comes along in exports without code here.
 * Ordered parents first (by their foreign keys), which is the order rows are restored in.
 */
export async function tablesOwnedBy(db: Database, sets: readonly ServiceMigrations[]): Promise<string[]> {
  const tenantSets = sets.filter((s) => s.scope === 'tenant');
  if (!tenantSets.length) return [];
  const probe = `portability_probe_${randomBytes(6).toString('hex')}`;
  let found: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query(`CREATE SCHEMA ${quoteIdent(probe)}`);
    // LOCAL: the rollback below restores the connection's path, which the adapters track.
    await tx.query(`SET LOCAL search_path TO ${quoteIdent(probe)}, public`);
    for (const set of tenantSets) for (const m of set.migrations) await tx.query(m.sql);
    found = await tablesInDependencyOrder(tx, probe);
    throw new ProbeDone();
  }).catch((err: unknown) => {
    if (!(err instanceof ProbeDone)) throw err;
  });
  return found;
}

class ProbeDone extends Error {}

async function tablesInDependencyOrder(q: Queryable, schema: string): Promise<string[]> {
  const { rows: tables } = await q.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname`, [schema]);
  const { rows: refs } = await q.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
       JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = ch.relnamespace
     WHERE k.contype = 'f' AND n.nspname = $1 AND ch.oid <> pa.oid`, [schema]);
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const r of refs) if (r.child === name) visit(r.parent, path);
    placed.add(name);
    ordered.push(name);
  };
  for (const t of tables) visit(t.name, new Set());
  return ordered;
}

export interface TableShape {
  /** Columns a row is written and restored with (generated columns are recomputed). */
  columns: string[];
  generated: string[];
  /** Primary key columns with their SQL types (empty: read whole, these are small aggregates). */
  key: { name: string; type: string }[];
  /** Sequences behind the table's serial and identity columns. */
  sequences: { column: string; sequence: string }[];
}

/** A table's columns, key and sequences as the catalog has them now (in the handle's schema). */
export async function tableShape(q: Queryable, schema: string, table: string): Promise<TableShape> {
  const { rows: columns } = await q.query<{ name: string; type: string; generated: string; key_position: number | null; sequence: string | null }>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attgenerated::text AS generated,
            array_position(pk.conkey, a.attnum) AS key_position,
            pg_get_serial_sequence(quote_ident($1) || '.' || quote_ident($2), a.attname) AS sequence
     FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_constraint pk ON pk.conrelid = c.oid AND pk.contype = 'p'
     WHERE n.nspname = $1 AND c.relname = $2 AND a.attnum > 0 AND NOT a.attisdropped
     ORDER BY a.attnum`, [schema, table]);
  if (!columns.length) throw new Error(`Table ${schema}.${table} not found`);
  return {
    columns: columns.filter((c) => c.generated === '').map((c) => c.name),
    generated: columns.filter((c) => c.generated !== '').map((c) => c.name),
    key: columns.filter((c) => c.key_position !== null).sort((a, b) => a.key_position! - b.key_position!).map((c) => ({ name: c.name, type: c.type })),
    sequences: columns.filter((c) => c.sequence).map((c) => ({ column: c.name, sequence: c.sequence! })),
  };
}
