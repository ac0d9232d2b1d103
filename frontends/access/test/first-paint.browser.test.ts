// A firm's sign-in page in the gateway's first HTML (gateway/src/sign-in-page.ts) and the app
// taking it over (ui/first-paint.ts): the firm's name and the form paint before any script,
// the app's form lands on the same boxes (no layout shift), and what was typed, where the
// cursor was and a form sent before the app ran all carry over.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Route } from 'playwright-core';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const suffix = uniqueSuffix();
const firm = { name: 'Harbor Light Accounting', shortName: `harborlight${suffix}` };
const user = { username: `lena${suffix}`, password: 'password1' };
const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1440, height: 900 }] as const;

/** The same parts of the first-paint page and of the app's, by their selectors in each. */
const PARTS: readonly (readonly [string, string, string])[] = [
  ['card', '#first-paint .login-card', '#root .login-card'],
  ['firm name', '#first-paint h1', '#root h1'],
  ['username', '#first-paint-username', '#login-username'],
  ['password', '#first-paint-password', '#login-password'],
  ['Sign In', '#first-paint button[type="submit"]', '#root button[type="submit"]'],
  ['passkey', '#first-paint .passkey-sign-in button', '#root .passkey-sign-in button'],
  ['e-mail code', '#first-paint .mfa-step__switch', '#root .mfa-step__switch'],
];

type Box = { x: number; y: number; width: number; height: number };
const boxOf = async (page: Page, selector: string): Promise<Box> => {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  return box;
};

