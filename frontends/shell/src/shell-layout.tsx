import { useEffect, useMemo } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { AppLayout } from '@ledgerline/ui/app-layout.tsx';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import { useFirmCountrySync } from '@ledgerline/ui/firm-country-sync.ts';
import { HeaderCenter } from '@ledgerline/ui/header-center.tsx';
import { NotificationBell } from '@ledgerline/ui/notification-bell.tsx';
import { useUnreadMessages } from '@ledgerline/ui/messages-unread.ts';
import { resolveNavItems } from '@ledgerline/ui/nav-items.ts';
import { canAdministerFirm } from '@ledgerline/ui/permissions.ts';
import type { ShellNavItem } from '@ledgerline/ui/shell-contract.ts';
import { ToastOutlet } from '@ledgerline/ui/toast-outlet.tsx';
import { loadSignInRemotes } from './remote-loader.ts';
import { matchEntry, pageTitle, type RouteEntry } from './route-table.ts';

/** The signed-in frame around every 'app' route; only rendered behind the auth guard. */
export function ShellLayout({ navItems, routes }: { navItems: readonly ShellNavItem[]; routes: readonly RouteEntry[] }) {
  const { state, logout } = useAuth();
  const { pathname } = useLocation();
  // Choosing a tenant reloads the page (spec 000 §4), so reading it once per load is enough.
  const tenant = useMemo(() => readCurrentTenant(), []);
  // Loaded once (registration is memoised), after the first signed-in render.
  useEffect(loadSignInRemotes, []);
  useFirmCountrySync(state.status === 'authenticated' ? tenant : null);
  const unreadMessages = useUnreadMessages(state.status === 'authenticated' && Boolean(tenant));
  if (state.status !== 'authenticated') return null;
  const items = resolveNavItems(navItems, { role: state.user.role, platformAdmin: state.user.platformAdmin === true, administersFirm: canAdministerFirm(state.user), tenantShortName: tenant?.shortName, pathname, badges: { messages: unreadMessages } });
  return (
    <AppLayout
      title={pageTitle(matchEntry(routes, pathname), pathname)}
      user={state.user}
      navItems={items}
      headerCenter={<HeaderCenter user={state.user} pathname={pathname} />}
      // Notifications belong to a firm: none to show before one is chosen.
      headerActions={tenant ? <NotificationBell /> : null}
      onLogout={logout}
    >
      <Outlet />
      <ToastOutlet />
    </AppLayout>
  );
}
