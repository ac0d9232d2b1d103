import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import { PRODUCT_VERSION } from '@ledgerline/kit/portability/firm-manifest.ts';
import { readTar, TarWriter } from '@ledgerline/kit/portability/tar-archive.ts';

/**
 * Backup and restore of an installation on PostgreSQL (`npm run backup` with POSTGRES_URL).
 *
 * One `pg_dump` of the whole database locks every table of every firm in one transaction
 * (about 120 per firm): past fifty to a hundred firms that overflows PostgreSQL's lock table
 * ("out of shared memory … max_locks_per_transaction") unless the server is configured for
 * it. Here the database is dumped in parts instead: the platform (everything but the firms'
 * schemas), then the firms' schemas in batches whose tables fit a share of the lock table
 * (or one firm per part). Every part reads the same exported snapshot, held open by this
 * process for the whole backup, so together they are one consistent copy of the database at
 * one instant, while each part holds only its own tables' locks. Restore replays the parts
 * in order with `pg_restore`, one statement at a time (no transaction holding every table).
 */
export const POSTGRES_BACKUP_FORMAT = 'ledgerline-postgres-backup/1';
const MANIFEST = 'backup.json';
const PLATFORM_PART = 'platform.dump';
const HISTORY_TABLE = 'schema_migrations';
/** The share of the server's lock table one part may take (the installation keeps running beside it). */
const LOCK_TABLE_SHARE = 4;

export interface PostgresBackupManifest {
  format: typeof POSTGRES_BACKUP_FORMAT;
  productVersion: string;
  createdAt: string;
  /** The server's lock table when the backup ran, and the tables a part was allowed. */
  lockTableSlots: number;
  tablesPerPart: number;
  parts: { file: string; schemas: string[]; tables: number }[];
}

export interface PostgresBackupOptions {
  url: string;
  out: Writable;
  /** One firm per part, whatever fits. */
  perFirm?: boolean;
  /** Tables a part may lock; by default a quarter of the server's lock table. */
  tablesPerPart?: number;
  /** Called once the snapshot is taken (tests write after it to see that nothing later is in the backup). */
  onSnapshot?: () => Promise<void>;
  progress?: (message: string) => void;
}

interface FirmSchema { schema: string; tables: number }

/** Firms' schemas: every schema with a migration history except the platform's. */
async function firmSchemas(client: pg.ClientBase): Promise<FirmSchema[]> {
  const { rows } = await client.query<{ schema: string; tables: string }>(
    `SELECT n.nspname AS schema, count(c.oid) FILTER (WHERE c.relkind IN ('r', 'p')) AS tables
       FROM pg_namespace n JOIN pg_class c ON c.relnamespace = n.oid
      WHERE n.nspname <> $1
        AND EXISTS (SELECT 1 FROM pg_class h WHERE h.relnamespace = n.oid AND h.relname = $2 AND h.relkind = 'r')
      GROUP BY n.nspname ORDER BY n.nspname`,
    [PLATFORM_SCHEMA, HISTORY_TABLE],
  );
  return rows.map((r) => ({ schema: r.schema, tables: Number(r.tables) }));
}

/** `max_locks_per_transaction × (max_connections + max_prepared_transactions)`: the locks the whole server can hold. */
export async function lockTableSlots(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ slots: number }>(
    `SELECT current_setting('max_locks_per_transaction')::int
            * (current_setting('max_connections')::int + current_setting('max_prepared_transactions')::int) AS slots`,
  );
  return rows[0]!.slots;
}

/** Groups firms into parts of at most `budget` tables, in name order (a firm larger than the budget goes alone). */
export function planParts(firms: readonly FirmSchema[], budget: number): FirmSchema[][] {
  const parts: FirmSchema[][] = [];
  let current: FirmSchema[] = [];
  let tables = 0;
  for (const firm of firms) {
    if (current.length && tables + firm.tables > budget) {
      parts.push(current);
      current = [];
      tables = 0;
    }
    current.push(firm);
    tables += firm.tables;
  }
  if (current.length) parts.push(current);
  return parts;
}

