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

/**
 * What the shell must know of a page before its remote's code is loaded: each remote
 * declares its pages in `src/routes.ts` (plain data, no imports of page code); the build
 * publishes them as `routes.json`, the gateway lists them in /frontends.json, and the
 * shell loads the remote only when one of its pages is first visited.
 */
export interface RouteDeclaration {
  /** A react-router path, e.g. '/account-settings' or '/cpa-dashboard/report/:id'. */
  path: string;
  /** Also serve the route at /{tenant}{path} (spec: "tenant variants exist"). */
  tenantScoped?: boolean;
  /** Default 'authenticated'. */
  access?: RouteAccess;
  /**
   * Authenticated routes only: 'app' (default) renders inside the side navigation, header and
   * grey content area, 'bare' renders the element alone. Guest and public routes are always bare.
   */
  layout?: 'app' | 'bare';
  /**
   * The header's title and the first part of the tab title ('Clients · Harbor & Pine ·
   * Ledgerline'). Default: the header-title table (header-title.ts).
   */
  title?: string;
  /**
   * Who may open the page (authenticated routes). Default both. A Client user on a staff
   * page lands on their own reports; staff on a Client page on their dashboard.
   */
  audience?: readonly NavAudience[];
}

export interface ShellRoute extends RouteDeclaration {
  element: ReactNode;
}

/** What a remote's `routes.json` (built from its `src/routes.ts`) holds. */
export interface RemoteDeclarations {
  routes: readonly RouteDeclaration[];
  navItems?: readonly ShellNavItem[];
  /**
   * Load the remote in the background once a user is signed in (`export const
   * LOAD_ON_SIGN_IN = true` in routes.ts), for a register() that installs something other
   * screens use (the chat remote's Chat-button launcher). Never on the sign-in pages.
   */
  loadOnSignIn?: boolean;
}

/**
 * Pairs a remote's declared pages with their elements in its register(), so the paths and
 * options are written once (in routes.ts) and every declared page must get an element.
 */
export function declaredRoutes<K extends string>(
  declarations: Readonly<Record<K, RouteDeclaration>>,
  elements: Readonly<Record<K, ReactNode>>,
): ShellRoute[] {
  return (Object.keys(declarations) as K[]).map((key) => ({ ...declarations[key], element: elements[key] }));
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
  /**
   * Firm administration (clients, users, roles, report types, settings): offered only to
   * Admins and platform administrators, since the server refuses the page's calls to others.
   */
  administration?: boolean;
  /** A group lists its children while the location contains its path (spec: Reports). */
  group?: boolean;
  /** Places the item inside the group with this id. */
  parentId?: string;
}
