import type { Readable } from 'node:stream';
import { extractDelimitedText } from './csv.extractor.ts';
import type { ExtractionContext, FormatExtractor } from './extraction-context.ts';
import { detectFormat, SNIFF_BYTES, type ExtractionFormat } from './format-detection.ts';
import { extractImage } from './image.extractor.ts';
import { InputReadError, InputSource } from './input-source.ts';
import { extractJson } from './json.extractor.ts';
import { extractHtml, extractXml } from './markup.extractor.ts';
import { createOcrEngine, OcrUnavailableError } from './ocr-engine.ts';
import { extractOoxml } from './ooxml.extractor.ts';
import { extractPdf } from './pdf.extractor.ts';
import { extractPlainText } from './plain-text.extractor.ts';
import { extractRtf } from './rtf.extractor.ts';
import { TextSink } from './text-sink.ts';

/**
 * The searchable text of a stored file (the spec's "extracted content"): text formats,
 * office documents, PDFs and, through OCR, images and scanned PDF pages.
 *
 * `extract` never rejects because of what a file contains: unknown, binary, corrupt,
 * encrypted or oversized content gives ''. It rejects only when the file cannot be read
 * (`open()` or its stream fails: an `InputReadError`, worth a retry), when OCR cannot run at
 * all (an `OcrUnavailableError`: a deployment problem), and on misuse (bad input, or a call
 * after `close()`).
 */
export interface ExtractionInput {
  originalName: string;
  mimeType: string;
  size: number;
  open(): Promise<Readable>;
}

export interface TextExtractor {
  extract(input: ExtractionInput): Promise<string>;
  /** Ends the OCR worker thread (if one was started); extractions still running finish with what they have. */
  close(): Promise<void>;
}

export interface TextExtractorOptions {
  /** The most bytes a format that needs the whole file (PDF, Office, JSON, images) loads; larger files give ''. Default 50 MiB. */
  maxInputBytes?: number;
  /** The output cap, in UTF-16 code units. Default 1,000,000. */
  maxTextChars?: number;
  /** Directory with eng.traineddata(.gz); default: the model bundled by @tesseract.js-data/eng. */
  ocrLanguageDataPath?: string;
}

export { InputReadError } from './input-source.ts';
export { OcrUnavailableError } from './ocr-engine.ts';

export const DEFAULT_MAX_INPUT_BYTES = 50 * 1024 * 1024;
export const DEFAULT_MAX_TEXT_CHARS = 1_000_000;
/**
 * Streamed formats (text, CSV, XML, HTML, RTF) stop at the text cap; this bounds the reading
 * of a file that is almost all whitespace or markup.
 */
const STREAM_BYTES_PER_INPUT_BYTE = 4;

const EXTRACTORS: Record<Exclude<ExtractionFormat, 'none'>, FormatExtractor> = {
  text: extractPlainText,
  csv: (context) => extractDelimitedText(context, 'csv'),
  tsv: (context) => extractDelimitedText(context, 'tsv'),
  json: extractJson,
  xml: extractXml,
  html: extractHtml,
  rtf: extractRtf,
  pdf: extractPdf,
  ooxml: extractOoxml,
  image: extractImage,
};

/** Formats parsed from the whole file in memory, as opposed to streamed. */
const WHOLE_FILE_FORMATS = new Set<ExtractionFormat>(['json', 'pdf', 'ooxml', 'image']);

export function createTextExtractor(options: TextExtractorOptions = {}): TextExtractor {
  const maxInputBytes = positiveInteger('maxInputBytes', options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES);
  const maxTextChars = positiveInteger('maxTextChars', options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS);
  const ocr = createOcrEngine({ languageDataPath: options.ocrLanguageDataPath });
  let closed = false;

  return {
    async extract(input) {
      assertInput(input);
      if (closed) throw new Error('The text extractor is closed.');
      if (input.size === 0) return '';

      let stream: Readable;
      try {
        stream = await input.open();
      } catch (cause) {
        throw new InputReadError(cause);
      }
      const source = new InputSource(stream);
      const sink = new TextSink(maxTextChars);
      try {
        const head = await source.head(SNIFF_BYTES);
        const { format, encoding } = detectFormat(input.originalName, input.mimeType, head);
        if (format === 'none') return '';
        if (WHOLE_FILE_FORMATS.has(format) && input.size > maxInputBytes) return '';
        const context: ExtractionContext = {
          source, sink, encoding, maxInputBytes, maxStreamBytes: STREAM_BYTES_PER_INPUT_BYTE * maxInputBytes, ocr,
        };
        await EXTRACTORS[format](context);
        return sink.toString();
      } catch (error) {
        if (error instanceof InputReadError || error instanceof OcrUnavailableError) throw error;
        // Anything else came from parsing what the file contains: a corrupt file has no text.
        return '';
      } finally {
        source.close();
      }
    },
    async close() {
      closed = true;
      await ocr.close();
    },
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${value}.`);
  return value;
}

function assertInput(input: ExtractionInput): void {
  if (
    typeof input !== 'object' || input === null
    || typeof input.originalName !== 'string' || typeof input.mimeType !== 'string'
    || typeof input.size !== 'number' || !(input.size >= 0) || typeof input.open !== 'function'
  ) {
    throw new TypeError('extract() needs { originalName: string, mimeType: string, size: number >= 0, open(): Promise<Readable> }.');
  }
}
