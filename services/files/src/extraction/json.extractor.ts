import type { ExtractionContext } from './extraction-context.ts';
import { decodeText } from './text-decoding.ts';

/**
 * JSON: its string values, one per line, in document order (keys, numbers and literals are
 * structure, not words). JSON is parsed whole, so a file over the input limit gives ''; so
 * does invalid JSON (the caller catches the parse error).
 */
export async function extractJson(context: ExtractionContext): Promise<void> {
  const bytes = await context.source.readAll(context.maxInputBytes);
  if (!bytes) return;
  const text = decodeText(bytes);
  if (text === undefined) return;
  const root: unknown = JSON.parse(text);

  // An explicit stack instead of recursion: nesting depth is the file's choice, not ours.
  const stack: unknown[] = [root];
  while (stack.length > 0 && !context.sink.full) {
    const value = stack.pop();
    if (typeof value === 'string') {
      context.sink.write(value);
      context.sink.newline();
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push(value[i]);
    } else if (value !== null && typeof value === 'object') {
      const values = Object.values(value);
      for (let i = values.length - 1; i >= 0; i -= 1) stack.push(values[i]);
    }
  }
}
