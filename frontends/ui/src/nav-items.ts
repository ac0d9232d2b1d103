import { isClientRole } from './auth-storage.ts';
import type { NavAudience, ShellNavItem } from './shell-contract.ts';

/** The side navigation of spec 000 "Shell", in its order. Remotes may add or replace items. */
export const SPEC_NAV_ITEMS: readonly ShellNavItem[] = [
  { id: 'dashboard', label: 'Dashboard', path: '/', tenantPath: '/dashboard', icon: 'pi pi-home', audience: ['staff', 'client'] },
  { id: 'reports', label: 'Reports', path: '/cpa-dashboard', icon: 'pi pi-file', group: true },
  { id: 'client-reports', label: 'Reports', path: '/client-reports', icon: 'pi pi-file', audience: ['client'] },
  { id: 'tasks', label: 'Tasks', path: '/tasks', icon: 'pi pi-check-square' },
  { id: 'compliance', label: 'Compliance', path: '/compliance', icon: 'pi pi-shield', audience: ['staff', 'client'] },
  // Issue 27: document requests; Client users answer their client's there.
  { id: 'requests', label: 'Requests', path: '/requests', icon: 'pi pi-inbox', audience: ['staff', 'client'] },
  { id: 'compliance-insights', label: 'AI Insights', path: '/compliance-insights', icon: 'pi pi-lightbulb' },
  // Spec 001 §2: the Messages page, labelled AI Assistant; Client users reach it too (DESIGN §7).
  { id: 'messages', label: 'AI Assistant', path: '/messages', icon: 'pi pi-comments', audience: ['staff', 'client'] },
  { id: 'clients', label: 'Clients', path: '/clients', icon: 'pi pi-building', administration: true },
  { id: 'users', label: 'Users', path: '/users', icon: 'pi pi-users', administration: true },
  { id: 'roles', label: 'Roles', path: '/roles', icon: 'pi pi-id-card', administration: true },
  { id: 'report-types', label: 'Report Types', path: '/report-types', icon: 'pi pi-tags', administration: true },
  { id: 'firm-documents', label: 'Firm Documents', path: '/firm-documents', icon: 'pi pi-folder' },
  { id: 'settings', label: 'Settings', path: '/settings', icon: 'pi pi-cog', administration: true },
];

/** The platform console's own pages (unprefixed; no firm needed), for platform administrators. */
export const CONSOLE_NAV_ITEMS: readonly ShellNavItem[] = [
  { id: 'admin-dashboard', label: 'Admin Dashboard', path: '/admin/dashboard', icon: 'pi pi-chart-bar' },
  { id: 'admin-tenants', label: 'Tenant Management', path: '/admin/tenants', icon: 'pi pi-briefcase' },
];

export interface NavContext {
  role: string | undefined;
  /** A platform administrator: the console's pages, and a firm's only once one is chosen. */
  platformAdmin?: boolean;
  /** Admins and platform administrators: the only callers the firm-administration pages' calls allow. */
  administersFirm: boolean;
  /** The stored current tenant's short name, if any. */
  tenantShortName: string | undefined;
  pathname: string;
  /** Counts shown beside items, by item id (e.g. unread messages); zero shows none. */
  badges?: Readonly<Record<string, number>>;
}

export interface ResolvedNavItem {
  id: string;
  label: string;
  href: string;
  icon?: string;
  /** A count shown beside the label. */
  badge?: number;
  active: boolean;
  /** Groups only: whether the children are shown. */
  open?: boolean;
  children: ResolvedNavItem[];
}

/** Filters items to the user's audience, applies the tenant prefix and nests group children. */
export function resolveNavItems(items: readonly ShellNavItem[], context: NavContext): ResolvedNavItem[] {
  if (context.platformAdmin) {
    // Every firm page needs a firm: with none chosen they would all ask to select one first.
    const consolePages = resolveNavItems(CONSOLE_NAV_ITEMS, { ...context, platformAdmin: false, tenantShortName: undefined });
    return context.tenantShortName ? [...resolveNavItems(items, { ...context, platformAdmin: false }), ...consolePages] : consolePages;
  }
  const audience: NavAudience = isClientRole(context.role) ? 'client' : 'staff';
  const visible = items.filter((item) => (item.audience ?? ['staff']).includes(audience) && (!item.administration || context.administersFirm));
  const resolve = (item: ShellNavItem): ResolvedNavItem => {
    const href = navHref(item, context.tenantShortName);
    const resolved: ResolvedNavItem = {
      id: item.id,
      label: item.label,
      href,
      active: isActive(href, context.pathname),
      children: visible.filter((child) => child.parentId === item.id).map(resolve),
    };
    if (item.icon) resolved.icon = item.icon;
    const badge = context.badges?.[item.id];
    if (badge) resolved.badge = badge;
    if (item.group) resolved.open = context.pathname.includes(item.path);
    return resolved;
  };
  return visible.filter((item) => item.parentId === undefined).map(resolve);
}

export function navHref(item: ShellNavItem, tenantShortName: string | undefined): string {
  return tenantShortName ? `/${tenantShortName}${item.tenantPath ?? item.path}` : item.path;
}

function isActive(href: string, pathname: string): boolean {
  if (href === '/') return pathname === '/';
  return pathname === href || pathname.startsWith(`${href}/`);
}
