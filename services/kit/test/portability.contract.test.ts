import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PassThrough, Readable } from 'node:stream';
import type { Database } from '../src/db/database.ts';
import { migrateTenant, type ServiceMigrations } from '../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { Invalid } from '../src/errors.ts';
import { tablePortability } from '../src/portability/portability.ts';
import { tablesOwnedBy } from '../src/portability/service-tables.ts';
import { readTar, TarWriter, TRUNCATED_ARCHIVE, type TarEntry } from '../src/portability/tar-archive.ts';
import { LocalObjectStore } from '../src/storage/local-object-store.ts';

/*
 * The portability contract every service's default hooks rely on: a schema's owned tables
 * (found from the migrations, parents first) go out as NDJSON and come back identical,
 * every column type as it was, sequences where they were, trigger-kept aggregates as they
 * were; the archive format refuses what is cut short.
 */
const run = promisify(execFile);

const ledger: ServiceMigrations = {
  service: 'ledger',
  scope: 'tenant',
  migrations: [
    {
      id: '001_books',
      sql: `CREATE TABLE books (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, title text NOT NULL);
      INSERT INTO books (title) VALUES ('seeded');
      CREATE TABLE entries (
        id serial PRIMARY KEY,
        book_id integer NOT NULL REFERENCES books (id),
        reply_to integer REFERENCES entries (id),
        amount numeric(30, 10) NOT NULL,
        booked_on date NOT NULL,
        at timestamptz NOT NULL,
        tags text[] NOT NULL,
        raw bytea,
        meta jsonb,
        words tsvector NOT NULL,
        doubled numeric GENERATED ALWAYS AS (amount * 2) STORED
      );
      -- An aggregate kept by a trigger, without a primary key.
      CREATE TABLE totals (book_id integer NOT NULL, entries integer NOT NULL);
      CREATE FUNCTION count_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        UPDATE totals SET entries = entries + 1 WHERE book_id = NEW.book_id;
        IF NOT FOUND THEN INSERT INTO totals VALUES (NEW.book_id, 1); END IF;
        RETURN NEW; END $$;
      CREATE TRIGGER entries_count AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION count_entry();`,
    },
  ],
};

const dump = async (db: Database, schema: string) => {
  const s = db.forSchema(schema);
  return {
    books: (await s.query('SELECT * FROM books ORDER BY id')).rows,
    entries: (await s.query("SET TimeZone = 'UTC'; SELECT id, book_id, reply_to, amount::text, booked_on::text, at::text, tags, encode(raw, 'hex') AS raw, meta, words::text, doubled::text FROM entries ORDER BY id")).rows,
    totals: (await s.query('SELECT * FROM totals ORDER BY book_id')).rows,
  };
};

async function exportPart(db: Database, schema: string, tables: string[], beforeEntry?: (name: string) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const tar = new TarWriter(out);
  await tablePortability.export({
    service: 'ledger', db: db.forSchema(schema), storage: new LocalObjectStore('/nonexistent'), tables, migrationSets: ['ledger'],
    write: async (name, size, body) => {
      await beforeEntry?.(name);
      await tar.add(name, size, body);
    },
  });
  await tar.finish();
  out.end();
  return Buffer.concat(chunks);
}

