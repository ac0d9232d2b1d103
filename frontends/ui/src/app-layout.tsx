import type { ReactNode } from 'react';
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

/** Side navigation, header and the grey content area of spec 000 "Shell". */
export function AppLayout({ title, user, navItems, headerCenter, headerActions, onLogout, children }: AppLayoutProps) {
  return (
    <div className="app-layout">
      <SideNav items={navItems} onLogout={onLogout} />
      <div className="app-layout__main">
        <AppHeader title={title} user={user} center={headerCenter} actions={headerActions} onLogout={onLogout} />
        <main className="app-layout__content">{children}</main>
      </div>
    </div>
  );
}
