import { Avatar } from 'primereact/avatar';
import { Button } from 'primereact/button';
import type { ReactNode } from 'react';
import { displayName, initials } from './user-display.ts';
import type { StoredUser } from './auth-storage.ts';

export interface AppHeaderProps {
  title: string;
  user: StoredUser;
  /** Centre of the header: the tenant selector, or a Client user's organisation name. */
  center?: ReactNode;
  /** Before the user's name: the notification bell. */
  actions?: ReactNode;
  onLogout(): void;
}

export function AppHeader({ title, user, center, actions, onLogout }: AppHeaderProps) {
  const name = displayName(user);
  return (
    <header className="app-header">
      <h1 className="app-header__title">{title}</h1>
      <div className="app-header__center">{center}</div>
      <div className="app-header__user">
        {actions}
        <span className="app-header__welcome">Welcome, {name}</span>
        <Avatar label={initials(name)} shape="circle" className="app-header__avatar" aria-label={name} />
        <Button label="Logout" icon="pi pi-sign-out" text size="small" onClick={onLogout} />
      </div>
    </header>
  );
}
