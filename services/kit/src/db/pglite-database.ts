import { PGlite, type Results } from '@electric-sql/pglite';
import type { Database, QueryResult, Queryable } from './database.ts';
import { SearchPathDatabase } from './search-path-database.ts';
import { DEFAULT_SEARCH_PATH } from './tenant-schema.ts';
import { TYPE_PARSERS } from './type-parsers.ts';
import { transactionHandle } from './transaction-handle.ts';

export interface PgliteDatabaseOptions {
  /** Data directory on disk; in memory when omitted (tests). */
  dataDir?: string;
}

/** Runs async sections one at a time, in call order; a failing section does not block the next. */
class Mutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => section());
    this.#tail = result.catch(() => undefined);
    return result;
  }
}

/**
 * The embedded default. A PGlite instance is ONE connection: its session state (the
 * search path, an open transaction) is shared by every caller, so each "set search path
 * if different + query" and each whole transaction runs under one mutex. Consequence:
 * inside `transaction(fn)` use only the `tx` handle; awaiting another query on this
 * database from within fn would wait for the transaction that waits for it.
 */
class PgliteDatabase extends SearchPathDatabase {
  readonly kind = 'pglite' as const;
  readonly #pg: PGlite;
  readonly #mutex = new Mutex();
  // PGlite starts with search_path=public, the same as DEFAULT_SEARCH_PATH.
  #searchPath = DEFAULT_SEARCH_PATH;

  constructor(pg: PGlite) {
    super();
    this.#pg = pg;
  }

  override async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  /**
   * Runs fn while no query runs: every commit so far is in the files on disk (after a
   * checkpoint), and nothing changes them until fn returns. Queries wait meanwhile.
   */
  whilePaused<T>(fn: () => Promise<T>): Promise<T> {
    return this.#mutex.run(async () => {
      await this.#pg.exec('CHECKPOINT');
      return fn();
    });
  }

  override close(): Promise<void> {
    // Behind the mutex, so queued work finishes before the files are closed.
    return this.#mutex.run(() => this.#pg.close());
  }

  protected override queryIn<R extends object>(searchPath: string, text: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.#mutex.run(async () => {
      await this.#useSearchPath(searchPath);
      return this.#run<R>(text, params);
    });
  }

  protected override transactionIn<T>(searchPath: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.#mutex.run(async () => {
      // Set before BEGIN: a SET inside a rolled-back transaction would be undone behind our back.
      await this.#useSearchPath(searchPath);
      const handle = transactionHandle((text, params) => this.#run(text, params));
      await this.#pg.exec('BEGIN');
      try {
        const result = await fn(handle.tx);
        await this.#pg.exec('COMMIT');
        return result;
      } catch (err) {
        await this.#pg.exec('ROLLBACK');
        throw err;
      } finally {
        handle.end();
      }
    });
  }

  async #useSearchPath(searchPath: string): Promise<void> {
    if (this.#searchPath === searchPath) return;
    await this.#pg.exec(`SET search_path TO ${searchPath}`);
    this.#searchPath = searchPath;
  }

  async #run<R extends object>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    // Like `pg`: with parameters the extended protocol (one statement), without them the
    // simple protocol, so multi-statement SQL such as migrations runs on both adapters.
    const result = params?.length
      ? await this.#pg.query<R>(text, [...params])
      : ((await this.#pg.exec(text)).at(-1) as Results<R> | undefined);
    if (!result) return { rows: [], rowCount: 0 };
    return { rows: result.rows, rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length };
  }
}

export async function openPgliteDatabase(options: PgliteDatabaseOptions = {}): Promise<Database> {
  const pg = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    // Durability, checked by test/db.durability.test.ts: on Node the data directory is
    // mounted through Emscripten's NODEFS, so every write Postgres makes (the WAL at
    // commit included) is a write(2) to the host file before the query resolves; a commit
    // we report survives the process being killed, and reopening replays the WAL.
    // `relaxedDurability` matters for filesystems PGlite copies out after each query
    // (IndexedDB, OPFS), where `true` resolves before the copy; pinned to false so a
    // reported commit never precedes its write whatever the filesystem. Not covered: OS
    // crash or power loss — PGlite runs Postgres with fsync off and NODEFS cannot fsync.
    // That is the embedded default's limit; production uses PostgreSQL.
    relaxedDurability: false,
    parsers: TYPE_PARSERS,
  });
  return new PgliteDatabase(pg);
}
