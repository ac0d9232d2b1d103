// Through the package name, so the remotes share the shell's one auth context.
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import type { StoredUser } from './auth-storage.ts';

/**
 * What the signed-in user may change, mirroring the server's authorization table
 * (docs/api/authorization.md), so screens never offer an action the server would refuse. The server
 * stays the authority; this only decides what is shown.
 */

/** Firm administration (users, roles, clients, report types, client field settings, Google Drive): Admins and platform administrators. */
export function canAdministerFirm(user: StoredUser | null | undefined): boolean {
  return user?.platformAdmin === true || user?.role.toLowerCase() === 'admin';
}

/** Firm-wide work setup (statutory compliance calendars): Admins, DTAs and platform administrators, who reach every client. */
export function canSetUpFirmWork(user: StoredUser | null | undefined): boolean {
  return canAdministerFirm(user) || user?.role.toLowerCase() === 'dta';
}

/** The roles the server never lets anyone rename or delete (docs/api/firms-users-sign-in.md). */
const BUILT_IN_ROLES = new Set(['admin', 'client']);

export function isBuiltInRole(name: string): boolean {
  return BUILT_IN_ROLES.has(name.toLowerCase());
}

/** canAdministerFirm for the signed-in user; false while signed out. */
export function useCanAdministerFirm(): boolean {
  const { state } = useAuth();
  return state.status === 'authenticated' && canAdministerFirm(state.user);
}