describe("a firm's sign-in page before and after the app takes it over, in Chromium", () => {
  let portal: PortalBrowser;

  beforeAll(async () => {
    // The built-in issuer: a Keycloak firm's page offers neither passkeys nor e-mailed codes.
    portal = await startPortalBrowser(['shell', 'access', 'dashboard'], { KEYCLOAK_URL: '' });
    const call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    // Client users may ask for an e-mailed code: the page offers it, before and after.
    const settings = { requireMfaForStaff: false, requireMfaForClients: false, allowEmailCodeForStaff: false, allowEmailCodeForClients: false, clientEmailSignIn: true };
    expect((await call('PUT', `/api/${firm.shortName}/security-settings`, portal.adminToken, settings)).status).toBe(200);
    expect((await call('POST', `/api/${firm.shortName}/users`, portal.adminToken, { ...user, fullName: 'Lena Light', roleId: 1, clientIds: null })).status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** A new page on the firm's sign-in whose app scripts wait until `release` is called. */
  async function withAppHeld(): Promise<{ page: Page; release(): Promise<void> }> {
    const page = await portal.browser.newPage(portal.baseUrl);
    const held: Route[] = [];
    let holding = true;
    await page.route('**/main.js', (route) => (holding ? held.push(route) : route.continue()));
    // Not 'domcontentloaded': that waits for the deferred app script held here. The page paints without it.
    await page.goto(`${portal.baseUrl}/${firm.shortName}/login`, { waitUntil: 'commit' });
    await page.locator('#first-paint-form').waitFor();
    return {
      page,
      release: async () => {
        holding = false;
        await Promise.all(held.map((route) => route.continue()));
      },
    };
  }

  it("paints the firm's name and the form from the first HTML, and the app's form takes their places exactly", async () => {
    for (const viewport of VIEWPORTS) {
      const { page, release } = await withAppHeld();
      await page.setViewportSize(viewport);
      await page.locator('#first-paint h1', { hasText: firm.name }).waitFor();
      await expect(page.locator('#root').isVisible()).resolves.toBe(false);
      const before = Object.fromEntries(await Promise.all(PARTS.map(async ([name, standIn]) => [name, await boxOf(page, standIn)] as const)));
      // Layout shifts from here on, as Lighthouse counts them.
      await page.evaluate(() => {
        (window as unknown as { shifted: number }).shifted = 0;
        // Only from here on: the buffered entries include the shift of the viewport change above.
        const from = performance.now();
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput && entry.startTime >= from) (window as unknown as { shifted: number }).shifted += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });

      await release();
      await page.locator('#login-username').waitFor();
      await expect(page.locator('#first-paint').count()).resolves.toBe(0);
      for (const [name, , app] of PARTS) {
        const after = await boxOf(page, app);
        for (const side of ['x', 'y', 'width', 'height'] as const) {
          expect([name, side, Math.abs(after[side] - before[name]![side]) <= 1]).toEqual([name, side, true]);
        }
      }
      await expect(page.evaluate(() => (window as unknown as { shifted: number }).shifted)).resolves.toBeLessThan(0.01);
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('login-username');
      await page.close();
    }
  });

  it("starts the app's script at the visitor's first act, and at once for a visitor already signed in", async () => {
    const scriptsRequested = (page: Page) => page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname).filter((path) => path.endsWith('.js')));
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.goto(`${portal.baseUrl}/${firm.shortName}/login`, { waitUntil: 'load' });
    // Loaded, with no script of the app's asked for (it would start three seconds on, unprompted),
    // not even the libraries the shell's page preloads elsewhere.
    await expect(scriptsRequested(page)).resolves.toEqual([]);
    await page.mouse.move(40, 40);
    await page.locator('#login-username').waitFor();
    await expect(page.locator('#first-paint').count()).resolves.toBe(0);

    // Signed in: the app starts with the page (a started script holds the load event), and sends the visitor on.
    const login = await apiClient(portal.baseUrl)<FirmLogin>('POST', `/api/${firm.shortName}/auth/login`, null, user);
    expect(login.status).toBe(200);
    expect(login.body.tenant).toMatchObject({ shortName: firm.shortName });
    await setLocalStorage(page, { token: login.body.token, user: login.body.user, currentTenant: login.body.tenant });
    await page.goto(`${portal.baseUrl}/${firm.shortName}/login`, { waitUntil: 'load' });
    await expect(scriptsRequested(page)).resolves.toContain('/main.js');
    await page.waitForURL((url) => url.pathname !== `/${firm.shortName}/login`);
    await page.getByRole('heading', { name: 'Firm Dashboard', level: 2 }).waitFor();
    await page.close();
  });

  it('keeps what was typed and where the cursor was', async () => {
    const { page, release } = await withAppHeld();
    await page.locator('#first-paint-username').fill(user.username);
    await page.locator('#first-paint-password').fill('half-typ');
    await release();
    await page.locator('#login-username').waitFor();
    await expect(page.locator('#login-username').inputValue()).resolves.toBe(user.username);
    await expect(page.locator('#login-password').inputValue()).resolves.toBe('half-typ');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('login-password');
    await page.close();
  });

  it('signs in with a form sent before the app ran: held, then sent by the app', async () => {
    const { page, release } = await withAppHeld();
    await page.locator('#first-paint-username').fill(user.username);
    await page.locator('#first-paint-password').fill(user.password);
    await page.locator('#first-paint-password').press('Enter');
    // Held, not posted: the page stays, and says so.
    await page.locator('#first-paint button[type="submit"]', { hasText: 'Signing in...' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${firm.shortName}/login`);
    await release();
    await page.waitForURL(`${portal.baseUrl}/${firm.shortName}/dashboard`);
    await expect(page.evaluate(() => localStorage.getItem('token'))).resolves.toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await page.close();
  });

  it('a wrong password sent early is answered on the app\'s form', async () => {
    const { page, release } = await withAppHeld();
    await page.locator('#first-paint-username').fill(user.username);
    await page.locator('#first-paint-password').fill('not-the-password');
    await page.locator('#first-paint button[type="submit"]').click();
    await release();
    await page.locator('.login-form__banner').waitFor();
    await expect(page.locator('#login-password').inputValue()).resolves.toBe('not-the-password');
    expect(new URL(page.url()).pathname).toBe(`/${firm.shortName}/login`);
    await page.close();
  });

  it("'E-mail me a sign-in code' pressed before the app ran opens the e-mail form once it runs", async () => {
    const { page, release } = await withAppHeld();
    await page.locator('#first-paint .mfa-step__switch', { hasText: 'E-mail me a sign-in code' }).click();
    await page.locator('#first-paint[data-chosen="email"]').waitFor();
    await release();
    await page.locator('#sign-in-email').waitFor();
    await expect(page.locator('#first-paint').count()).resolves.toBe(0);
    await page.close();
  });
});
