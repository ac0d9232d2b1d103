import type { ExtractionContext } from './extraction-context.ts';
import { createTextDecoder } from './text-decoding.ts';

/**
 * The file's characters as they stream in, decoded with the sniffed encoding; stops reading
 * (and closes the input) when the consumer stops, e.g. because the text cap is reached.
 */
export async function* decodedText(context: ExtractionContext): AsyncGenerator<string> {
  const decoder = createTextDecoder(context.encoding);
  for await (const chunk of context.source.chunks(context.maxStreamBytes)) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}

/** Plain text, Markdown, logs and other text files: the text itself, whitespace normalised. */
export async function extractPlainText(context: ExtractionContext): Promise<void> {
  for await (const text of decodedText(context)) {
    context.sink.write(text);
    if (context.sink.full) return;
  }
}
