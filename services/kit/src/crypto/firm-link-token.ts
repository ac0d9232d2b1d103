import { SHORT_NAME_PATTERN } from '@ledgerline/contracts/identity.contracts.ts';
import { hashToken, newHashedToken, type HashedToken } from './hashed-token.ts';

/**
 * The token of a public link into one firm (a document request, an organizer, a signature):
 * `<firm short name>.<random secret>`. The firm travels in the token so the public call finds
 * the schema to look the token's hash up in; the hash covers the whole token, so the prefix
 * cannot be swapped for another firm's.
 */
export function newFirmLinkToken(shortName: string): HashedToken {
  const token = `${shortName}.${newHashedToken().token}`;
  return { token, hash: hashToken(token) };
}

/** The firm a presented link token names, or null when it names none (garbage, not a short name). */
export function firmOfLinkToken(token: string): string | null {
  const dot = token.indexOf('.');
  const shortName = dot > 0 ? token.slice(0, dot) : '';
  return SHORT_NAME_PATTERN.test(shortName) ? shortName : null;
}
