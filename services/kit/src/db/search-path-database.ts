import type { Database, QueryResult, Queryable, Row, SchemaDb } from './database.ts';
import { DEFAULT_SEARCH_PATH, assertSchemaName, searchPathFor } from './tenant-schema.ts';

/**
 * What both adapters share: every query and transaction runs under a search path
 * (`public`, or a tenant schema then `public`); each adapter only says how to run a
 * query or a transaction under one.
 */
export abstract class SearchPathDatabase implements Database {
  abstract readonly kind: Database['kind'];
  protected abstract queryIn<R extends object>(searchPath: string, text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  protected abstract transactionIn<T>(searchPath: string, fn: (tx: Queryable) => Promise<T>): Promise<T>;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;

  query<R extends object = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
    return this.queryIn(DEFAULT_SEARCH_PATH, text, params);
  }

  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.transactionIn(DEFAULT_SEARCH_PATH, fn);
  }

  forSchema(schema: string): SchemaDb {
    const searchPath = searchPathFor(schema);
    return {
      schema: assertSchemaName(schema),
      query: (text, params) => this.queryIn(searchPath, text, params),
      transaction: (fn) => this.transactionIn(searchPath, fn),
    };
  }
}
