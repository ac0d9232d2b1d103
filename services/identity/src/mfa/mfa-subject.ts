import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

/** Prefix of a platform administrator's challenge: `_` is never part of a firm's short name. */
export const PLATFORM_SCOPE = '_';

/**
 * Whose second factor is at stake: a firm's user (their firm's schema) or a platform
 * administrator (the platform schema). The same tables exist in both.
 */
export interface MfaSubject {
  db: SchemaDb;
  /** The firm, or null for a platform administrator. */
  company: Company | null;
  userId: number;
  username: string;
  role: string;
  /** Where e-mailed codes go (firm users who have one). */
  email: string | null;
}

/** What a challenge names before its dot: the firm's short name or PLATFORM_SCOPE. */
export const scopeOf = (s: MfaSubject): string => s.company?.shortName ?? PLATFORM_SCOPE;

/** Where the user came from, for the security events. */
export interface SignInContext {
  address: string;
  browser: string | null;
}
