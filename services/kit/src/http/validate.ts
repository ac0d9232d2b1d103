import type { z } from 'zod';
import { Invalid } from '../errors.ts';

/**
 * Parses untrusted input with a contracts schema. The first issue's message becomes the
 * error message, so the spec's texts ('Username must be at least 3 characters') reach
 * the UI unchanged; all issues travel in `details`.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new Invalid(result.error.issues[0]?.message ?? 'Invalid request', result.error.issues);
}
