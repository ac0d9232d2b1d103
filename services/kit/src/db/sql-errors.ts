import { Conflict } from '../errors.ts';

/** SQLSTATE of a database error from either adapter (both expose `code`), if it has one. */
export function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** True for a unique violation (23505), optionally of one named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (sqlState(err) !== '23505') return false;
  return constraint === undefined || (err as { constraint?: unknown }).constraint === constraint;
}

/**
 * Runs `work` and turns a unique violation into `Conflict(message)` — a message written
 * for the UI, never the SQL error's own text (which names tables and values). Other
 * errors pass through unchanged and end up as a logged 500.
 */
export async function conflictOnUnique<T>(work: Promise<T>, message: string, constraint?: string): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isUniqueViolation(err, constraint)) throw new Conflict(message);
    throw err;
  }
}
