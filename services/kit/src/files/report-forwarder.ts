import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { TokenSigner } from '../crypto/signed-token.ts';
import { DomainError, Unavailable, type ErrorKind } from '../errors.ts';
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
    const boundary = `----ledgerline${randomBytes(12).toString('hex')}`;
    const safeName = file.name.replace(/["\\\r\n]/g, '_');
    const body = Readable.from([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\nContent-Type: ${file.type}\r\n\r\n`),
      Buffer.from(file.bytes),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const [stored] = await this.#send(body, `multipart/form-data; boundary=${boundary}`, target);
    if (!stored) throw new Unavailable('The files service did not store the file. Please try again.');
    return stored;
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
