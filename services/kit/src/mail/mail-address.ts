/** Only an address is mailed to. */
export const isEmailAddress = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/**
 * Where a user's e-mail goes (issue 40 "e-mail to the person"): the address on the user,
 * else their username when it is an address; null when they have neither.
 */
export function mailAddressOf(user: { email?: string | null; username?: string | null }): string | null {
  if (user.email) return user.email;
  return user.username && isEmailAddress(user.username) ? user.username : null;
}
