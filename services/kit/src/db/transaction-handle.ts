import type { Queryable, QueryResult } from './database.ts';

type Run = <R extends object>(text: string, params?: readonly unknown[]) => Promise<QueryResult<R>>;

/**
 * The `tx` a transaction callback receives. It refuses queries once the transaction has
 * ended: a handle kept past its callback would otherwise run on a connection that is back
 * in the pool (PostgreSQL) or outside any transaction (PGlite), silently without atomicity.
 */
export function transactionHandle(run: Run): { tx: Queryable; end(): void } {
  let ended = false;
  const tx: Queryable = {
    query: (text, params) => {
      if (ended) return Promise.reject(new Error('Transaction already ended: use the tx handle only inside its callback'));
      return run(text, params);
    },
  };
  return { tx, end: () => { ended = true; } };
}
