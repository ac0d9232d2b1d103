import type { StoredUser } from './auth-storage.ts';

/** The header greets with the full name, else the username (spec 000 "Shell"). */
export function displayName(user: Pick<StoredUser, 'fullName' | 'username'>): string {
  return user.fullName?.trim() || user.username;
}

/** Avatar initials: first letters of the first and last word of the name. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return `${first}${last}`.toUpperCase();
}
