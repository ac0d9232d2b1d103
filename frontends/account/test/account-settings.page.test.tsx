import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { AccountDetails } from '../src/account-settings.page.tsx';
import register from '../src/register.tsx';

const user = { id: 4, role: 'CPA', username: 'carl', fullName: 'Carl Price', commonRouting: true };

describe('account remote', () => {
  it('registers /account-settings with its tenant variant and no navigation', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(routes.map(({ path, tenantScoped, access }) => ({ path, tenantScoped, access }))).toEqual([
      { path: '/account-settings', tenantScoped: true, access: undefined },
    ]);
    expect(navItems).toEqual([]);
  });

  it("shows the signed-in user's name, username, role and tenant", () => {
    const html = renderToStaticMarkup(<AccountDetails user={user} tenant={{ id: 2, name: 'Acme Tax', shortName: 'acme', isActive: true }} />);
    expect(html).toContain('Account Settings');
    expect(html).toContain('<dd>Carl Price</dd>');
    expect(html).toContain('<dd>carl</dd>');
    expect(html).toContain('<dd>CPA</dd>');
    expect(html).toContain('<dd>Acme Tax (acme)</dd>');
  });

  it('falls back to the username and says when no tenant is selected', () => {
    const html = renderToStaticMarkup(<AccountDetails user={{ ...user, fullName: null }} tenant={null} />);
    expect(html.match(/<dd>carl<\/dd>/g)).toHaveLength(2);
    expect(html).toContain('<dd>No tenant selected</dd>');
  });
});
