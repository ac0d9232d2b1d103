import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Random bearer secrets that are stored only as their hash: challenge ids, one-click sign-in
 * links, recovery codes, document-request links (DESIGN §8 public links). A database leak
 * then hands out nothing usable. A token has at least 128 random bits, so an unsalted
 * SHA-256 is enough: there is no dictionary to try against it.
 */
export interface HashedToken {
  /** Give this to the user (URL-safe). */
  token: string;
  /** Store this; look the token up by it. */
  hash: string;
}

const MIN_BYTES = 16;

export function newHashedToken(bytes = 32): HashedToken {
  if (bytes < MIN_BYTES) throw new Error(`a token needs at least ${MIN_BYTES} random bytes`);
  const token = randomBytes(bytes).toString('base64url');
  return { token, hash: hashToken(token) };
}

/** The stored form of a token (hex SHA-256). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a presented token matches a stored hash, in constant time. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const given = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
