import type { RequestHandler } from 'express';
import { CONTROL_CHARACTERS, controlCharacterMessage } from '@ledgerline/contracts/scalars.ts';
import { Invalid } from '../errors.ts';

/**
 * Where the first control character sits in a parsed body or query (`notes`,
 * `clientIds[2]`, `filters.name`), or null. Iterative, so no nesting depth can overflow
 * the stack; keys count as much as values.
 */
export function controlCharacterPath(root: unknown): string | null {
  const pending: { value: unknown; path: string }[] = [{ value: root, path: '' }];
  while (pending.length) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      if (CONTROL_CHARACTERS.test(value)) return path || 'The request';
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], path: `${path}[${i}]` });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        const childPath = path ? `${path}.${key}` : key;
        if (CONTROL_CHARACTERS.test(key)) return childPath;
        pending.push({ value: child, path: childPath });
      }
    }
  }
  return null;
}

/**
 * Every service refuses NUL and other control characters in any JSON body or query
 * string (400 naming the field) before a handler runs: PostgreSQL refuses NUL in text
 * outright, and no field of the product takes the others. Tab and line breaks pass.
 */
export const rejectControlCharacters: RequestHandler = (req, _res, next) => {
  const field = controlCharacterPath(req.query) ?? controlCharacterPath(req.body);
  if (field) throw new Invalid(controlCharacterMessage(field));
  next();
};
