import { callAsCaller, type Caller } from '@ledgerline/kit/http/call-as-caller.ts';
import type { MfaCheckResponse, MfaStatus } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import type { SignerFactor } from '@ledgerline/contracts/signatures.contracts.ts';

const NAMES = { service: 'identity', refused: 'The authenticator code was refused.' };

/**
 * A signed-in signer's authenticator app (issue 41: "a fresh second factor at the moment of
 * signing, even inside a session"): identity keeps it and checks its codes, asked on its port
 * as the signer (their own token and firm), so the code is used up and throttled as at sign-in.
 */
export class AuthenticatorCheck {
  readonly #identityUrl: () => string;

  constructor(identityUrl: () => string) {
    this.#identityUrl = identityUrl;
  }

  /** The factors the signer may prove: the authenticator where they have one the portal keeps, and the e-mailed code. */
  async factors(caller: Caller): Promise<SignerFactor[]> {
    try {
      const status = await callAsCaller<MfaStatus>(`${this.#identityUrl()}/api/auth/mfa`, caller, { method: 'GET' }, NAMES);
      return status.totp && !status.managedByKeycloak ? ['totp', 'email'] : ['email'];
    } catch {
      // Identity out of reach: the e-mailed code still works.
      return ['email'];
    }
  }

  /** Resolves when the code is a fresh authenticator code of the signer; else identity's refusal (400, 409, 429) as the same kind of error. */
  async check(caller: Caller, code: string): Promise<void> {
    await callAsCaller<MfaCheckResponse>(`${this.#identityUrl()}/api/auth/mfa/check`, caller, { method: 'POST', body: { code } }, NAMES);
  }
}
