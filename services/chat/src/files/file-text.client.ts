import { Forbidden, NotFound, Unauthenticated, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { fileTextPath, type FileText } from '@ledgerline/contracts/files.contracts.ts';

/**
 * The files service's internal text call (DESIGN §7): with the asking user's token, so
 * the files service decides whether they may open the file. Its answers keep their
 * meaning here: a file the user may not see is 'File not found' in the chat too.
 */
export class FileTextClient {
  readonly #filesUrl: () => string;

  constructor(filesUrl: () => string) {
    this.#filesUrl = filesUrl;
  }

  async get(caller: { tenant: string; bearer: string }, fileId: number, have: string | null): Promise<FileText> {
    const url = new URL(`${this.#filesUrl()}${fileTextPath(fileId)}`);
    if (have) url.searchParams.set('have', have);
    let r: Response;
    try {
      r = await fetch(url, { headers: { authorization: `Bearer ${caller.bearer}`, [TENANT_HEADER]: caller.tenant }, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new Unavailable('The files service is unavailable. Please try again.');
    }
    const body = (await r.json().catch(() => ({}))) as FileText & { message?: string };
    if (r.ok) return body;
    const message = body.message ?? `The files service answered ${r.status}.`;
    if (r.status === 404) throw new NotFound(message);
    if (r.status === 401) throw new Unauthenticated(message);
    if (r.status === 403) throw new Forbidden(message);
    throw new Unavailable(message);
  }
}
