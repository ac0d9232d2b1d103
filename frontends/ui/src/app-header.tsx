import { Avatar } from 'primereact/avatar';
import { Button } from 'primereact/button';
import type { ReactNode } from 'react';
import { SIDE_NAV_ID } from './side-nav.tsx';
import { initials } from '@ledgerline/contracts/initials.ts';
import { displayName } from './user-display.ts';
import type { StoredUser } from './auth-storage.ts';

export interface AppHeaderProps {
  title: string;
  user: StoredUser;
  /** Centre of the header: the tenant selector, or a Client user's organisation name. */
  center?: ReactNode;
  /** Before the user's name: the notification bell. */
  actions?: ReactNode;
  drawerOpen: boolean;
  /** The menu button, shown on phones only (theme.css), opens the navigation drawer. */
  onOpenDrawer(): void;
  onLogout(): void;
}

export function AppHeader({ title, user, center, actions, drawerOpen, onOpenDrawer, onLogout }: AppHeaderProps) {
  const name = displayName(user);
  return (
    <header className="app-header">
      <button type="button" className="app-header__menu" aria-label="Open navigation" aria-controls={SIDE_NAV_ID} aria-expanded={drawerOpen} onClick={onOpenDrawer}>
        <i className="pi pi-bars" aria-hidden="true" />
      </button>
      <h1 className="app-header__title">{title}</h1>
      <div className="app-header__center">{center}</div>
      <div className="app-header__user">
        {actions}
        <span className="app-header__welcome">Welcome, {name}</span>
        <Avatar label={initials(name)} shape="circle" className="app-header__avatar" aria-label={name} />
        {/* aria-label: on phones the label is hidden and the icon alone remains. */}
        <Button label="Logout" aria-label="Logout" icon="pi pi-sign-out" text size="small" className="app-header__logout" onClick={onLogout} />
      </div>
    </header>
  );
}
