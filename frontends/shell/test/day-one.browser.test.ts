// What a firm meets on day one, per role, on a phone (390×844) and a desktop (1440×900):
// no page scrolls sideways, the phone's navigation drawer opens and navigates, the top bar
// and the tab name the page, actions the server would refuse are not offered, a Client
// user's staff URL lands on their reports, and axe-core finds nothing serious or critical.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { apiClient, createSignedInUser, TEST_ADMIN, type TestUser } from '@ledgerline/server/portal-harness.ts';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

const require = createRequire(import.meta.url);
const suffix = uniqueSuffix();
const firm = { name: 'Harbor & Pine', shortName: `harbor${suffix}` };
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

/** The firm's roles, and the platform administrator (the admin console). */
type Role = 'Admin' | 'CPA' | 'Client' | 'Platform';
/** [path under /{firm}, top-bar title] of each role's main pages. */
const STAFF_PAGES: readonly (readonly [string, string])[] = [
  ['/dashboard', 'Dashboard'],
  ['/cpa-dashboard', 'Reports'],
  ['/clients', 'Clients'],
  ['/users', 'Users'],
  ['/roles', 'Roles'],
  ['/report-types', 'Report Types'],
  ['/firm-documents', 'Firm Documents'],
  ['/firm-details', 'Firm Details'],
  ['/settings', 'Settings'],
  ['/tasks', 'Tasks'],
  ['/prompt-templates', 'Prompt Templates'],
  ['/compliance', 'Compliance'],
  ['/compliance-insights', 'AI Insights'],
  ['/messages', 'Messages'],
  ['/requests', 'Requests'],
];
const PAGES: Record<Role, readonly (readonly [string, string])[]> = {
  Admin: STAFF_PAGES,
  CPA: STAFF_PAGES,
  Client: [
    ['/dashboard', 'Dashboard'],
    ['/client-reports', 'Client Reports'],
    ['/compliance', 'Compliance'],
    ['/messages', 'Messages'],
    ['/requests', 'Requests'],
  ],
  Platform: [
    ['/admin/dashboard', 'Admin Dashboard'],
    ['/admin/tenants', 'Tenant Management'],
  ],
};

