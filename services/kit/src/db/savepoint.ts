import type { Queryable } from './database.ts';

/**
 * Runs `fn` inside a savepoint of the transaction `tx`: if it throws, its writes are undone
 * and the error is thrown on, while the transaction and what it wrote before stay usable.
 * For work that writes many independent units (rows of an import) in one transaction, each
 * still all or nothing: one transaction instead of one per unit, which on the embedded
 * default (one connection behind one lock) is what keeps other work from queueing between.
 */
export async function inSavepoint<T>(tx: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  await tx.query('SAVEPOINT unit_of_work');
  let result: T;
  try {
    result = await fn(tx);
  } catch (err) {
    await tx.query('ROLLBACK TO SAVEPOINT unit_of_work');
    await tx.query('RELEASE SAVEPOINT unit_of_work');
    throw err;
  }
  await tx.query('RELEASE SAVEPOINT unit_of_work');
  return result;
}
