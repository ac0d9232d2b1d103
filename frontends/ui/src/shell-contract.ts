import type { ReactNode } from 'react';

/**
 * What a remote's exposed `./register` receives. Remotes plug pages and navigation into
 * the shell only through this, so the shell never needs to know a remote at build time.
 */
export interface ShellContract {
  addRoutes(routes: readonly ShellRoute[]): void;
  addNavItems(items: readonly ShellNavItem[]): void;
}

/** The default export of every remote's `./register` module. */
export type RegisterRemote = (shell: ShellContract) => void;

/**
 * authenticated — the spec's guarded routes (sign-in required, 'Loading...' meanwhile);
 * guest — sign-in pages: a signed-in user on /login goes to /;
 * public — anyone (e.g. the client portal page).
 */
export type RouteAccess = 'authenticated' | 'guest' | 'public';

export interface ShellRoute {
  /** A react-router path, e.g. '/account-settings' or '/cpa-dashboard/report/:id'. */
  path: string;
  element: ReactNode;
  /** Also serve the route at /{tenant}{path} (spec: "tenant variants exist"). */
  tenantScoped?: boolean;
  /** Default 'authenticated'. */
  access?: RouteAccess;
  /**
   * Authenticated routes only: 'app' (default) renders inside the side navigation, header and
   * grey content area, 'bare' renders the element alone. Guest and public routes are always bare.
   */
  layout?: 'app' | 'bare';
}

/** Who sees a navigation item: firm staff (every non-Client role) or Client users. */
export type NavAudience = 'staff' | 'client';

export interface ShellNavItem {
  /** Stable key: an item with an existing id replaces that item (keeping its place). */
  id: string;
  label: string;
  /** Unprefixed path; the shell prefixes /{tenant} when a current tenant is stored. */
  path: string;
  /** Path under /{tenant} when it differs from `path` (Dashboard: / versus /{tenant}/dashboard). */
  tenantPath?: string;
  /** A primeicons class, e.g. 'pi pi-home'. */
  icon?: string;
  /** Default ['staff']. */
  audience?: readonly NavAudience[];
  /** A group lists its children while the location contains its path (spec: Reports). */
  group?: boolean;
  /** Places the item inside the group with this id. */
  parentId?: string;
}
