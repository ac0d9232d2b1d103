import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { clientFieldTexts } from '../src/client-field-settings.query.ts';
import { ClientDetailsCard } from '../src/firm-details.page.tsx';
import register from '../src/register.tsx';

describe('directory remote', () => {
  it('registers its pages, tenant-scoped, and the public client portal page', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, tenantScoped, access }) => ({ path, tenantScoped, access }))).toEqual([
      { path: '/clients', tenantScoped: true, access: undefined },
      { path: '/clients/import', tenantScoped: true, access: undefined },
      { path: '/report-types', tenantScoped: true, access: undefined },
      { path: '/settings', tenantScoped: true, access: undefined },
      { path: '/firm-details', tenantScoped: true, access: undefined },
      { path: '/:tenantName/client/:clientId/portal', tenantScoped: undefined, access: 'public' },
    ]);
    // Clients, Report Types and Settings are already in the spec's navigation.
    expect(navItems).toEqual([]);
  });

  it('shows company details read-only with the firm labels and the start date as MM/DD/YYYY', () => {
    const client = { id: 1, name: 'Acme Traders', email: 'office@acme.in', address: '12 MG Road', phone: '+919876543210', phoneNumber: '+919876543210', federalId: 'ABCDE1234F', stateId: '', employeeCount: 12, startDate: '2024-03-01' } as Client;
    const html = renderToStaticMarkup(<ClientDetailsCard client={client} texts={{ ...clientFieldTexts(undefined), phoneLabel: 'Mobile' }} />);
    expect(html).toContain('<dt>Mobile</dt><dd>+919876543210</dd>');
    expect(html).toContain('<dt>Federal ID</dt><dd>ABCDE1234F</dd>');
    expect(html).toContain('<dt>State ID</dt><dd>N/A</dd>');
    expect(html).toContain('<dt>Employees</dt><dd>12</dd>');
    expect(html).toContain('<dt>Start Date</dt><dd>03/01/2024</dd>');
    expect(html).not.toContain('<input');
    // A Client user reads the number grouped as people write it.
    const forClient = renderToStaticMarkup(<ClientDetailsCard client={client} texts={{ ...clientFieldTexts(undefined), phoneLabel: 'Mobile' }} forClient />);
    expect(forClient).toContain('<dt>Mobile</dt><dd>+91 98765 43210</dd>');
  });
});
