import { apiPath } from '@ledgerline/ui/api-client.ts';
import { readStoredAuth } from '@ledgerline/ui/auth-storage.ts';

/**
 * Spec 000 §7: users calls take the tenant form (/api/{tenant}/users…) when the current path
 * has two or more segments, i.e. on /{tenant}/users; on /users the token names the firm. A
 * platform administrator's token names none: on /users they act in the firm they selected.
 */
export function usersApiPath(pathname: string, rest = ''): string {
  const segments = pathname.split('/').filter(Boolean);
  if (segments.length >= 2) return apiPath(`users${rest}`, { tenant: segments[0]! });
  return apiPath(`users${rest}`, readStoredAuth()?.user.platformAdmin ? {} : { tenant: null });
}

/** Roles, clients and report types follow the stored current tenant (spec 000 §7 conventions). */
export const rolesApiPath = (rest = ''): string => apiPath(`roles${rest}`);
export const clientsApiPath = (): string => apiPath('clients');
export const reportTypesApiPath = (): string => apiPath('report-types');

/** The Client column of the users table (spec 000 §2 "User Management"). */
export function clientCountLabel(clientIds: readonly number[] | null | undefined): string {
  const count = clientIds?.length ?? 0;
  return count === 0 ? 'No clients' : `${count} client(s)`;
}
