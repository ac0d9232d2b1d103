import type { ReactNode } from 'react';
import { matchRoutes } from 'react-router-dom';
import { headerTitle } from '@ledgerline/ui/header-title.ts';
import type { NavAudience, RouteAccess, ShellRoute } from '@ledgerline/ui/shell-contract.ts';

/** One concrete react-router route with its defaults applied. */
export interface RouteEntry {
  path: string;
  element: ReactNode;
  access: RouteAccess;
  layout: 'app' | 'bare';
  /** The page's declared title, if any (else the header-title table decides). */
  title: string | undefined;
  audience: readonly NavAudience[];
  /** The first segment is a tenant short name, which must not be 'admin' (spec 000 §2). */
  tenantSegment: boolean;
}

export const TENANT_PARAM = 'tenant';
const TENANT_PREFIX = `/:${TENANT_PARAM}`;

const BOTH_AUDIENCES: readonly NavAudience[] = ['staff', 'client'];

export function expandRoutes(routes: readonly ShellRoute[]): RouteEntry[] {
  return routes.flatMap((route) => {
    const access = route.access ?? 'authenticated';
    const layout = access === 'authenticated' ? (route.layout ?? 'app') : 'bare';
    const paths = route.tenantScoped ? [route.path, `${TENANT_PREFIX}${route.path}`] : [route.path];
    return paths.map((path) => ({
      path,
      element: route.element,
      access,
      layout,
      title: route.title,
      audience: route.audience ?? BOTH_AUDIENCES,
      tenantSegment: path.startsWith(`${TENANT_PREFIX}/`),
    }));
  });
}

/** The page's name for the header and the tab: its declared title, else the spec's table. */
export function pageTitle(entry: Pick<RouteEntry, 'title'> | undefined, pathname: string): string {
  return entry?.title ?? headerTitle(pathname);
}

/** The entry react-router renders for the path (its ranking, so '/admin/login' beats '/:tenant/login'). */
export function matchEntry(entries: readonly RouteEntry[], pathname: string): RouteEntry | undefined {
  return matchRoutes(entries as RouteEntry[], pathname)?.[0]?.route;
}
