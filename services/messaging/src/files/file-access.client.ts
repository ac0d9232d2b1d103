import { NotFound, Unauthenticated, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';

const FILE_NOT_FOUND = 'File not found';

/**
 * Whether a user may open a file, as the files service decides (its GET /api/files/{id}
 * with the user's own token, asking for one byte): a message attaches only a file its
 * sender can open, and each participant later opens it through the same call and checks.
 */
export class FileAccessClient {
  readonly #filesUrl: () => string;

  constructor(filesUrl: () => string) {
    this.#filesUrl = filesUrl;
  }

  async assertOpenable(caller: { tenant: string; bearer: string }, fileId: number): Promise<void> {
    let r: Response;
    try {
      r = await fetch(`${this.#filesUrl()}/api/files/${fileId}`, {
        headers: { authorization: `Bearer ${caller.bearer}`, [TENANT_HEADER]: caller.tenant, range: 'bytes=0-0' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new Unavailable('The files service is unavailable. Please try again.');
    }
    await r.body?.cancel();
    // 416: an empty file has no first byte, and is there all the same.
    if (r.ok || r.status === 416) return;
    if (r.status === 401) throw new Unauthenticated();
    if (r.status === 403 || r.status === 404) throw new NotFound(FILE_NOT_FOUND);
    throw new Unavailable(`The files service answered ${r.status}. Please try again.`);
  }
}
