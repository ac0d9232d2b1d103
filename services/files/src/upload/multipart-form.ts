import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { Invalid, TooLarge } from '@ledgerline/kit/errors.ts';
import { UPLOAD_ERRORS } from './upload-messages.ts';

export interface FilePart {
  fieldName: string;
  /** As the client sent it (decoded as UTF-8); may be empty when no file was chosen. */
  fileName: string;
  /** busboy's stream of the part: the handler consumes it, or resumes it to skip it. */
  stream: Readable;
}

export interface MultipartHandlers {
  /** A text field; throwing fails the whole request. */
  field(name: string, value: string): void;
  /**
   * A file part, in order. The returned promise settles when its bytes are stored (or it
   * failed); `signal` aborts when the request as a whole failed, so writes stop at once.
   */
  file(part: FilePart, signal: AbortSignal): Promise<void>;
}

export interface MultipartLimits {
  maxFiles: number;
  maxFileBytes: number;
}

const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 1000;

/**
 * Reads a multipart/form-data request with busboy, streaming: nothing but a field's small
 * value is held in memory, each file part goes to its handler as it arrives (fields may
 * come before or after the files). Resolves once every part is read and every handler
 * settled. On the first failure — a malformed body, a limit, a handler that throws —
 * it stops reading into busboy, aborts the handlers' writes, waits for them to settle and
 * rejects; what the client still sends is drained and dropped, so the connection stays
 * usable and the answer can go out before the body ends.
 */
export function readMultipart(req: IncomingMessage, limits: MultipartLimits, handlers: MultipartHandlers): Promise<void> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // One byte over the limit: the file handler sees it and fails with the limit's message.
      limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes + 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: limits.maxFiles + MAX_FIELDS, headerPairs: 100 },
    });
  } catch {
    // No multipart content type or no boundary: the body is never read (Node drains it after the reply).
    return Promise.reject(new Invalid(UPLOAD_ERRORS.notMultipart));
  }

  return new Promise<void>((resolve, reject) => {
    const abort = new AbortController();
    const pending: Promise<void>[] = [];
    let failure: unknown = null;
    let settled = false;

    const settle = () => {
      if (settled) return;
      settled = true;
      void Promise.allSettled(pending).then(() => (failure ? reject(failure) : resolve()));
    };
    const fail = (error: unknown) => {
      if (failure) return;
      failure = error;
      req.unpipe(parser);
      req.resume();
      abort.abort(error);
      settle();
    };

    parser.on('field', (name, value, info) => {
      if (failure) return;
      if (info.nameTruncated || info.valueTruncated) return fail(new Invalid(UPLOAD_ERRORS.fieldTooLong(name.slice(0, 50))));
      try {
        handlers.field(name, value);
      } catch (error) {
        fail(error);
      }
    });
    parser.on('file', (fieldName, stream, info) => {
      // busboy fails a part that the body cuts short through the part's own stream.
      stream.on('error', () => fail(new Invalid(UPLOAD_ERRORS.malformed)));
      if (failure) {
        stream.resume();
        return;
      }
      pending.push(handlers.file({ fieldName, fileName: info.filename ?? '', stream }, abort.signal).catch((error: unknown) => {
        stream.resume();
        fail(error);
      }));
    });
    parser.on('filesLimit', () => fail(new TooLarge(UPLOAD_ERRORS.tooManyFiles(limits.maxFiles))));
    parser.on('fieldsLimit', () => fail(new Invalid(UPLOAD_ERRORS.tooManyFields)));
    parser.on('partsLimit', () => fail(new Invalid(UPLOAD_ERRORS.tooManyFields)));
    parser.on('error', () => fail(new Invalid(UPLOAD_ERRORS.malformed)));
    parser.on('close', settle);
    // A client gone mid-upload: nothing more will come.
    req.on('close', () => { if (!req.complete) fail(new Invalid(UPLOAD_ERRORS.interrupted)); });
    req.pipe(parser);
  });
}
