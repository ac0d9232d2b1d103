import { DB_INT_MAX } from '@ledgerline/contracts/scalars.ts';
import { Invalid, NotFound } from '../errors.ts';

/**
 * The id in a path (`/api/files/:id`). Not a whole number: 400. A whole number no row can
 * have (0, or beyond the database's integer): the same 404 as any missing record, so the
 * query never sees a value PostgreSQL would refuse.
 */
export function parsePathId(value: unknown, notFoundMessage = 'Not found'): number {
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new Invalid('The id in the path must be a whole number.');
  const id = Number(value);
  if (id < 1 || id > DB_INT_MAX) throw new NotFound(notFoundMessage);
  return id;
}
