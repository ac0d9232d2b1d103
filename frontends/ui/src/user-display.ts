import type { StoredUser } from './auth-storage.ts';

/** The header greets with the full name, else the username (spec 000 "Shell"). */
export function displayName(user: Pick<StoredUser, 'fullName' | 'username'>): string {
  return user.fullName?.trim() || user.username;
}
