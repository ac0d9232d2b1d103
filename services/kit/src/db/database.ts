/**
 * The one database access layer of the portal: the same contract over PostgreSQL (`pg`)
 * and PGlite (embedded default). Every tenant-scoped query runs through `forSchema`,
 * so a service never builds schema-qualified names by hand.
 */
export type Row = Record<string, unknown>;

export interface QueryResult<R extends object = Row> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R extends object = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

/** A handle whose queries resolve unqualified names in one schema first (then `public`). */
export interface SchemaDb extends Queryable {
  readonly schema: string;
  /** Runs fn in one transaction with the same search path; commits on resolve, rolls back on throw. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  forSchema(schema: string): SchemaDb;
  /** Cheap liveness check used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded database's extra (installation backups): a moment when its files on disk are complete and still. */
export interface PausableDatabase extends Database {
  whilePaused<T>(fn: () => Promise<T>): Promise<T>;
}

export const isPausable = (db: Database): db is PausableDatabase => typeof (db as Partial<PausableDatabase>).whilePaused === 'function';
