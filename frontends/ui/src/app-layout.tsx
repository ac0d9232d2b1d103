import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { AppHeader } from './app-header.tsx';
import { SideNav } from './side-nav.tsx';
import type { StoredUser } from './auth-storage.ts';
import type { ResolvedNavItem } from './nav-items.ts';

export interface AppLayoutProps {
  title: string;
  user: StoredUser;
  navItems: readonly ResolvedNavItem[];
  headerCenter?: ReactNode;
  headerActions?: ReactNode;
  onLogout(): void;
  children: ReactNode;
}

export const MAIN_CONTENT_ID = 'main-content';

/**
 * Side navigation, header and the grey content area of spec 000 "Shell". Below 768 px
 * (theme.css) the navigation is an overlay drawer behind the header's menu button; it
 * closes on navigation, Escape or a tap beside it.
 */
export function AppLayout({ title, user, navItems, headerCenter, headerActions, onLogout, children }: AppLayoutProps) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  useEffect(() => setDrawerOpen(false), [pathname]);
  useEffect(() => {
    if (!drawerOpen) return undefined;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [drawerOpen]);

  return (
    <div className="app-layout">
      <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
        Skip to main content
      </a>
      <SideNav items={navItems} open={drawerOpen} onClose={() => setDrawerOpen(false)} onLogout={onLogout} />
      {drawerOpen && <div className="app-layout__backdrop" aria-hidden="true" onClick={() => setDrawerOpen(false)} />}
      <div className="app-layout__main">
        <AppHeader title={title} user={user} center={headerCenter} actions={headerActions} drawerOpen={drawerOpen} onOpenDrawer={() => setDrawerOpen(true)} onLogout={onLogout} />
        <main id={MAIN_CONTENT_ID} className="app-layout__content" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
