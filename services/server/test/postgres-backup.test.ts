import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { migratePlatform, migrateTenant, type ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import { openPostgresDatabase } from '@ledgerline/kit/db/postgres-database.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { runBackupCommand } from '../src/backup/backup-cli.ts';
import { dumpSessionOptions, planParts, restorePostgresBackup, writePostgresBackup } from '../src/backup/postgres-backup.ts';

/*
 * `npm run backup` and `npm run restore` with POSTGRES_URL (docs/running/backup-restore.md):
 * many firms dumped in parts that fit the lock table (or one firm per part), all from one
 * snapshot, and restored part by part into an empty database, equal to the original.
 */
const postgresUrl = realServerUrl('POSTGRES_URL');
const CHART_DUMP_SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'charts', 'portal', 'files', 'backup-dump.sh');
const suite = postgresUrl ? describe : describe.skip;
const FIRMS = 30;

const platformSet: ServiceMigrations = {
  service: 'bk-platform', scope: 'platform',
  migrations: [{ id: '001', sql: 'CREATE TABLE firms (id serial PRIMARY KEY, schema_name text NOT NULL UNIQUE)' }],
};
/** Seven tables a firm, with what a dump must carry: sequences, a foreign key, indexes, jsonb. */
const firmSet: ServiceMigrations = {
  service: 'bk-firm', scope: 'tenant',
  migrations: [{
    id: '001',
    sql: `CREATE TABLE clients (id serial PRIMARY KEY, name text NOT NULL, profile jsonb NOT NULL DEFAULT '{}');
      CREATE TABLE files (id bigserial PRIMARY KEY, client_id integer NOT NULL REFERENCES clients (id), title text NOT NULL);
      CREATE INDEX files_by_client ON files (client_id);
      CREATE TABLE tasks (id serial PRIMARY KEY, client_id integer REFERENCES clients (id), due date);
      CREATE TABLE notes (id serial PRIMARY KEY, body text);
      CREATE TABLE settings (key text PRIMARY KEY, value jsonb);
      CREATE TABLE audit (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), what text)`,
  }],
};
const TABLES = ['clients', 'files', 'tasks', 'notes', 'settings', 'audit', 'schema_migrations'];
const schemaOf = (i: number) => `bk_firm_${String(i).padStart(3, '0')}`;

/** Every firm table's rows as text, firm by firm: equal fingerprints, equal data. */
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const { rows: schemas } = await db.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'bk\\_%' ORDER BY nspname");
  for (const { nspname } of schemas) {
    for (const table of TABLES.filter((t) => t !== 'schema_migrations')) {
      const { rows } = await db.forSchema(nspname).query<{ digest: string | null; n: number }>(
        `SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest, count(*)::int AS n FROM ${table} t`);
      out[`${nspname}.${table}`] = `${rows[0]!.n}:${rows[0]!.digest ?? ''}`;
    }
  }
  const { rows } = await db.query<{ list: string }>('SELECT string_agg(schema_name, \',\' ORDER BY id) AS list FROM portal.firms');
  out['portal.firms'] = rows[0]!.list;
  return out;
}

describe("pg_dump's session", () => {
  it('runs without nested loops (a catalog of 1,000 firms made one of its queries take 100 s a part), in npm run backup and the chart job, keeping the operator\'s PGOPTIONS after', () => {
    const before = process.env.PGOPTIONS;
    try {
      delete process.env.PGOPTIONS;
      expect(dumpSessionOptions()).toBe('-c enable_nestloop=off');
      process.env.PGOPTIONS = '-c work_mem=64MB';
      expect(dumpSessionOptions()).toBe('-c enable_nestloop=off -c work_mem=64MB');
    } finally {
      if (before === undefined) delete process.env.PGOPTIONS; else process.env.PGOPTIONS = before;
    }
    // The chart job's own line, run by the shell with and without an operator's PGOPTIONS.
    const line = readFileSync(CHART_DUMP_SCRIPT, 'utf8').split('\n').find((l) => l.startsWith('export PGOPTIONS='));
    expect(line).toBeDefined();
    const chart = (operator: string) => spawnSync('sh', ['-c', `${operator}\n${line}\nprintf %s "$PGOPTIONS"`], { encoding: 'utf8' }).stdout;
    expect(chart('unset PGOPTIONS')).toBe('-c enable_nestloop=off');
    expect(chart('PGOPTIONS="-c work_mem=64MB"')).toBe('-c enable_nestloop=off -c work_mem=64MB');
  });
});

