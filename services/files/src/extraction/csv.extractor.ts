import type { ExtractionContext } from './extraction-context.ts';
import { decodedText } from './plain-text.extractor.ts';

/**
 * CSV and TSV, streamed: the cell values without their quoting, cells separated by spaces and
 * records by line breaks. A comma inside a quoted cell stays ("Smith, John"); a doubled quote
 * is one quote. The delimiter of a .csv is whichever of , ; tab | is most common in the first
 * record (European exports use ';' with decimal commas). Malformed quoting is kept as text.
 */
export async function extractDelimitedText(context: ExtractionContext, format: 'csv' | 'tsv'): Promise<void> {
  const { sink } = context;
  let delimiter = format === 'tsv' ? '\t' : '';
  let inQuotes = false;
  let quoteJustClosedOrEscaped = false; // the previous char was a '"' inside quotes: closing, or half of '""'
  let atFieldStart = true;

  for await (const text of decodedText(context)) {
    if (!delimiter) delimiter = guessDelimiter(text);
    let sliceStart = 0;
    const flush = (end: number): void => {
      if (end > sliceStart) sink.write(text.slice(sliceStart, end));
    };
    for (let i = 0; i < text.length; i += 1) {
      const char = text[i];
      if (quoteJustClosedOrEscaped) {
        quoteJustClosedOrEscaped = false;
        if (char === '"') {
          // '""' inside quotes: the second quote is the literal one; its first half was dropped.
          sliceStart = i;
          continue;
        }
        inQuotes = false;
      }
      if (inQuotes) {
        if (char === '"') {
          flush(i);
          sliceStart = i + 1;
          quoteJustClosedOrEscaped = true;
        }
        continue;
      }
      if (char === '"' && atFieldStart) {
        flush(i);
        sliceStart = i + 1;
        inQuotes = true;
        atFieldStart = false;
        continue;
      }
      if (char === delimiter) {
        flush(i);
        sliceStart = i + 1;
        sink.space();
        atFieldStart = true;
        continue;
      }
      if (char === '\n' || char === '\r') {
        // The line end itself goes to the sink, which reads "\r\n" as one break even across chunks.
        atFieldStart = true;
        continue;
      }
      atFieldStart = false;
    }
    flush(text.length);
    if (sink.full) return;
  }
}

function guessDelimiter(text: string): string {
  const firstRecord = text.slice(0, 64 * 1024).split(/\r?\n/, 1)[0]!.replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    const count = firstRecord.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
