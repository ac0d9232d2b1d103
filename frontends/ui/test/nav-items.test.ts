import { describe, expect, it } from '@jest/globals';
import { resolveNavItems, SPEC_NAV_ITEMS, type ResolvedNavItem } from '@ledgerline/ui/nav-items.ts';
import type { ShellNavItem } from '@ledgerline/ui/shell-contract.ts';

const labelsAndHrefs = (items: ResolvedNavItem[]) => items.map((item) => [item.label, item.href]);

describe('resolveNavItems', () => {
  it('shows staff the spec items, unprefixed without a stored tenant', () => {
    const items = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', tenantShortName: undefined, pathname: '/' });
    expect(labelsAndHrefs(items)).toEqual([
      ['Dashboard', '/'],
      ['Reports', '/cpa-dashboard'],
      ['Tasks', '/tasks'],
      ['Compliance', '/compliance'],
      ['AI Insights', '/compliance-insights'],
      ['AI Assistant', '/messages'],
      ['Clients', '/clients'],
      ['Users', '/users'],
      ['Roles', '/roles'],
      ['Report Types', '/report-types'],
      ['Firm Documents', '/firm-documents'],
      ['Settings', '/settings'],
    ]);
  });

  it('prefixes every staff item with the stored tenant; Dashboard becomes /{tenant}/dashboard', () => {
    const items = resolveNavItems(SPEC_NAV_ITEMS, { role: 'CPA', tenantShortName: 'acme', pathname: '/acme/dashboard' });
    expect(items.map((item) => item.href)).toEqual([
      '/acme/dashboard',
      '/acme/cpa-dashboard',
      '/acme/tasks',
      '/acme/compliance',
      '/acme/compliance-insights',
      '/acme/messages',
      '/acme/clients',
      '/acme/users',
      '/acme/roles',
      '/acme/report-types',
      '/acme/firm-documents',
      '/acme/settings',
    ]);
  });

  it('shows Client users only Dashboard, Reports (/client-reports) and Compliance (their own items), in either role spelling', () => {
    for (const role of ['Client', 'client']) {
      expect(labelsAndHrefs(resolveNavItems(SPEC_NAV_ITEMS, { role, tenantShortName: undefined, pathname: '/' }))).toEqual([
        ['Dashboard', '/'],
        ['Reports', '/client-reports'],
        ['Compliance', '/compliance'],
      ]);
    }
    expect(labelsAndHrefs(resolveNavItems(SPEC_NAV_ITEMS, { role: 'Client', tenantShortName: 'acme', pathname: '/' }))).toEqual([
      ['Dashboard', '/acme/dashboard'],
      ['Reports', '/acme/client-reports'],
      ['Compliance', '/acme/compliance'],
    ]);
  });

  it('opens the Reports group when the location contains /cpa-dashboard', () => {
    const reports = (pathname: string) =>
      resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', tenantShortName: undefined, pathname }).find((item) => item.id === 'reports')!;
    expect(reports('/cpa-dashboard').open).toBe(true);
    expect(reports('/cpa-dashboard/report/4').open).toBe(true);
    expect(reports('/acme/cpa-dashboard').open).toBe(true);
    expect(reports('/tasks').open).toBe(false);
  });

  it('nests items under their group and keeps them to the audience', () => {
    const extra: ShellNavItem[] = [
      ...SPEC_NAV_ITEMS,
      { id: 'report-7', label: 'Payroll', path: '/cpa-dashboard/report/7', parentId: 'reports' },
      { id: 'portal', label: 'Portal', path: '/portal', audience: ['client'] },
    ];
    const staff = resolveNavItems(extra, { role: 'Admin', tenantShortName: undefined, pathname: '/cpa-dashboard' });
    expect(staff.find((item) => item.id === 'reports')!.children.map((child) => child.href)).toEqual(['/cpa-dashboard/report/7']);
    expect(staff.some((item) => item.id === 'report-7' || item.id === 'portal')).toBe(false);
    const client = resolveNavItems(extra, { role: 'Client', tenantShortName: undefined, pathname: '/' });
    expect(client.map((item) => item.label)).toEqual(['Dashboard', 'Reports', 'Compliance', 'Portal']);
  });

  it('marks the item of the current location active', () => {
    const items = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', tenantShortName: 'acme', pathname: '/acme/users' });
    expect(items.filter((item) => item.active).map((item) => item.id)).toEqual(['users']);
    const home = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', tenantShortName: undefined, pathname: '/' });
    expect(home.filter((item) => item.active).map((item) => item.id)).toEqual(['dashboard']);
  });
});