describe.each(databaseTargets())('table portability ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  const source = `src_${randomBytes(4).toString('hex')}`;
  const copy = `cpy_${randomBytes(4).toString('hex')}`;
  const other = `oth_${randomBytes(4).toString('hex')}`;
  let tables: string[];

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    for (const schema of [source, copy, other]) await migrateTenant(db, schema, [ledger]);
    const s = db.forSchema(source);
    await s.query("INSERT INTO books (title) VALUES ('Ledger \"2025\" ü')");
    for (let i = 1; i <= 1203; i++) {
      await s.query(
        `INSERT INTO entries (book_id, reply_to, amount, booked_on, at, tags, raw, meta, words)
         VALUES ($1, $2, $3::numeric, '2025-01-31', '2025-03-01T23:30:00.123456+05:30', $4, $5, $6, to_tsvector('english', $7))`,
        [1 + (i % 2), i > 1 ? i - 1 : null, `12345678901234567890.${String(i).padStart(10, '0')}`, ['a', `t${i}`], Buffer.from([0, 255, i % 256]), { n: i, s: 'x\ny' }, `receipt number ${i}`]);
    }
    await s.query('DELETE FROM entries WHERE id = 1203');
    tables = await tablesOwnedBy(db, [ledger]);
  }, 120_000);

  afterAll(async () => {
    await scratch.drop();
  });

  it('finds a service\'s tables from its migrations, parents first', () => {
    expect(tables).toEqual(['books', 'entries', 'totals']);
  });

  it('restores every row, type, sequence and aggregate exactly, and exports the copy to the same bytes', async () => {
    const archive = await exportPart(db, source, tables);
    await tablePortability.import({
      service: 'ledger', db: db.forSchema(copy), storage: new LocalObjectStore('/nonexistent'), tables, sourceSchema: source,
      entries: readTar(Readable.from([archive])),
    });
    expect(await dump(db, copy)).toEqual(await dump(db, source));
    expect((await exportPart(db, copy, tables)).equals(archive)).toBe(true);
    // The sequences continue where the source's were (1203 was used, then deleted).
    const next = await db.forSchema(copy).query<{ id: number }>("INSERT INTO entries (book_id, amount, booked_on, at, tags, words) VALUES (1, 1, '2025-01-01', now(), '{}', '') RETURNING id");
    expect(next.rows[0]!.id).toBe(1204);
    const book = await db.forSchema(copy).query<{ id: number }>("INSERT INTO books (title) VALUES ('next') RETURNING id");
    expect(book.rows[0]!.id).toBe(3);
    // The other firm's schema is untouched.
    expect((await db.forSchema(other).query('SELECT count(*)::int AS n FROM entries')).rows[0]).toEqual({ n: 0 });
  }, 120_000);

  it('refuses an entry for a table the service does not own', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const tar = new TarWriter(out);
    await tar.add('tables/secrets.000000.ndjson', 3, Buffer.from('{}\n'));
    await tar.finish();
    await expect(tablePortability.import({
      service: 'ledger', db: db.forSchema(other), storage: new LocalObjectStore('/nonexistent'), tables, sourceSchema: source,
      entries: readTar(Readable.from([Buffer.concat(chunks)])),
    })).rejects.toThrow(new Invalid('The archive holds a table this version does not have: secrets.'));
  });

  it('exports the rows of one instant: a book and its entry committed while it reads are wholly out', async () => {
    const s = db.forSchema(source);
    const count = async (table: string) => (await s.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
    const [books, entries] = [await count('books'), await count('entries')];
    let written: Promise<void> | undefined;
    const archive = await exportPart(db, source, tables, async (name) => {
      if (written || !name.startsWith('tables/books.')) return;
      // The books are read, the entries not yet: another request adds a book with an entry.
      written = s.transaction(async (tx) => {
        const book = await tx.query<{ id: number }>("INSERT INTO books (title) VALUES ('written during the export') RETURNING id");
        await tx.query("INSERT INTO entries (book_id, amount, booked_on, at, tags, words) VALUES ($1, 7, '2025-02-01', now(), '{}', '')", [book.rows[0]!.id]);
      });
      // PostgreSQL commits it at once; PGlite's one connection is the export's until it ends, so there the write waits.
      if (db.kind === 'postgres') await written;
    });
    await written;
    expect([await count('books'), await count('entries')]).toEqual([books + 1, entries + 1]);
    const rows: Record<string, Record<string, unknown>[]> = { books: [], entries: [] };
    for await (const e of readTar(Readable.from([archive]))) {
      const table = /^tables\/(books|entries)\./.exec(e.name)?.[1];
      const parts: Buffer[] = [];
      for await (const c of e.body) parts.push(c as Buffer);
      if (table) rows[table]!.push(...Buffer.concat(parts).toString().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>));
    }
    expect([rows.books!.length, rows.entries!.length]).toEqual([books, entries]);
    const bookIds = new Set(rows.books!.map((b) => b.id));
    expect(rows.entries!.filter((e) => !bookIds.has(e.book_id))).toEqual([]);
  }, 60_000);
});

describe('tar archive', () => {
  const entries = async (bytes: Buffer) => {
    const seen: { name: string; body: string }[] = [];
    for await (const e of readTar(Readable.from([bytes]))) seen.push({ name: e.name, body: await text(e) });
    return seen;
  };
  const text = async (e: TarEntry) => {
    const parts: Buffer[] = [];
    for await (const c of e.body) parts.push(c as Buffer);
    return Buffer.concat(parts).toString();
  };
  const build = async (items: { name: string; body: string }[]) => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const tar = new TarWriter(out);
    for (const i of items) await tar.add(i.name, Buffer.byteLength(i.body), Buffer.from(i.body));
    await tar.finish();
    return Buffer.concat(chunks);
  };
  const long = `${'folder/'.repeat(20)}file.txt`;

  it('reads back what it wrote, long names included, and skips unread bodies', async () => {
    const items = [{ name: 'a.txt', body: 'hello' }, { name: long, body: 'x'.repeat(1000) }, { name: 'empty', body: '' }];
    const bytes = await build(items);
    expect(await entries(bytes)).toEqual(items);
    const names: string[] = [];
    for await (const e of readTar(Readable.from([bytes]))) names.push(e.name);
    expect(names).toEqual(items.map((i) => i.name));
  });

  it('holds more than 65,535 entries (no count limit in tar), which GNU tar and Python list and this reader reads back', async () => {
    const count = 70_000;
    const bytes = await build(Array.from({ length: count }, (_, i) => ({ name: `files/objects/${String(i).padStart(8, '0')}`, body: `${i}` })));
    let seen = 0;
    let last = '';
    for await (const e of readTar(Readable.from([bytes]))) {
      last = await text(e);
      seen++;
    }
    expect([seen, last]).toEqual([count, String(count - 1)]);
    const dir = await mkdtemp(join(tmpdir(), 'many-entries-'));
    try {
      await writeFile(join(dir, 'firm.tar'), bytes);
      const listed = await run('tar', ['-tf', join(dir, 'firm.tar')], { maxBuffer: 16 << 20 });
      expect(listed.stdout.trim().split('\n')).toHaveLength(count);
      const python = await run('python3', ['-c', 'import sys, tarfile; t = tarfile.open(sys.argv[1]); m = t.getmembers(); print(len(m), t.extractfile(m[-1]).read().decode())', join(dir, 'firm.tar')]);
      expect(python.stdout.trim()).toBe(`${count} ${count - 1}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a stream cut short or a damaged header', async () => {
    const bytes = await build([{ name: 'a.txt', body: 'hello' }]);
    await expect(entries(bytes.subarray(0, 700))).rejects.toThrow(TRUNCATED_ARCHIVE);
    await expect(entries(bytes.subarray(0, 1024))).rejects.toThrow(TRUNCATED_ARCHIVE);
    const damaged = Buffer.from(bytes);
    damaged[3] = 0x41;
    await expect(entries(damaged)).rejects.toThrow(TRUNCATED_ARCHIVE);
  });
});
