import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { Invalid } from '../errors.ts';

/**
 * A multipart body with one file part (`fileField`) streamed to `target` on disk, and its
 * small text fields; for uploads a service checks whole before acting on them (archives).
 */
export function receiveFile(req: IncomingMessage, fileField: string, target: string, missingMessage: string,
  limits: { fieldBytes?: number; file?: { bytes: number; message: string } } = {}): Promise<{ fields: Record<string, string>; file: string }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fields: 20, fieldSize: limits.fieldBytes ?? 1000, ...(limits.file ? { fileSize: limits.file.bytes } : {}) } });
    } catch {
      reject(new Invalid(missingMessage));
      return;
    }
    const fields: Record<string, string> = {};
    let saved: Promise<void> | null = null;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) reject(new Invalid(`The form field ${name} is too long.`));
      fields[name] = value;
    });
    parser.on('file', (name, stream) => {
      if (name !== fileField || saved) { stream.resume(); return; }
      // Beyond the limit busboy cuts the file short: refuse it rather than read half a file.
      stream.on('limit', () => reject(new Invalid(limits.file!.message)));
      saved = pipeline(stream, createWriteStream(target, { flags: 'wx' }));
      saved.catch(() => undefined);
    });
    parser.on('error', () => reject(new Invalid('The upload was malformed or cut short.')));
    parser.on('close', () => {
      if (!saved) { reject(new Invalid(missingMessage)); return; }
      saved.then(() => resolve({ fields, file: target }), () => reject(new Invalid('The upload was malformed or cut short.')));
    });
    req.on('close', () => { if (!req.complete) reject(new Invalid('The upload was cut short.')); });
    req.pipe(parser);
  });
}
