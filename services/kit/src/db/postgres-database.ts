import pg from 'pg';
import type { Database, QueryResult, Queryable } from './database.ts';
import { SearchPathDatabase } from './search-path-database.ts';
import type { Logger } from '../logger.ts';
import { TYPE_PARSERS } from './type-parsers.ts';
import { transactionHandle } from './transaction-handle.ts';

export interface PostgresDatabaseOptions {
  url: string;
  maxConnections?: number;
  /**
   * A pooled connection is closed (when next idle) after this long, and after this many
   * checkouts. A PostgreSQL backend caches the catalog of every schema it has touched and
   * never gives that memory back: with many firms, a connection kept for days grows to
   * hundreds of MB. Recycling bounds it, and spreads connections again after a failover.
   * 0 (or unset) keeps connections for ever, as pg does by default.
   */
  maxLifetimeSeconds?: number;
  maxUses?: number;
  logger?: Logger;
}

/** The pool settings a process runs with (PostgreSQL only; the platform config sets them). */
export type PoolSettings = Pick<PostgresDatabaseOptions, 'maxConnections' | 'maxLifetimeSeconds' | 'maxUses'>;

// Per-pool types instead of pg's process-wide registry, so other pg users are unaffected.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TYPE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * PostgreSQL through a pg.Pool. A pooled connection keeps whatever search path its last
 * user set, so every checkout compares the path it needs with the one this connection is
 * known to have and issues `SET search_path` only when they differ (a fresh connection's
 * path is unknown and always set). That makes `forSchema` hold per query at the cost of
 * one round trip only when a connection changes tenant.
 */
class PostgresDatabase extends SearchPathDatabase {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #searchPaths = new WeakMap<pg.PoolClient, string>();

  constructor(pool: pg.Pool) {
    super();
    this.#pool = pool;
  }

  override async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  override close(): Promise<void> {
    return this.#pool.end();
  }

  protected override async queryIn<R extends object>(searchPath: string, text: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    const client = await this.#checkout(searchPath);
    try {
      return await run<R>(client, text, params);
    } finally {
      // A broken connection is dropped by the pool itself on release.
      client.release();
    }
  }

  protected override async transactionIn<T>(searchPath: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    // The path is set before BEGIN: a SET inside a rolled-back transaction is undone,
    // which would leave the tracked path wrong.
    const client = await this.#checkout(searchPath);
    const handle = transactionHandle((text, params) => run(client, text, params));
    try {
      await client.query('BEGIN');
      const result = await fn(handle.tx);
      await client.query('COMMIT');
      handle.end();
      client.release();
      return result;
    } catch (err) {
      handle.end();
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollbackError) {
        // The connection state is unknown: destroy it rather than hand it to the next caller.
        client.release(rollbackError as Error);
      }
      throw err;
    }
  }

  async #checkout(searchPath: string): Promise<pg.PoolClient> {
    const client = await this.#pool.connect();
    if (this.#searchPaths.get(client) === searchPath) return client;
    try {
      await client.query(`SET search_path TO ${searchPath}`);
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    this.#searchPaths.set(client, searchPath);
    return client;
  }
}

async function run<R extends object>(client: pg.PoolClient, text: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
  // Without parameters pg uses the simple protocol, which returns one result per statement.
  const raw = (await client.query(text, params ? [...params] : undefined)) as pg.QueryResult<R> | pg.QueryResult<R>[];
  const result = Array.isArray(raw) ? raw.at(-1) : raw;
  if (!result) return { rows: [], rowCount: 0 };
  return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
}

/** Opens the pool and checks the server answers, so a bad URL fails at start, not at first request. */
export async function openPostgresDatabase(options: PostgresDatabaseOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // pg-pool reads 0 as "no limit" for both.
    maxLifetimeSeconds: options.maxLifetimeSeconds ?? 0,
    maxUses: options.maxUses || Infinity,
    types,
  });
  // An idle connection dropped by the server (restart, failover) emits 'error' on the pool;
  // unhandled it would crash the process, handled the pool just replaces the connection.
  pool.on('error', (err) => options.logger?.warn({ err }, 'idle database connection lost'));
  // A connection the server drops while it is checked out (between the statements of a
  // transaction, say) emits 'error' on the client itself, where no pool listener is: the
  // statement under way fails as usual, and the pool discards the client on release.
  pool.on('connect', (client) => {
    client.on('error', (err) => options.logger?.warn({ err }, 'database connection lost while in use'));
  });
  const db = new PostgresDatabase(pool);
  try {
    await db.ping();
  } catch (err) {
    await pool.end();
    throw err;
  }
  return db;
}
