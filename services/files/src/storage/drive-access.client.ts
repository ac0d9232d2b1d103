import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { Conflict, Forbidden, NotFound, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import {
  DRIVE_ACCESS_ASSERTION_HEADER, driveAccessPath, type DriveAccess, type DriveAccessAssertion,
} from '@ledgerline/contracts/directory.contracts.ts';

/** A service assertion lives only as long as one call needs. */
const ASSERTION_TTL_SECONDS = 60;

/**
 * Asks the directory (which holds the sealed refresh token) for a short-lived Google
 * access token and the client's folder, always with the files service's own signed
 * assertion: the directory hands Drive tokens to this service only, which has checked the
 * caller's reach to the file or client before it asks. The directory answers the reasons a client's
 * Drive cannot be used (not configured, access revoked) with messages for the user.
 */
export class DriveAccessClient {
  readonly #directoryUrl: () => string;
  readonly #assertions: TokenSigner<DriveAccessAssertion>;

  constructor(directoryUrl: () => string, assertions: TokenSigner<DriveAccessAssertion>) {
    this.#directoryUrl = directoryUrl;
    this.#assertions = assertions;
  }

  async get(tenant: string, clientId: number): Promise<DriveAccess> {
    const headers: Record<string, string> = {
      [TENANT_HEADER]: tenant,
      [DRIVE_ACCESS_ASSERTION_HEADER]: this.#assertions.sign({ t: tenant, c: clientId }, ASSERTION_TTL_SECONDS).token,
    };
    let r: Response;
    try {
      r = await fetch(`${this.#directoryUrl()}${driveAccessPath(clientId)}`, { headers, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new Unavailable('The directory service is unavailable. Please try again.');
    }
    const body = (await r.json().catch(() => ({}))) as Partial<DriveAccess> & { message?: string };
    if (r.ok && body.accessToken && body.folderId) return body as DriveAccess;
    const message = body.message ?? `The directory service answered ${r.status}.`;
    if (r.status === 409) throw new Conflict(message);
    if (r.status === 404) throw new NotFound(message);
    if (r.status === 403 || r.status === 401) throw new Forbidden(message);
    throw new Unavailable(r.ok ? 'The directory service answered without a Google Drive token.' : message);
  }
}