describe('planParts', () => {
  it('packs firms in name order into parts of at most the budget; a firm larger than it goes alone', () => {
    const firms = [{ schema: 'a', tables: 87 }, { schema: 'b', tables: 87 }, { schema: 'c', tables: 87 }, { schema: 'd', tables: 300 }, { schema: 'e', tables: 10 }];
    expect(planParts(firms, 200).map((p) => p.map((f) => f.schema))).toEqual([['a', 'b'], ['c'], ['d'], ['e']]);
    expect(planParts(firms, 1).map((p) => p.map((f) => f.schema))).toEqual([['a'], ['b'], ['c'], ['d'], ['e']]);
    expect(planParts([], 100)).toEqual([]);
  });
});

suite('PostgreSQL backup and restore of many firms', () => {
  let source: { url: string; drop(): Promise<void> };
  let db: Database;
  let expected: Record<string, string>;
  const folder = mkdtempSync(join(tmpdir(), 'pg-backup-'));
  const targets: { url: string; drop(): Promise<void> }[] = [];
  const opened: Database[] = [];
  const target = async () => {
    const t = await createScratchDatabase(postgresUrl!);
    targets.push(t);
    return t;
  };
  const open = async (url: string) => {
    const d = await openPostgresDatabase({ url });
    opened.push(d);
    return d;
  };

  beforeAll(async () => {
    source = await createScratchDatabase(postgresUrl!);
    db = await open(source.url);
    await migratePlatform(db, [platformSet]);
    for (let i = 0; i < FIRMS; i++) {
      const schema = schemaOf(i);
      await migrateTenant(db, schema, [firmSet]);
      await db.query('INSERT INTO portal.firms (schema_name) VALUES ($1)', [schema]);
      await db.forSchema(schema).transaction(async (tx) => {
        await tx.query("INSERT INTO clients (name, profile) SELECT 'client ' || g, jsonb_build_object('n', g) FROM generate_series(1, 5) g");
        await tx.query("INSERT INTO files (client_id, title) SELECT 1 + g % 5, 'file ' || g FROM generate_series(1, 12) g");
        await tx.query("INSERT INTO tasks (client_id, due) VALUES (1, '2026-12-31'), (NULL, NULL)");
        await tx.query('INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)', ['firm', JSON.stringify({ schema })]);
        await tx.query("INSERT INTO audit (what) VALUES ('created')");
      });
    }
    expected = await fingerprint(db);
  });
  afterAll(async () => {
    for (const d of opened) await d.close();
    for (const t of targets) await t.drop();
    await source?.drop();
    await rm(folder, { recursive: true, force: true });
  });

  it('dumps the firms in parts within the lock budget from one snapshot, and restores them equal to the original', async () => {
    const archive = join(folder, 'batches.tar');
    const file = createWriteStream(archive);
    const manifest = await writePostgresBackup({
      url: source.url, out: file, tablesPerPart: 20,
      // Written after the snapshot: none of it may be in the backup.
      onSnapshot: async () => {
        await db.forSchema(schemaOf(0)).query("INSERT INTO notes (body) VALUES ('after the snapshot')");
        await migrateTenant(db, 'bk_late_firm', [firmSet]);
        await db.query("INSERT INTO portal.firms (schema_name) VALUES ('bk_late_firm')");
      },
    });
    await new Promise<void>((resolve) => file.end(resolve));

    expect(manifest.parts.flatMap((p) => p.schemas)).toEqual(Array.from({ length: FIRMS }, (_, i) => schemaOf(i)));
    for (const part of manifest.parts) expect(part.tables).toBeLessThanOrEqual(20);
    expect(manifest.parts).toHaveLength(FIRMS / 2);

    const restoredDb = await target();
    await restorePostgresBackup({ url: restoredDb.url, archive: createReadStream(archive) });
    const restored = await open(restoredDb.url);
    expect(await fingerprint(restored)).toEqual(expected);
    // Sequences came along: the next row of a restored firm gets the next id, not a duplicate.
    const next = await restored.forSchema(schemaOf(7)).query<{ id: number }>("INSERT INTO clients (name) VALUES ('new') RETURNING id");
    expect(next.rows[0]!.id).toBe(6);
    // The foreign keys too.
    await expect(restored.forSchema(schemaOf(7)).query("INSERT INTO files (client_id, title) VALUES (999, 'orphan')")).rejects.toThrow(/foreign key/);
  });

  it('npm run backup -- --per-firm writes one part per firm, and npm run restore brings them all back', async () => {
    // The firm created after the previous backup's snapshot is here now.
    const now = await fingerprint(db);
    const archive = join(folder, 'per-firm.tar');
    expect(await runBackupCommand(['backup', '--out', archive, '--per-firm'], { POSTGRES_URL: source.url })).toBe(0);
    const restoredDb = await target();
    expect(await runBackupCommand(['restore', archive], { POSTGRES_URL: restoredDb.url })).toBe(0);
    expect(await fingerprint(await open(restoredDb.url))).toEqual(now);
    expect(Object.keys(now)).toContain('bk_late_firm.clients');
  });

  it("the chart's backup job (files/backup-dump.sh, with the PostgreSQL image's tools) writes the same backup: parts within the budget, restored equal by npm run restore", async () => {
    const now = await fingerprint(db);
    const archive = join(folder, 'chart.tar');
    const run = spawnSync('sh', [CHART_DUMP_SCRIPT], {
      env: { ...process.env, POSTGRES_URL: source.url, BACKUP_OUT: archive, BACKUP_TABLES_PER_PART: '20', PRODUCT_VERSION: '9.9.9' }, encoding: 'utf8',
    });
    expect(run.stderr).toMatch(/31 firms in 16 parts of at most 20 tables/);
    expect(run.status).toBe(0);
    const restoredDb = await target();
    const manifest = await restorePostgresBackup({ url: restoredDb.url, archive: createReadStream(archive) });
    // The same plan as `npm run backup` makes for the same firms and budget.
    const firms = [...Array.from({ length: FIRMS }, (_, i) => schemaOf(i)), 'bk_late_firm'].sort().map((schema) => ({ schema, tables: TABLES.length }));
    expect(manifest.parts.map((p) => p.schemas)).toEqual(planParts(firms, 20).map((part) => part.map((f) => f.schema)));
    expect(manifest).toMatchObject({ productVersion: '9.9.9', tablesPerPart: 20, lockTableSlots: expect.any(Number) });
    expect(await fingerprint(await open(restoredDb.url))).toEqual(now);
    // Nothing of its own is left beside the archive.
    expect(readdirSync(folder).filter((name) => name.startsWith('.ledgerline-backup'))).toEqual([]);
  });

  it("the chart's backup job fails, leaving no archive, when the database cannot be reached or the budget is not a number", () => {
    const broken = join(folder, 'broken.tar');
    const unreachable = spawnSync('sh', [CHART_DUMP_SCRIPT], { env: { ...process.env, POSTGRES_URL: 'postgres://nobody@127.0.0.1:1/none', BACKUP_OUT: broken }, encoding: 'utf8' });
    expect(unreachable.status).not.toBe(0);
    expect(unreachable.stderr).toMatch(/could not open a snapshot/);
    const notANumber = spawnSync('sh', [CHART_DUMP_SCRIPT], { env: { ...process.env, POSTGRES_URL: source.url, BACKUP_OUT: broken, BACKUP_TABLES_PER_PART: 'many' }, encoding: 'utf8' });
    expect(notANumber.status).not.toBe(0);
    expect(notANumber.stderr).toMatch(/BACKUP_TABLES_PER_PART must be a whole number/);
    expect(existsSync(broken)).toBe(false);
    expect(readdirSync(folder).filter((name) => name.startsWith('.ledgerline-backup'))).toEqual([]);
  });

  it('refuses to restore over an installation, or a file that is not a PostgreSQL backup', async () => {
    const bogus = join(folder, 'bogus.tar');
    writeFileSync(bogus, Buffer.alloc(1024));
    // The target is checked before a byte of the archive is read.
    await expect(restorePostgresBackup({ url: source.url, archive: createReadStream(bogus) })).rejects.toThrow(/already holds an installation/);
    const empty = await target();
    await expect(restorePostgresBackup({ url: empty.url, archive: createReadStream(bogus) })).rejects.toThrow('This is not a Ledgerline PostgreSQL backup.');
    expect(await runBackupCommand(['backup', '--out', join(folder, 'x.tar'), '--tables-per-part', 'many'], { POSTGRES_URL: source.url })).toBe(2);
  });
});
