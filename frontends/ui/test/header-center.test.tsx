import { describe, expect, it } from '@jest/globals';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { createQueryClient } from '@ledgerline/ui/api-client.ts';
import type { StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { COMPANIES_QUERY_KEY } from '@ledgerline/ui/companies-query.ts';
import { HeaderCenter } from '@ledgerline/ui/header-center.tsx';
import { canSwitchTenant } from '@ledgerline/ui/tenant-selector.tsx';
import { installLocalStorage } from './browser-globals.ts';

const acme = { id: 3, name: 'Acme Tax', shortName: 'acme', isActive: true };
const dormant = { id: 4, name: 'Dormant LLP', shortName: 'dormant', isActive: false };
const user = (role: string, extra: Partial<StoredUser> = {}): StoredUser => ({ id: 1, role, username: 'ann', fullName: 'Ann', commonRouting: false, ...extra });

/** Server rendering runs no queries: the company list is whatever the cache already holds. */
function render(who: StoredUser, pathname: string, companies?: unknown[]): string {
  const queryClient = createQueryClient();
  if (companies) queryClient.setQueryData(COMPANIES_QUERY_KEY, companies);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <HeaderCenter user={who} pathname={pathname} />
    </QueryClientProvider>,
  );
}

describe('header centre', () => {
  it('lets Admin, DTA and platform administrators switch tenants, nobody else', () => {
    expect(canSwitchTenant(user('Admin'))).toBe(true);
    expect(canSwitchTenant(user('dta'))).toBe(true);
    expect(canSwitchTenant(user('Admin', { platformAdmin: true }))).toBe(true);
    expect(canSwitchTenant(user('CPA'))).toBe(false);
    expect(canSwitchTenant(user('Client'))).toBe(false);
  });

  it("shows 'Selected Tenant' with 'Select a tenant...' outside tenant-scoped paths", () => {
    installLocalStorage();
    const html = render(user('Admin'), '/admin/tenants', [acme, dormant]);
    expect(html).toContain('Selected Tenant');
    expect(html).toContain('Select a tenant...');
  });

  it("shows the stored tenant read-only as 'Current Tenant' on tenant-scoped paths", () => {
    installLocalStorage().setItem('currentTenant', JSON.stringify(acme));
    const html = render(user('DTA'), '/acme/users', [acme]);
    expect(html).toContain('Current Tenant');
    expect(html).toContain('Acme Tax');
    expect(html).toContain('acme');
    installLocalStorage();
    expect(render(user('DTA'), '/acme/users', [acme])).toContain('No tenant selected');
  });

  it('shows the stored tenant on a tenant-scoped path before the company list has come (nothing moves when it does)', () => {
    installLocalStorage().setItem('currentTenant', JSON.stringify(acme));
    const html = render(user('Admin'), '/acme/dashboard');
    expect(html).toContain('Current Tenant');
    expect(html).toContain('Acme Tax');
  });

  it('shows nothing without companies or for CPA users', () => {
    installLocalStorage();
    expect(render(user('Admin'), '/admin/tenants', [])).toBe('');
    expect(render(user('Admin'), '/admin/tenants')).toBe('');
    expect(render(user('CPA'), '/acme/dashboard', [acme])).toBe('');
  });

  it("keeps a Client's organisation line, empty, until its name loads (on a phone it is a row: nothing below moves when the name comes)", () => {
    installLocalStorage();
    expect(render(user('Client'), '/acme/dashboard', [acme])).toBe('<span class="client-org-name" aria-hidden="true">\u200b</span>');
  });
});
