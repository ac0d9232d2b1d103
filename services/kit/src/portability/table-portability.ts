import { StringDecoder } from 'node:string_decoder';
import { Conflict, Invalid, type DomainError } from '../errors.ts';
import type { Queryable, SchemaDb } from '../db/database.ts';
import { quoteIdent } from '../db/tenant-schema.ts';
import { tableShape, type TableShape } from './service-tables.ts';
import type { TarEntry } from './tar-archive.ts';

/** Rows read per query on export, and the most rows or bytes sent per insert on import. */
const PAGE_ROWS = 500;
const BATCH_BYTES = 4 * 1024 * 1024;
/**
 * An import inserts at most this many rows (or IMPORT_BATCH_BYTES) per transaction and rests
 * between them: on the embedded database (one connection) other firms' queries wait at most
 * for one batch, not for a whole table (bench/firm-import.bench.ts).
 */
const IMPORT_BATCH_ROWS = 200;
const IMPORT_BATCH_BYTES = 1024 * 1024;
const IMPORT_REST_MAX_MS = 250;

/** `tables/<table>.<piece>.ndjson`: a table's rows in pieces, restored in order. */
export const TABLE_ENTRY = /^tables\/([a-z_][a-z0-9_]*)\.\d{6}\.ndjson$/;
export const SEQUENCES_ENTRY = 'sequences.json';
export const VERSIONS_ENTRY = 'migrations.json';

const tableEntry = (table: string, piece: number) => `tables/${table}.${String(piece).padStart(6, '0')}.ndjson`;

type Write = (name: string, body: Buffer) => Promise<void>;

/** A schema read at one instant: every query through it sees the same committed rows. */
export interface Snapshot extends Queryable {
  readonly schema: string;
}

/**
 * Runs `read` in one read-only REPEATABLE READ transaction of the schema, timestamps in
 * UTC: rows committed while it reads are wholly out of what it sees, so an export never
 * holds a child without its parent or half of what one request wrote. On PostgreSQL the
 * firm keeps writing meanwhile; on PGlite (one connection) other queries wait until the
 * read ends, which is why a service reads only its rows in it, not its stored objects.
 */
export function inSnapshot<T>(db: SchemaDb, read: (snapshot: Snapshot) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    await tx.query("SET LOCAL TimeZone = 'UTC'");
    return read({ schema: db.schema, query: (text, params) => tx.query(text, params) });
  });
}

/** How a service's rows leave differently from how they are stored, per table. */
export interface ExportRewrites {
  /**
   * Columns written as an SQL expression over the row `t` instead of their value: for
   * values that embed where the firm lives (an object key naming its schema), so the same
   * firm exports the same bytes wherever it is.
   */
  columns?: Record<string, Record<string, string>>;
  /**
   * A row changed in JavaScript, for what only the service can compute (a secret sealed
   * with this installation's key, opened so that any installation can import it). The row
   * is parsed and written back as JSON, so it is meant for small tables.
   */
  rows?: Record<string, (row: Record<string, unknown>) => Record<string, unknown>>;
}

/**
 * Writes every owned table as NDJSON (one JSON object per row, as PostgreSQL renders it,
 * not parsed in JavaScript unless a service rewrites the table's rows: numerics,
 * timestamps and byte strings keep their exact text), then the sequences' positions and
 * the migrations the schema is at. Every read goes through one snapshot (see
 * `inSnapshot`), pages walking the primary key.
 */
export async function exportTables(db: Snapshot, migrationSets: readonly string[], tables: readonly string[], write: Write, rewrites: ExportRewrites = {}): Promise<void> {
  const sequences: { table: string; column: string; lastValue: string; isCalled: boolean }[] = [];
  for (const table of tables) {
    const shape = await tableShape(db, db.schema, table);
    await writeTable(db, table, shape, write, rewrites.columns?.[table] ?? {}, rewrites.rows?.[table]);
    for (const s of shape.sequences) {
      const { rows } = await db.query<{ last_value: string; is_called: boolean }>(`SELECT last_value::text, is_called FROM ${s.sequence}`);
      sequences.push({ table, column: s.column, lastValue: rows[0]!.last_value, isCalled: rows[0]!.is_called });
    }
  }
  await write(SEQUENCES_ENTRY, Buffer.from(JSON.stringify(sequences)));
  const { rows } = await db.query<{ service: string; id: string }>('SELECT service, id FROM schema_migrations WHERE service = ANY($1) ORDER BY service, id', [[...migrationSets]]);
  const versions: Record<string, string[]> = Object.fromEntries(migrationSets.map((set) => [set, []]));
  for (const r of rows) versions[r.service]!.push(r.id);
  await write(VERSIONS_ENTRY, Buffer.from(JSON.stringify(versions)));
}

