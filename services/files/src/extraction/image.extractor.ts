import type { ExtractionContext } from './extraction-context.ts';
import { readImageSize } from './image-header.ts';

/**
 * A bitmap's decoded size that OCR still accepts: 50 megapixels is a full A3 page scanned at
 * 600 dpi or a 48 MP phone photo; beyond that the WASM heap (4 bytes a pixel, plus
 * Tesseract's working copies) grows past what one background job should take.
 */
export const MAX_OCR_PIXELS = 50_000_000;

/** A picture of text (scan, photo, screenshot): the words OCR finds in it. */
export async function extractImage(context: ExtractionContext): Promise<void> {
  const bytes = await context.source.readAll(context.maxInputBytes);
  if (!bytes) return;
  const size = readImageSize(bytes);
  if (!size || size.width * size.height > MAX_OCR_PIXELS) return;
  context.sink.write(await context.ocr.recognize(bytes));
}
