import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { AppLayout } from '@ledgerline/ui/app-layout.tsx';
import { resolveNavItems, SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';

const user = { id: 1, role: 'Admin', username: 'ann', fullName: 'Ann Smith', commonRouting: false };

function render(pathname: string, center?: string) {
  const navItems = resolveNavItems(SPEC_NAV_ITEMS, { role: user.role, administersFirm: true, tenantShortName: 'acme', pathname });
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[pathname]}>
      <AppLayout title="Clients" user={user} navItems={navItems} headerCenter={center} onLogout={() => {}}>
        <p>page body</p>
      </AppLayout>
    </MemoryRouter>,
  );
}

/** The opening <a> tag of the link to href. */
function linkTo(href: string, html: string): string {
  return html.match(new RegExp(`<a [^>]*href="${href}"[^>]*>`))?.[0] ?? '';
}

describe('AppLayout', () => {
  it('renders navigation links, the header greeting, initials, Logout and the page', () => {
    const html = render('/acme/clients');
    expect(html).toContain('href="/acme/clients"');
    expect(html).toContain('href="/acme/dashboard"');
    expect(html).toMatch(/<h1 class="app-header__title">Clients<\/h1>/);
    expect(html).toContain('Welcome, Ann Smith');
    expect(html).toContain('>AS<');
    expect(html.match(/<span[^>]*>Logout<\/span>/g)).toHaveLength(2);
    expect(html).toContain('<main id="main-content" class="app-layout__content" tabindex="-1"><p>page body</p></main>');
    expect(html).toContain('<a class="skip-link" href="#main-content">Skip to main content</a>');
    expect(linkTo('/acme/clients', html)).toContain('aria-current="page"');
  });

  it('shows the Reports group expanded only on /cpa-dashboard locations', () => {
    expect(linkTo('/acme/cpa-dashboard', render('/acme/cpa-dashboard'))).toContain('aria-expanded="true"');
    expect(linkTo('/acme/cpa-dashboard', render('/acme/clients'))).toContain('aria-expanded="false"');
  });

  it('has a labelled menu button for the phone drawer, closed at first', () => {
    const html = render('/acme/clients');
    expect(html).toMatch(/<button[^>]*aria-label="Open navigation"[^>]*aria-controls="side-nav"[^>]*aria-expanded="false"/);
    expect(html).toContain('<nav id="side-nav" class="side-nav" aria-label="Main navigation">');
    expect(html).toContain('aria-label="Close navigation"');
    expect(html).not.toContain('app-layout__backdrop');
  });

  it('puts the header centre between the title and the user', () => {
    expect(render('/acme/clients', 'Acme Client Co')).toContain('<div class="app-header__center">Acme Client Co</div>');
  });
});
