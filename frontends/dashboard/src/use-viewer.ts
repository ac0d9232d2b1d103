import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { readCurrentTenant, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { dashboardTenant } from './dashboard-tenant.ts';

export type ViewerState =
  | { status: 'loading' }
  /** A platform administrator who has not chosen a firm in the header yet. */
  | { status: 'no-tenant'; user: StoredUser }
  | { status: 'ready'; user: StoredUser; tenant: string };

/**
 * Who is looking and at which firm (dashboard-tenant.ts). Loading until both are known
 * (spec 001 §2); choosing a tenant reloads the page, so the stored one is read once.
 */
export function useViewer(): ViewerState {
  const { state } = useAuth();
  const { pathname } = useLocation();
  const stored = useMemo(() => readCurrentTenant(), []);
  if (state.status !== 'authenticated') return { status: 'loading' };
  const tenant = dashboardTenant(stored, pathname, state.user.tenant);
  return tenant ? { status: 'ready', user: state.user, tenant } : { status: 'no-tenant', user: state.user };
}
