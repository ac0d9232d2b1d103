import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * The identity checks a firm chooses per request (issue 41). `sign_in_second_factor`: a
 * 6-digit code e-mailed to the signer at the moment of signing, or, for a signed-in Client
 * user with an authenticator app, a fresh code of it that identity checks as them
 * (authenticator-check.ts). `knowledge`: answers the firm entered for that signer, compared server-side after
 * normalising (case, spaces, punctuation, a leading $ and thousands separators), with a
 * lock-out after SIGNATURE_LIMITS.knowledgeAttempts wrong tries. `provider`: a third-party
 * KBA adapter; none is built in, so it is unavailable and never faked.
 */
export interface IdentityProvider {
  readonly name: string;
  verify(signer: { name: string; email: string }, evidence: unknown): Promise<{ passed: boolean; detail: string }>;
}

/** Secrets are hashed with a key of this installation: a database leak alone cannot test guesses against them offline. */
export class SecretHasher {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  hash(purpose: 'answer' | 'code', value: string): string {
    return createHmac('sha256', this.#key).update(`${purpose}:${purpose === 'answer' ? normaliseAnswer(value) : value}`).digest('hex');
  }

  matches(purpose: 'answer' | 'code', value: string, stored: string): boolean {
    const given = Buffer.from(this.hash(purpose, value), 'hex');
    const expected = Buffer.from(stored, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** "$12,345.00" and "12345" match; so do "Main St." and "main st". */
export function normaliseAnswer(answer: string): string {
  return answer.normalize('NFKC').toLowerCase().replace(/(\.0+)(?!\d)/g, '').replace(/[^\p{L}\p{N}]+/gu, '');
}

export const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');
