import { hash, verify } from '@node-rs/argon2';

/** argon2id: the library's default algorithm and recommended cost (its Algorithm enum is type-only). */
export const hashPassword = (password: string): Promise<string> => hash(password);

/** Burned on unknown accounts so a failed login costs the same either way (no enumeration by timing). */
const DUMMY_HASH = hashPassword('not-a-real-password');

/** Checks a password against a stored hash; a missing account (null) still pays for one verification. */
export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (storedHash === null) {
    await verify(await DUMMY_HASH, password);
    return false;
  }
  return verify(storedHash, password);
}
