import { describe, expect, it } from '@jest/globals';
import { resolveNavItems, SPEC_NAV_ITEMS, type ResolvedNavItem } from '@ledgerline/ui/nav-items.ts';
import type { ShellNavItem } from '@ledgerline/ui/shell-contract.ts';

const labelsAndHrefs = (items: ResolvedNavItem[]) => items.map((item) => [item.label, item.href]);

describe('resolveNavItems', () => {
  it('shows staff the spec items, unprefixed without a stored tenant', () => {
    const items = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', administersFirm: true, tenantShortName: undefined, pathname: '/' });
    expect(labelsAndHrefs(items)).toEqual([
      ['Dashboard', '/'],
      ['Reports', '/cpa-dashboard'],
      ['Tasks', '/tasks'],
      ['Compliance', '/compliance'],
      ['Requests', '/requests'],
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

  it("shows a platform administrator without a firm the console's pages only, and the firm's pages too once one is chosen", () => {
    const none = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', platformAdmin: true, administersFirm: true, tenantShortName: undefined, pathname: '/admin/tenants' });
    expect(labelsAndHrefs(none)).toEqual([['Admin Dashboard', '/admin/dashboard'], ['Tenant Management', '/admin/tenants']]);
    expect(none.find((item) => item.active)?.label).toBe('Tenant Management');
    const chosen = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', platformAdmin: true, administersFirm: true, tenantShortName: 'acme', pathname: '/acme/users' });
    expect(labelsAndHrefs(chosen)).toEqual(expect.arrayContaining([['Users', '/acme/users'], ['Settings', '/acme/settings'], ['Tenant Management', '/admin/tenants']]));
    expect(chosen.at(-1)?.href).toBe('/admin/tenants');
  });

  it('prefixes every staff item with the stored tenant; Dashboard becomes /{tenant}/dashboard; firm administration only for those who administer it', () => {
    const items = resolveNavItems(SPEC_NAV_ITEMS, { role: 'CPA', administersFirm: false, tenantShortName: 'acme', pathname: '/acme/dashboard' });
    expect(items.map((item) => item.href)).toEqual([
      '/acme/dashboard',
      '/acme/cpa-dashboard',
      '/acme/tasks',
      '/acme/compliance',
      '/acme/requests',
      '/acme/compliance-insights',
      '/acme/messages',
      '/acme/firm-documents',
    ]);
    const dta = resolveNavItems(SPEC_NAV_ITEMS, { role: 'DTA', administersFirm: false, tenantShortName: 'acme', pathname: '/acme/dashboard' });
    expect(dta.map((item) => item.label)).not.toEqual(expect.arrayContaining(['Clients']));
    expect(dta.map((item) => item.label)).toEqual(items.map((item) => item.label));
  });

  it('shows Client users only Dashboard, Reports (/client-reports), Compliance (their own items), their requests and their messages (DESIGN §7), in either role spelling', () => {
    for (const role of ['Client', 'client']) {
      expect(labelsAndHrefs(resolveNavItems(SPEC_NAV_ITEMS, { role, administersFirm: false, tenantShortName: undefined, pathname: '/' }))).toEqual([
        ['Dashboard', '/'],
        ['Reports', '/client-reports'],
        ['Compliance', '/compliance'],
        ['Requests', '/requests'],
        ['AI Assistant', '/messages'],
      ]);
    }
    expect(labelsAndHrefs(resolveNavItems(SPEC_NAV_ITEMS, { role: 'Client', administersFirm: false, tenantShortName: 'acme', pathname: '/' }))).toEqual([
      ['Dashboard', '/acme/dashboard'],
      ['Reports', '/acme/client-reports'],
      ['Compliance', '/acme/compliance'],
      ['Requests', '/acme/requests'],
      ['AI Assistant', '/acme/messages'],
    ]);
  });

  it('shows a count beside an item (unread messages), none when it is zero', () => {
    const messages = (count: number) => resolveNavItems(SPEC_NAV_ITEMS, { role: 'CPA', administersFirm: false, tenantShortName: 'acme', pathname: '/', badges: { messages: count } })
      .find((item) => item.id === 'messages')!;
    expect(messages(3).badge).toBe(3);
    expect(messages(0).badge).toBeUndefined();
  });

  it('opens the Reports group when the location contains /cpa-dashboard', () => {
    const reports = (pathname: string) =>
      resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', administersFirm: true, tenantShortName: undefined, pathname }).find((item) => item.id === 'reports')!;
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
    const staff = resolveNavItems(extra, { role: 'Admin', administersFirm: true, tenantShortName: undefined, pathname: '/cpa-dashboard' });
    expect(staff.find((item) => item.id === 'reports')!.children.map((child) => child.href)).toEqual(['/cpa-dashboard/report/7']);
    expect(staff.some((item) => item.id === 'report-7' || item.id === 'portal')).toBe(false);
    const client = resolveNavItems(extra, { role: 'Client', administersFirm: false, tenantShortName: undefined, pathname: '/' });
    expect(client.map((item) => item.label)).toEqual(['Dashboard', 'Reports', 'Compliance', 'Requests', 'AI Assistant', 'Portal']);
  });

  it('marks the item of the current location active', () => {
    const items = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', administersFirm: true, tenantShortName: 'acme', pathname: '/acme/users' });
    expect(items.filter((item) => item.active).map((item) => item.id)).toEqual(['users']);
    const home = resolveNavItems(SPEC_NAV_ITEMS, { role: 'Admin', administersFirm: true, tenantShortName: undefined, pathname: '/' });
    expect(home.filter((item) => item.active).map((item) => item.id)).toEqual(['dashboard']);
  });
});
