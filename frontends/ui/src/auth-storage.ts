import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
/**
 * The browser-side record of who is signed in (spec 000 §3 "Logged-in user", §4, §9).
 * Everything lives in localStorage so every tab, the shell and every remote see one state.
 */

import { AUTH_TOKEN_KEY, CURRENT_TENANT_KEY, TOKEN_KEY, USER_KEY } from '@ledgerline/contracts/browser-storage.ts';

/** The user as login returns it (spec 000 §3); extra fields are kept as received. */
export interface LoginUser {
  id: number;
  role: string;
  fullName?: string | null;
  username: string;
  [field: string]: unknown;
}

export interface StoredUser extends LoginUser {
  /** Added by the client: true when the role is CPA or Client. */
  commonRouting: boolean;
}

export interface StoredTenant {
  id: number;
  name: string;
  shortName: string;
  isActive: boolean;
  /** The firm's country: its pages' date and number formats (firm-formats.ts). Absent from older sign-ins. */
  country?: FirmCountry | null;
}

export interface StoredAuth {
  token: string;
  user: StoredUser;
}

const COMMON_ROUTING_ROLES = new Set(['cpa', 'client']);

/** Role names are data and the spec reads them in both cases ('Client' and 'client'). */
export function isClientRole(role: string | undefined): boolean {
  return role?.toLowerCase() === 'client';
}

/** The user's id as a firm's records hold it: a platform administrator's is negated (kit actorId), so it never matches a firm user's. */
export function firmActorId(user: LoginUser): number {
  return user.platformAdmin === true ? -user.id : user.id;
}

export function withCommonRouting(user: LoginUser): StoredUser {
  return { ...user, commonRouting: COMMON_ROUTING_ROLES.has(String(user.role).toLowerCase()) };
}

export function readToken(): string | null {
  return localStorage.getItem(AUTH_TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY);
}

/**
 * Authenticated means both a token and a user are stored. A stored user that does not
 * parse clears all stored auth data, so a half-broken session can never look signed in.
 */
export function readStoredAuth(): StoredAuth | null {
  const token = readToken();
  const rawUser = localStorage.getItem(USER_KEY);
  if (!token || !rawUser) return null;
  const user = parseUser(rawUser);
  if (!user) {
    clearStoredAuth();
    return null;
  }
  return { token, user };
}

function parseUser(raw: string): StoredUser | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const user = value as Partial<StoredUser>;
    if (typeof user.username !== 'string' || typeof user.role !== 'string') return null;
    return withCommonRouting(user as LoginUser);
  } catch {
    return null;
  }
}

/** Login stores the token and the user (with commonRouting added). */
export function saveStoredAuth(token: string, user: LoginUser): StoredUser {
  const stored = withCommonRouting(user);
  localStorage.setItem(TOKEN_KEY, token);
  // authToken is read first; a leftover one from an older session would shadow the new token.
  localStorage.removeItem(AUTH_TOKEN_KEY);
  localStorage.setItem(USER_KEY, JSON.stringify(stored));
  return stored;
}

/** Logout and corrupt-user recovery both drop token, user and tenant. */
export function clearStoredAuth(): void {
  for (const key of [TOKEN_KEY, AUTH_TOKEN_KEY, USER_KEY, CURRENT_TENANT_KEY]) localStorage.removeItem(key);
}

/**
 * Drops only the token (both keys), as file access does with a malformed or refused one
 * (spec 001 §5, §8); the user and tenant stay for the next sign-in.
 */
export function clearStoredToken(): void {
  for (const key of [TOKEN_KEY, AUTH_TOKEN_KEY]) localStorage.removeItem(key);
}

/** A failure reading the stored tenant is logged and treated as no tenant (spec 000 §4). */
export function readCurrentTenant(): StoredTenant | null {
  try {
    const raw = localStorage.getItem(CURRENT_TENANT_KEY);
    if (!raw) return null;
    const tenant = JSON.parse(raw) as Partial<StoredTenant> | null;
    if (!tenant || typeof tenant.shortName !== 'string' || tenant.shortName === '') {
      throw new Error('stored currentTenant has no shortName');
    }
    return tenant as StoredTenant;
  } catch (error) {
    console.error('Failed to read the current tenant', error);
    return null;
  }
}

/** A failure saving the tenant is only logged (spec 000 §4). */
export function saveCurrentTenant(tenant: StoredTenant): void {
  try {
    const { id, name, shortName, isActive, country } = tenant;
    localStorage.setItem(CURRENT_TENANT_KEY, JSON.stringify({ id, name, shortName, isActive, country: country ?? null }));
  } catch (error) {
    console.error('Failed to save the current tenant', error);
  }
}

/** Where logout lands: the stored tenant's login page, else the generic one. */
export function logoutRedirectPath(tenant: StoredTenant | null): string {
  return tenant ? `/${tenant.shortName}/login` : '/login';
}