/**
 * One table's rows, in numbered pieces of bounded size (an entry's length must be known
 * before its bytes, so a piece is buffered, never the table).
 */
async function writeTable(db: Snapshot, table: string, shape: TableShape, write: Write, overrides: Record<string, string>,
  rewrite?: (row: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const literal = (c: string) => `'${c.replaceAll("'", "''")}'`;
  let json = `(to_jsonb(t) - ARRAY[${shape.generated.map(literal).join(', ')}]::text[])`;
  for (const [column, sql] of Object.entries(overrides)) json = `jsonb_set(${json}, ARRAY[${literal(column)}], to_jsonb(${sql}))`;
  const row = `${json}::text AS row`;
  const name = quoteIdent(table);
  let piece = 0;
  let parts: Buffer[] = [];
  let bytes = 0;
  const add = (rows: { row: string }[]) => {
    for (const r of rows) {
      const b = Buffer.from(`${rewrite ? JSON.stringify(rewrite(JSON.parse(r.row) as Record<string, unknown>)) : r.row}\n`);
      parts.push(b);
      bytes += b.length;
    }
  };
  const flush = async () => {
    if (!parts.length) return;
    await write(tableEntry(table, piece++), Buffer.concat(parts));
    parts = [];
    bytes = 0;
  };
  if (!shape.key.length) {
    add((await db.query<{ row: string }>(`SELECT ${row} FROM ${name} t ORDER BY 1`)).rows);
    return flush();
  }
  const keyList = shape.key.map((k) => `t.${quoteIdent(k.name)}`).join(', ');
  const keyText = shape.key.map((k) => `t.${quoteIdent(k.name)}::text`).join(', ');
  const after = shape.key.map((k, i) => `$${i + 1}::text::${k.type}`).join(', ');
  let last: string[] | null = null;
  for (;;) {
    const where: string = last ? `WHERE (${keyList}) > (${after})` : '';
    // At most PAGE_ROWS rows and, past the first, BATCH_BYTES of them: a table of wide rows
    // (a document's extracted text) reaches this process a few megabytes at a time.
    const page: { rows: { row: string; k: string[]; rows: number }[] } = await db.query<{ row: string; k: string[]; rows: number }>(
      `SELECT p.row, p.k, p.rows FROM (
         SELECT r.row, r.k, count(*) OVER () AS rows,
                sum(octet_length(r.row)) OVER (ORDER BY r.n) - octet_length(r.row) AS before
         FROM (SELECT ${row}, ARRAY[${keyText}] AS k, row_number() OVER (ORDER BY ${keyList}) AS n
               FROM ${name} t ${where} ORDER BY ${keyList} LIMIT ${PAGE_ROWS}) r
       ) p WHERE p.before < ${BATCH_BYTES} ORDER BY p.before`, last ?? []);
    add(page.rows);
    if (!page.rows.length || (Number(page.rows[0]!.rows) < PAGE_ROWS && page.rows.length === Number(page.rows[0]!.rows))) break;
    last = page.rows.at(-1)!.k;
    if (bytes >= BATCH_BYTES) await flush();
  }
  await flush();
}

/**
 * Restores a service's table entries into a freshly migrated schema, in the order they
 * come (the export's: parents first). Triggers that keep aggregates are paused while the
 * aggregates' own rows are restored as they were; foreign keys stay checked.
 */
export class TableImporter {
  readonly #db: SchemaDb;
  readonly #tables: ReadonlySet<string>;
  readonly #shapes = new Map<string, TableShape>();
  /** Rows of each table read so far (across its pieces): a refused row is named by its number. */
  readonly #rowsRead = new Map<string, number>();
  #rows = 0;
  #cleared = false;

  constructor(db: SchemaDb, tables: readonly string[]) {
    this.#db = db;
    this.#tables = new Set(tables);
  }

  get rows(): number {
    return this.#rows;
  }

  /** Handles a table, sequence or version entry; false for any other (a service's own). */
  async accept(entry: TarEntry): Promise<boolean> {
    await this.#clearSeeds();
    const table = TABLE_ENTRY.exec(entry.name)?.[1];
    if (table) {
      if (!this.#tables.has(table)) throw new Invalid(`The archive holds a table this version does not have: ${table}.`);
      await this.#insert(table, entry);
      return true;
    }
    if (entry.name === SEQUENCES_ENTRY) {
      const sequences = JSON.parse(await text(entry)) as { table: string; column: string; lastValue: string; isCalled: boolean }[];
      for (const s of sequences) {
        await this.#db.query('SELECT setval(pg_get_serial_sequence($1, $2), $3::bigint, $4)', [`${quoteIdent(this.#db.schema)}.${quoteIdent(s.table)}`, s.column, s.lastValue, s.isCalled]);
      }
      return true;
    }
    if (entry.name === VERSIONS_ENTRY) {
      await text(entry);
      return true;
    }
    return false;
  }

  /** Rows the migrations seeded (default roles, say) are in the archive too: the tables start empty. */
  async #clearSeeds(): Promise<void> {
    if (this.#cleared) return;
    this.#cleared = true;
    if (this.#tables.size) await this.#db.query(`TRUNCATE ${[...this.#tables].map(quoteIdent).join(', ')}`);
  }

  async #insert(table: string, entry: TarEntry): Promise<void> {
    const shape = this.#shapes.get(table) ?? await tableShape(this.#db, this.#db.schema, table);
    this.#shapes.set(table, shape);
    const name = quoteIdent(table);
    const columns = shape.columns.map(quoteIdent).join(', ');
    const insert = `INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE
      SELECT ${columns} FROM jsonb_populate_recordset(NULL::${name}, $1::jsonb)`;
    await this.#db.query(`ALTER TABLE ${name} DISABLE TRIGGER USER`);
    let batch: string[] = [];
    let bytes = 0;
    const insertRows = (rows: readonly string[]) => this.#db.transaction(async (tx) => {
      await tx.query("SET LOCAL TimeZone = 'UTC'");
      await tx.query(insert, [`[${rows.join(',')}]`]);
    });
    const flush = async () => {
      if (!batch.length) return;
      const first = (this.#rowsRead.get(table) ?? 0) + 1;
      const started = performance.now();
      try {
        await insertRows(batch);
      } catch (err) {
        // A row the database refuses (a repeated key, a missing parent, a value of the wrong
        // type): found by inserting the batch's rows one by one, and named in the answer.
        if (!refusedByDatabase(err)) throw err;
        for (const [i, line] of batch.entries()) {
          try {
            await insertRows([line]);
          } catch (rowErr) {
            throw rowRefused(table, first + i, line, shape.key.map((k) => k.name), rowErr);
          }
        }
        throw err;
      }
      this.#rowsRead.set(table, first - 1 + batch.length);
      this.#rows += batch.length;
      batch = [];
      bytes = 0;
      // Other requests (other firms') get their turn between batches: the import rests as long
      // as the batch took (up to IMPORT_REST_MAX_MS), so it holds the database at most half the time.
      await new Promise((resolve) => setTimeout(resolve, Math.min(IMPORT_REST_MAX_MS, performance.now() - started)));
    };
    try {
      for await (const line of lines(entry)) {
        batch.push(line);
        bytes += line.length;
        if (batch.length >= IMPORT_BATCH_ROWS || bytes >= IMPORT_BATCH_BYTES) await flush();
      }
      await flush();
    } finally {
      await this.#db.query(`ALTER TABLE ${name} ENABLE TRIGGER USER`);
    }
  }
}

/** A database error about the data (classes 22 and 23: data exceptions, integrity violations), not the database being unwell. */
const refusedByDatabase = (err: unknown): err is { code: string; message: string; detail?: string } =>
  typeof (err as { code?: unknown })?.code === 'string' && /^2[23]/.test((err as { code: string }).code);

/**
 * A clear refusal naming the table and the row (its number in the archive's table, and its
 * key): 409 for a key another row already has, 400 for anything else the database refuses.
 */
export function rowRefused(table: string, row: number, line: string, keyColumns: readonly string[], err: unknown): DomainError | unknown {
  if (!refusedByDatabase(err)) return err;
  let key = '';
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    const parts = keyColumns.filter((c) => parsed[c] !== undefined).map((c) => `${c} ${JSON.stringify(parsed[c])}`);
    if (parts.length) key = ` (${parts.join(', ')})`;
  } catch { /* a line that is not JSON: the row number alone */ }
  const where = `The archive's ${table} table, row ${row}${key}`;
  const detail = err.detail ? `: ${err.detail}` : '';
  if (err.code === '23505') return new Conflict(`${where}, repeats a key another row already has${detail}`);
  if (err.code === '23503') return new Invalid(`${where}, names a row the archive does not contain${detail}`);
  return new Invalid(`${where}, holds a value its table does not take: ${err.message}`);
}

async function* lines(entry: TarEntry): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of entry.body) {
    const parts = (rest + decoder.write(chunk as Buffer)).split('\n');
    rest = parts.pop()!;
    for (const p of parts) if (p) yield p;
  }
  if (rest) yield rest;
}

export async function text(entry: TarEntry): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of entry.body) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