export async function writePostgresBackup(options: PostgresBackupOptions): Promise<PostgresBackupManifest> {
  const progress = options.progress ?? (() => undefined);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const scratch = await mkdtemp(join(tmpFolderBeside(options.out), '.ledgerline-backup-'));
  try {
    // The snapshot every part reads; it lives as long as this transaction stays open.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]!.id;
    const firms = await firmSchemas(client);
    const slots = await lockTableSlots(client);
    await options.onSnapshot?.();
    const tablesPerPart = options.perFirm ? 1 : Math.max(1, options.tablesPerPart ?? Math.floor(slots / LOCK_TABLE_SHARE));
    const groups = planParts(firms, tablesPerPart);
    const manifest: PostgresBackupManifest = {
      format: POSTGRES_BACKUP_FORMAT, productVersion: PRODUCT_VERSION, createdAt: new Date().toISOString(),
      lockTableSlots: slots, tablesPerPart, parts: [],
    };
    const connection = connectionOf(options.url);
    const dumpEnv = { ...connection.env, PGOPTIONS: dumpSessionOptions() };
    // The platform: every schema but the firms' (the portal's tables, extensions, public).
    await pgTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${join(scratch, PLATFORM_PART)}`,
      ...firms.map((f) => `--exclude-schema=${f.schema}`), connection.args], dumpEnv);
    progress(`platform dumped; ${firms.length} firms in ${groups.length} parts of at most ${tablesPerPart} tables`);
    for (const [i, group] of groups.entries()) {
      const file = `firms-${String(i + 1).padStart(5, '0')}.dump`;
      await pgTool('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${join(scratch, file)}`,
        ...group.map((f) => `--schema=${f.schema}`), connection.args], dumpEnv);
      manifest.parts.push({ file, schemas: group.map((f) => f.schema), tables: group.reduce((n, f) => n + f.tables, 0) });
      progress(`part ${i + 1} of ${groups.length} dumped`);
    }
    await client.query('COMMIT');
    const tar = new TarWriter(options.out);
    const json = Buffer.from(JSON.stringify(manifest, null, 2));
    await tar.add(MANIFEST, json.length, json);
    for (const file of [PLATFORM_PART, ...manifest.parts.map((p) => p.file)]) {
      const path = join(scratch, file);
      await tar.add(file, (await stat(path)).size, createReadStream(path));
    }
    await tar.finish();
    return manifest;
  } finally {
    await client.end().catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Restores a backup into the database at `url`, which must hold no installation yet (no
 * `portal` schema): the platform first, then the firms' parts, each part by `pg_restore`
 * straight from the archive, one statement at a time.
 */
export async function restorePostgresBackup(options: { url: string; archive: Readable; progress?: (message: string) => void }): Promise<PostgresBackupManifest> {
  const progress = options.progress ?? (() => undefined);
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [PLATFORM_SCHEMA]);
    if (rows.length) throw new Invalid('The target database already holds an installation; restore into an empty database.');
  } finally {
    await client.end();
  }
  const connection = connectionOf(options.url);
  let manifest: PostgresBackupManifest | null = null;
  const expected: string[] = [];
  for await (const entry of readTar(options.archive)) {
    if (!manifest) {
      const parsed = entry.name === MANIFEST ? JSON.parse(await text(entry.body)) as Partial<PostgresBackupManifest> : null;
      if (parsed?.format !== POSTGRES_BACKUP_FORMAT || !Array.isArray(parsed.parts)) throw new Invalid('This is not a Ledgerline PostgreSQL backup.');
      manifest = parsed as PostgresBackupManifest;
      expected.push(PLATFORM_PART, ...manifest.parts.map((p) => p.file));
      continue;
    }
    if (entry.name !== expected.shift()) throw new Invalid(`The backup is damaged: ${entry.name} is not the part expected next.`);
    await pgTool('pg_restore', ['--exit-on-error', '--no-owner', `--dbname=${connection.args}`], connection.env, entry.body);
    progress(`${entry.name} restored`);
  }
  if (!manifest) throw new Invalid('This is not a Ledgerline PostgreSQL backup.');
  if (expected.length) throw new Invalid(`The backup is incomplete: ${expected.join(', ')} missing.`);
  return manifest;
}

/**
 * Settings for pg_dump's own session. pg_dump asks the catalog which materialized views depend
 * on which (even when there are none), joining pg_depend to itself; the planner misjudges how
 * many rows the first join gives and scans the whole of pg_depend once for each of them. With
 * 1,000 firms (2 million pg_depend rows) that one query took over 100 s in every part, and the
 * parts of a 1,000-firm backup nearly an hour; without nested loops it takes 0.2 s and a part
 * 12 s. pg_dump's other catalog queries read one table or join by oid, which hash joins serve
 * as well. Whatever PGOPTIONS the operator set is kept, after ours.
 */
export function dumpSessionOptions(): string {
  return ['-c enable_nestloop=off', process.env.PGOPTIONS].filter(Boolean).join(' ');
}

/** The URL without its password (which goes to the tools through PGPASSWORD, never on a command line). */
function connectionOf(url: string): { args: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { args: parsed.href, env: password ? { PGPASSWORD: password } : {} };
}

async function pgTool(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv, stdin?: Readable): Promise<void> {
  const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
  const errors: Buffer[] = [];
  child.stderr!.on('data', (c: Buffer) => errors.push(c));
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
  // A tool that stops reading (it failed) breaks the pipe: its own message is the one to report.
  const fed = stdin ? pipeline(stdin, child.stdin!).catch((err: unknown) => err) : Promise.resolve();
  const [code, feedError] = await Promise.all([exited, fed]);
  if (code === 0 && feedError) throw feedError;
  if (code !== 0) throw new Error(`${tool} failed (${code}): ${Buffer.concat(errors).toString('utf8').trim().slice(0, 2000)}`);
}

/** The dumps are staged next to the archive being written (a file stream's folder), else in the working folder. */
function tmpFolderBeside(out: Writable): string {
  const path = (out as Partial<{ path: string | Buffer }>).path;
  return typeof path === 'string' ? dirname(path) : process.cwd();
}

async function text(body: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
