import { randomInt } from 'node:crypto';
import { hashToken } from '@ledgerline/kit/crypto/hashed-token.ts';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: codes are read off paper and typed. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;

/** Ten codes like `k3v9q-x7mhp` (about 49 random bits each): enough against guessing, since a challenge allows 5 tries. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: GROUP * 2 }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
    return `${chars.slice(0, GROUP)}-${chars.slice(GROUP)}`;
  });
}

/** What is stored: the hash of the code as typed, ignoring case, spaces and dashes. */
export const recoveryCodeHash = (code: string): string => hashToken(code.toLowerCase().replace(/[\s-]/g, ''));
