import type { InputSource } from './input-source.ts';
import type { OcrEngine } from './ocr-engine.ts';
import type { TextEncoding } from './text-decoding.ts';
import type { TextSink } from './text-sink.ts';

/** What one extraction hands to the extractor of the detected format. */
export interface ExtractionContext {
  source: InputSource;
  sink: TextSink;
  /** The sniffed encoding (text formats only). */
  encoding: TextEncoding;
  /** The most a format that needs the whole file may load into memory. */
  maxInputBytes: number;
  /** The most a streamed format reads before giving up on finding more text. */
  maxStreamBytes: number;
  ocr: OcrEngine;
}

/** A format's extractor: writes the file's text into `context.sink`; throws on bad content. */
export type FormatExtractor = (context: ExtractionContext) => Promise<void>;
