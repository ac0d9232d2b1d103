import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { TokenSigner } from '../crypto/signed-token.ts';
import { DomainError, Invalid, Unavailable, type ErrorKind } from '../errors.ts';
import { TENANT_HEADER } from '../service-module.ts';
import { streamRequest, type StreamedReply } from '../http/stream-request.ts';
import type { UploadResult } from '@ledgerline/contracts/files.contracts.ts';
import { REQUEST_UPLOAD_ASSERTION_HEADER, REQUEST_UPLOAD_PATH, type RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';

/** An assertion covers one forwarded upload; a slow phone upload must still fit. */
const ASSERTION_TTL_SECONDS = 15 * 60;

const KIND_OF_STATUS: Record<number, ErrorKind> = { 400: 'invalid', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 413: 'too_large', 415: 'unsupported_media' };

/**
 * Hands a file to the files service's internal upload as a report of a client, under an
 * assertion signed with the shared key (DESIGN §2: the files service owns files; nothing
 * here writes its tables): a document request item's multipart upload as it streams in
 * (requests), or a finished file this service made (signatures' sealed PDF). The file is
 * stored, checked, extracted and searchable like any upload; its size and type limits
 * answer with the files service's own messages.
 */
export class ReportForwarder {
  readonly #filesUrl: () => string;
  readonly #assertions: TokenSigner<RequestUploadAssertion>;

  constructor(filesUrl: () => string, assertions: TokenSigner<RequestUploadAssertion>) {
    this.#filesUrl = filesUrl;
    this.#assertions = assertions;
  }

  /** A multipart upload (field `file`) as it streams in. */
  forward(req: IncomingMessage, target: RequestUploadAssertion): Promise<{ fileId: number; fileName: string }[]> {
    return this.#send(req, req.headers['content-type'] ?? 'application/octet-stream', target);
  }

  /** One file held in memory, sent as a multipart upload of field `file`. */
  async forwardFile(file: { name: string; type: string; bytes: Uint8Array }, target: RequestUploadAssertion): Promise<{ fileId: number; fileName: string }> {
    return this.#sendOne(file.name, file.type, [Buffer.from(file.bytes)], target);
  }

  /**
   * A multipart upload whose small text fields decide what the file is for (an organizer's
   * file question): the fields sent before the `file` part go to `check`, which refuses by
   * throwing (nothing is stored then); the first `file` part then streams on as `forward`
   * does. Later parts are dropped: one file per call.
   */
  forwardFormFile(req: IncomingMessage, check: (fields: Record<string, string>) => void, target: RequestUploadAssertion): Promise<{ fileId: number; fileName: string }> {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fields: 20, fieldSize: 1000 } });
    } catch {
      return Promise.reject(new Invalid('Send the file as multipart/form-data (field `file`).'));
    }
    return new Promise((resolve, reject) => {
      const fields: Record<string, string> = {};
      let started = false;
      const fail = (error: unknown) => {
        req.unpipe(parser);
        req.resume();
        reject(error);
      };
      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) return fail(new Invalid(`The form field ${name} is too long.`));
        fields[name] = value;
      });
      parser.on('file', (name, stream, info) => {
        if (name !== 'file' || started) { stream.resume(); return; }
        started = true;
        try {
          check(fields);
        } catch (error) {
          stream.resume();
          return fail(error);
        }
        this.#sendOne(info.filename || 'upload', info.mimeType || 'application/octet-stream', stream, target)
          .then(resolve, (error: unknown) => { stream.resume(); fail(error); });
      });
      parser.on('error', () => fail(new Invalid('The upload was malformed or cut short.')));
      parser.on('close', () => { if (!started) fail(new Invalid('Choose a file to upload (field `file`).')); });
      req.pipe(parser);
    });
  }

  /** One file (whole or as it streams in) wrapped as a multipart upload of field `file`. */
  async #sendOne(name: string, type: string, content: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, target: RequestUploadAssertion): Promise<{ fileId: number; fileName: string }> {
    const boundary = `----ledgerline${randomBytes(12).toString('hex')}`;
    const safeName = name.replace(/["\\\r\n]/g, '_');
    const safeType = /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream';
    const body = Readable.from((async function* parts() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\nContent-Type: ${safeType}\r\n\r\n`);
      for await (const chunk of content) yield chunk;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    })());
    try {
      const [stored] = await this.#send(body, `multipart/form-data; boundary=${boundary}`, target);
      if (!stored) throw new Unavailable('The files service did not store the file. Please try again.');
      return stored;
    } finally {
      // The files service may refuse before reading it all (too large, a wrong type): nobody reads the rest.
      body.destroy();
    }
  }

  async #send(body: Readable, contentType: string, target: RequestUploadAssertion): Promise<{ fileId: number; fileName: string }[]> {
    let r: StreamedReply;
    try {
      r = await streamRequest(`${this.#filesUrl()}${REQUEST_UPLOAD_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': contentType,
          [TENANT_HEADER]: target.t,
          [REQUEST_UPLOAD_ASSERTION_HEADER]: this.#assertions.sign(target, ASSERTION_TTL_SECONDS).token,
        },
        body,
      });
    } catch {
      throw new Unavailable('The files service is unavailable. Please try again.');
    }
    const answer = (r.body ?? {}) as Partial<UploadResult> & { message?: string };
    if (!r.ok) {
      const kind = KIND_OF_STATUS[r.status];
      if (kind) throw new DomainError(kind, answer.message ?? 'The upload was refused.');
      throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
    }
    return (answer.files ?? []).map((f) => ({ fileId: f.id, fileName: f.originalName }));
  }
}
