import type { IncomingMessage } from 'node:http';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { DomainError, Unavailable, type ErrorKind } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { streamRequest, type StreamedReply } from '@ledgerline/kit/http/stream-request.ts';
import type { UploadResult } from '@ledgerline/contracts/files.contracts.ts';
import { REQUEST_UPLOAD_ASSERTION_HEADER, REQUEST_UPLOAD_PATH, type RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';

/** An assertion covers one forwarded upload; a slow phone upload must still fit. */
const ASSERTION_TTL_SECONDS = 15 * 60;

const KIND_OF_STATUS: Record<number, ErrorKind> = { 400: 'invalid', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 413: 'too_large', 415: 'unsupported_media' };

/**
 * Hands an item's multipart upload, as it streams in, to the files service's internal
 * upload (DESIGN §2: the files service owns files; nothing here writes its tables). The
 * file is stored, checked, extracted and searchable like any upload; its size and type
 * limits answer with the files service's own messages.
 */
export class FileForwarder {
  readonly #filesUrl: () => string;
  readonly #assertions: TokenSigner<RequestUploadAssertion>;

  constructor(filesUrl: () => string, assertions: TokenSigner<RequestUploadAssertion>) {
    this.#filesUrl = filesUrl;
    this.#assertions = assertions;
  }

  async forward(req: IncomingMessage, target: RequestUploadAssertion): Promise<{ fileId: number; fileName: string }[]> {
    let r: StreamedReply;
    try {
      r = await streamRequest(`${this.#filesUrl()}${REQUEST_UPLOAD_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/octet-stream',
          [TENANT_HEADER]: target.t,
          [REQUEST_UPLOAD_ASSERTION_HEADER]: this.#assertions.sign(target, ASSERTION_TTL_SECONDS).token,
        },
        body: req,
      });
    } catch {
      throw new Unavailable('The files service is unavailable. Please try again.');
    }
    const body = (r.body ?? {}) as Partial<UploadResult> & { message?: string };
    if (!r.ok) {
      const kind = KIND_OF_STATUS[r.status];
      if (kind) throw new DomainError(kind, body.message ?? 'The upload was refused.');
      throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
    }
    return (body.files ?? []).map((f) => ({ fileId: f.id, fileName: f.originalName }));
  }
}