describe('day one in Chromium, per role, on a phone and a desktop', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let axeSource: string;
  const sessions = {} as Record<Role, { token: string; user: object }>;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'account', 'admin', 'dashboard', 'directory', 'documents', 'tasks', 'chat', 'compliance', 'insights', 'messaging', 'requests']);
    baseUrl = portal.baseUrl;
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
    const call = apiClient(baseUrl);
    const created = await call('POST', '/api/companies', portal.adminToken, firm);
    if (created.status !== 201) throw new Error(`firm set-up failed: ${created.status}`);
    const client = await call<{ id: number }>('POST', `/api/${firm.shortName}/clients`, portal.adminToken, {
      name: 'Cleo Holdings', address: '1 Harbour Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'office@cleo.test', employeeCount: 4, startDate: '2024-01-02',
    });
    const roles = await call<{ id: number; name: string }[]>('GET', `/api/${firm.shortName}/roles`, portal.adminToken);
    const roleId = (name: string) => roles.body.find((role) => role.name === name)!.id;
    const users: Record<Exclude<Role, 'Platform'>, TestUser> = {
      Admin: { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: roleId('Admin'), clientIds: null, reportTypeIds: null },
      CPA: { username: `carl${suffix}`, fullName: 'Carl Price', roleId: roleId('CPA'), clientIds: [client.body.id], reportTypeIds: null },
      Client: { username: `cleo${suffix}`, fullName: 'Cleo Client', roleId: roleId('Client'), clientIds: [client.body.id], reportTypeIds: null },
    };
    for (const role of Object.keys(users) as (keyof typeof users)[]) {
      const { id, token } = await createSignedInUser(call, portal.adminToken, firm.shortName, users[role]);
      sessions[role] = { token, user: { id, role, username: users[role].username, fullName: users[role].fullName, commonRouting: role !== 'Admin' } };
    }
    const platform = await call<{ token: string; user: object }>('POST', '/api/admin/auth/login', null, TEST_ADMIN);
    sessions.Platform = { token: platform.body.token, user: { ...platform.body.user, commonRouting: false } };
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  async function signedIn(role: Role, viewport: (typeof VIEWPORTS)[number]): Promise<Page> {
    const page = await portal.browser.newPage(baseUrl);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const tenant = await apiClient(baseUrl)<{ id: number; name: string; shortName: string }>('GET', `/api/${firm.shortName}/info`);
    await setLocalStorage(page, { ...sessions[role], currentTenant: { ...tenant.body, isActive: true } });
    return page;
  }

  /** Opens the page and waits until its remote has rendered and its data has settled. */
  async function open(page: Page, path: string, title: string): Promise<void> {
    // The admin console's pages have no firm prefix.
    await page.goto(`${baseUrl}${path.startsWith('/admin/') ? '' : `/${firm.shortName}`}${path}`);
    await page.locator('.app-header__title', { hasText: title }).waitFor();
    await page.locator('.app-layout__content > *:not(.page-message)').first().waitFor();
    await page.waitForLoadState('networkidle');
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    // Through the debugger protocol: the portal's Content-Security-Policy forbids inline scripts.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations;
    });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  for (const role of ['Admin', 'CPA', 'Client', 'Platform'] as const) {
    for (const viewport of VIEWPORTS) {
      it(`${role} at ${viewport.width}×${viewport.height}: titles, no sideways scroll, no serious accessibility violations`, async () => {
        const page = await signedIn(role, viewport);
        // Collected over every page, so one run reports all of them.
        const problems: string[] = [];
        for (const [path, title] of PAGES[role]) {
          await open(page, path, title);
          const tabTitle = await page.title();
          if (tabTitle !== `${title} · ${firm.name} · Ledgerline`) problems.push(`${path}: tab title '${tabTitle}'`);
          const overflow = await sideways(page);
          if (overflow > 0) problems.push(`${path}: scrolls ${overflow} px sideways`);
          for (const violation of await seriousViolations(page)) problems.push(`${path}: ${violation}`);
          await portal.screenshot(page, `day-one-${role.toLowerCase()}-${viewport.name}${path.replaceAll('/', '-')}`);
        }
        expect(problems).toEqual([]);
        await page.close();
      }, 180_000);
    }
  }

  it("loads only the shell and the sign-in remote for the firm's login page, compressed", async () => {
    const page = await portal.browser.newPage(baseUrl);
    // Away from the page newPage opened (with another test's session, it may load a remote),
    // so none of its requests land among the login page's.
    await page.goto('about:blank');
    // A first visit: nothing from the browser's cache.
    await (await page.context().newCDPSession(page)).send('Network.setCacheDisabled', { cacheDisabled: true });
    const responses: { path: string; type: string; encoding: string | undefined; bytes: number; cache: string | undefined }[] = [];
    page.on('response', (response) => {
      const headers = response.headers();
      responses.push({
        path: new URL(response.url()).pathname,
        type: response.request().resourceType(),
        encoding: headers['content-encoding'],
        bytes: Number(headers['content-length'] ?? Infinity),
        cache: headers['cache-control'],
      });
    });
    await page.goto(`${baseUrl}/${firm.shortName}/login`);
    await page.locator('#login-username:enabled').waitFor();
    await page.waitForLoadState('networkidle');
    await expect(page.title()).resolves.toBe('Sign In · Ledgerline');

    const remotes = new Set(responses.map((r) => /^\/remotes\/([^/]+)\//.exec(r.path)?.[1]).filter(Boolean));
    expect([...remotes]).toEqual(['access']);
    const code = responses.filter((r) => r.type === 'script' || r.type === 'stylesheet');
    expect(code.length).toBeGreaterThan(5);
    // Chromium accepts brotli; every script and style sheet comes precompressed but the
    // smallest (under 1 KB, where compression saves less than it costs).
    expect(code.filter((r) => r.encoding !== 'br' && r.bytes >= 1024).map((r) => r.path)).toEqual([]);
    expect(code.filter((r) => r.encoding === 'br').length).toBeGreaterThan(10);
    const hashed = code.filter((r) => /\.[0-9a-f]{16}\.(js|css)$/.test(r.path));
    expect(hashed.length).toBeGreaterThan(0);
    expect(hashed.filter((r) => r.cache !== 'public, max-age=31536000, immutable').map((r) => r.path)).toEqual([]);
    await page.close();
  });

  it('opens the navigation drawer on a phone, navigates from it and closes it', async () => {
    const page = await signedIn('Admin', VIEWPORTS[0]);
    await open(page, '/dashboard', 'Dashboard');
    const nav = page.locator('nav.side-nav');
    await expect(nav.isVisible()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await nav.getByRole('link', { name: 'Users' }).waitFor();
    await portal.screenshot(page, 'day-one-admin-phone-drawer');
    await nav.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${baseUrl}/${firm.shortName}/users`);
    await page.locator('.app-header__title', { hasText: 'Users' }).waitFor();
    await nav.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Open navigation' }).click();
    await nav.getByRole('button', { name: 'Close navigation' }).waitFor();
    await page.keyboard.press('Escape');
    await nav.waitFor({ state: 'hidden' });
    await page.close();
  });

  it('shows the navigation beside the page on a desktop, without a menu button', async () => {
    const page = await signedIn('Admin', VIEWPORTS[1]);
    await open(page, '/dashboard', 'Dashboard');
    await expect(page.locator('nav.side-nav').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Open navigation' }).isVisible()).resolves.toBe(false);
    await page.close();
  });

  it('shows a dialog full screen on a phone', async () => {
    const page = await signedIn('Admin', VIEWPORTS[0]);
    await open(page, '/users', 'Users');
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('dialog').waitFor();
    // Once its opening animation (a scale transform) has run.
    await page.waitForFunction(() => document.querySelector('[role=dialog]')?.getAnimations({ subtree: true }).length === 0);
    const box = await page.getByRole('dialog').boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    await portal.screenshot(page, 'day-one-admin-phone-dialog');
    await page.close();
  });

  it('closes only an open dropdown on Escape, and asks before a dialog with typed input is discarded', async () => {
    const page = await signedIn('Admin', VIEWPORTS[1]);
    await open(page, '/users', 'Users');
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.p-dropdown', { has: page.locator('#user-role') }).click();
    const panel = page.locator('.p-dropdown-panel');
    await panel.waitFor();
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expect(dialog.isVisible()).resolves.toBe(true);

    // Typed input is not thrown away without asking.
    await dialog.locator('#user-full-name').fill('Half Typed');
    await page.keyboard.press('Escape');
    const question = page.getByRole('alertdialog').or(page.locator('.p-confirm-dialog'));
    await question.getByText('What you entered in this form has not been saved.').waitFor();
    await question.getByRole('button', { name: 'Keep Editing' }).click();
    await expect(dialog.locator('#user-full-name').inputValue()).resolves.toBe('Half Typed');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await question.getByRole('button', { name: 'Discard' }).click();
    await page.locator('#user-full-name').waitFor({ state: 'detached' });
    await page.close();
  });

  it('offers an Admin no Edit or Delete of the built-in Admin and Client roles', async () => {
    const page = await signedIn('Admin', VIEWPORTS[1]);
    await open(page, '/roles', 'Roles');
    await portal.screenshot(page, 'day-one-admin-desktop-roles');
    const row = (name: string) => page.locator('.p-datatable-tbody tr', { has: page.getByRole('cell', { name, exact: true }) });
    await row('CPA').getByRole('button', { name: 'Edit CPA' }).waitFor();
    for (const builtIn of ['Admin', 'Client']) await expect(row(builtIn).getByRole('button').count()).resolves.toBe(0);
    await page.close();
  });

  it("offers a CPA none of the firm administration the server refuses them", async () => {
    const page = await signedIn('CPA', VIEWPORTS[1]);
    const refused: [string, string, string][] = [
      ['/users', 'Users', 'Add User'],
      ['/roles', 'Roles', 'Add Role'],
      ['/report-types', 'Report Types', 'Add Report Type'],
      ['/settings', 'Settings', 'Save Settings'],
    ];
    for (const [path, title, button] of refused) {
      await open(page, path, title);
      await expect(page.getByRole('button', { name: button }).count()).resolves.toBe(0);
      await expect(page.locator('.p-datatable-tbody').getByRole('button', { name: /^(Edit|Delete) / }).count()).resolves.toBe(0);
    }
    await page.close();
  });

  it("takes a Client user who types a staff URL to their own reports", async () => {
    const page = await signedIn('Client', VIEWPORTS[1]);
    for (const path of ['/cpa-dashboard', '/settings', '/firm-documents']) {
      // The admin console's pages have no firm prefix.
    await page.goto(`${baseUrl}${path.startsWith('/admin/') ? '' : `/${firm.shortName}`}${path}`);
      await page.waitForURL(`${baseUrl}/${firm.shortName}/client-reports`);
      await page.locator('.app-header__title', { hasText: 'Client Reports' }).waitFor();
    }
    await page.close();
  });
});
