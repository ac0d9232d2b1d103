import type { ReactNode } from 'react';
import type { RouteAccess, ShellRoute } from '@ledgerline/ui/shell-contract.ts';

/** One concrete react-router route with its defaults applied. */
export interface RouteEntry {
  path: string;
  element: ReactNode;
  access: RouteAccess;
  layout: 'app' | 'bare';
  /** The first segment is a tenant short name, which must not be 'admin' (spec 000 §2). */
  tenantSegment: boolean;
}

export const TENANT_PARAM = 'tenant';
const TENANT_PREFIX = `/:${TENANT_PARAM}`;

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
      tenantSegment: path.startsWith(`${TENANT_PREFIX}/`),
    }));
  });
}
