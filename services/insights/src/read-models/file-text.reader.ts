import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { FILE_TEXT_ASSERTION_HEADER, fileTextPath, type FileText, type FileTextAssertion } from '@ledgerline/contracts/files.contracts.ts';

/** An assertion lives only as long as one call needs. */
const ASSERTION_TTL_SECONDS = 60;

/**
 * Reads a file's extracted text from the files service (DESIGN §7: never its tables), with
 * the insights service's own signed assertion: extraction and the nightly run have no user
 * whose token could be forwarded. Null when the file is gone; throws when the files
 * service cannot answer (the event is redelivered).
 */
export class FileTextReader {
  readonly #filesUrl: () => string;
  readonly #assertions: TokenSigner<FileTextAssertion>;

  constructor(filesUrl: () => string, assertions: TokenSigner<FileTextAssertion>) {
    this.#filesUrl = filesUrl;
    this.#assertions = assertions;
  }

  async read(tenant: string, fileId: number): Promise<FileText | null> {
    const r = await fetch(`${this.#filesUrl()}${fileTextPath(fileId)}`, {
      headers: { [TENANT_HEADER]: tenant, [FILE_TEXT_ASSERTION_HEADER]: this.#assertions.sign({ t: tenant, f: fileId }, ASSERTION_TTL_SECONDS).token },
      signal: AbortSignal.timeout(30_000),
    });
    if (r.status === 404) return null;
    if (!r.ok) throw new Error(`The files service answered ${r.status} for the text of file ${fileId}.`);
    return (await r.json()) as FileText;
  }
}
