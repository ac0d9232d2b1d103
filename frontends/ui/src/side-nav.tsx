import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { ResolvedNavItem } from './nav-items.ts';
import { badgeText } from './notification-bell.tsx';

export interface SideNavProps {
  items: readonly ResolvedNavItem[];
  /** Phones: whether the drawer is shown (wider screens always show the navigation). */
  open: boolean;
  onClose(): void;
  onLogout(): void;
}

export const SIDE_NAV_ID = 'side-nav';

/** Side navigation (16rem, spec 000 §9) with Logout at the bottom; a drawer on phones. */
export function SideNav({ items, open, onClose, onLogout }: SideNavProps) {
  const closeButton = useRef<HTMLButtonElement>(null);
  // Keyboard and screen-reader users land inside the drawer they just opened.
  useEffect(() => {
    if (open) closeButton.current?.focus();
  }, [open]);
  return (
    <nav id={SIDE_NAV_ID} className={open ? 'side-nav side-nav--open' : 'side-nav'} aria-label="Main navigation">
      <div className="side-nav__brand">
        <i className="pi pi-briefcase" aria-hidden="true" />
        <span>Ledgerline</span>
        <button ref={closeButton} type="button" className="side-nav__close" aria-label="Close navigation" onClick={onClose}>
          <i className="pi pi-times" aria-hidden="true" />
        </button>
      </div>
      <ul className="side-nav__list">
        {items.map((item) => (
          <NavEntry key={item.id} item={item} />
        ))}
      </ul>
      <button type="button" className="side-nav__logout" onClick={onLogout}>
        <i className="pi pi-sign-out" aria-hidden="true" />
        <span>Logout</span>
      </button>
    </nav>
  );
}

function NavEntry({ item }: { item: ResolvedNavItem }) {
  const isGroup = item.open !== undefined;
  return (
    <li className="side-nav__entry" data-nav-id={item.id}>
      <Link
        to={item.href}
        className={item.active ? 'side-nav__link side-nav__link--active' : 'side-nav__link'}
        aria-current={item.active ? 'page' : undefined}
        aria-expanded={isGroup ? item.open : undefined}
      >
        {item.icon && <i className={item.icon} aria-hidden="true" />}
        <span>{item.label}</span>
        {item.badge !== undefined && <span className="side-nav__badge" aria-label={`${item.badge} unread`}>{badgeText(item.badge)}</span>}
        {isGroup && <i className={item.open ? 'pi pi-chevron-down side-nav__chevron' : 'pi pi-chevron-right side-nav__chevron'} aria-hidden="true" />}
      </Link>
      {item.open && item.children.length > 0 && (
        <ul className="side-nav__children">
          {item.children.map((child) => (
            <NavEntry key={child.id} item={child} />
          ))}
        </ul>
      )}
    </li>
  );
}
