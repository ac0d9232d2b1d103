import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { addFirmUser, expectToast, openAs, startPortalBrowser, submitLogin, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * Issue 40: an Admin invites a Client user from the Users page; the link in the e-mail (read
 * from Mailpit in CI, else from the log mailer) opens the set-password page; the person sets a
 * password and signs in. At a phone's width and a desktop's.
 */
const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1440, height: 900 }] as const;
const mail = testMailbox();
const suffix = uniqueSuffix();
const firm = { name: `Invite Tax ${suffix}`, shortName: `invite${suffix}` };

describe('an invitation from the Users page to a signed-in Client user', () => {
  let portal: PortalBrowser;
  let admin: Awaited<ReturnType<typeof addFirmUser>>;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access'], { ...mail.env, SCHEDULER_POLL_MS: '100' }, { logger: mail.logger });
    const created = await apiClient(portal.baseUrl)('POST', '/api/companies', portal.adminToken, firm);
    if (created.status !== 201) throw new Error(`tenant set-up failed: ${created.status}`);
    admin = await addFirmUser(portal, firm.shortName, { username: `boss${suffix}`, fullName: 'Bea Boss', roleId: 1, clientIds: null });
  }, 300_000);
  afterAll(async () => { await portal?.close(); });

  for (const viewport of VIEWPORTS) {
    it(`at ${viewport.width} px`, async () => {
      const person = { fullName: `Ivy Client ${viewport.width}`, username: `ivy${viewport.width}${suffix}`, email: `ivy-${viewport.width}-${suffix}@example.test` };
      const page = await openAs(portal, portal.baseUrl, admin.login, `/${firm.shortName}/users`);
      await page.setViewportSize(viewport);
      await page.getByRole('button', { name: 'Add User' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.locator('#user-full-name').fill(person.fullName);
      await dialog.locator('#user-username').fill(person.username);
      await dialog.locator('#user-email').fill(person.email);
      await dialog.locator('label[for="user-invite"]').click();
      await expect(dialog.locator('#user-password').count()).resolves.toBe(0);
      await dialog.locator('.p-dropdown', { has: page.locator('#user-role') }).click();
      await page.getByRole('option', { name: 'Client', exact: true }).click();
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await expectToast(page, 'Success', 'User created; the invitation is on its way.');
      const row = page.locator('.p-datatable-tbody tr', { hasText: person.username });
      await row.getByText(/^Invited/).waitFor();
      await portal.screenshot(page, `invitation-users-${viewport.width}`);

      const received = await mail.waitForMail(person.email);
      expect(received.Subject).toBe(`${firm.name} invites you to its portal`);
      const link = new URL(/https?:\/\/\S+\/invitation\?token=\S+/.exec(received.Text)![0]);
      // The invited person, in a browser of their own (another origin: no stored sign-in).
      const origin = portal.baseUrl.replace('127.0.0.1', 'localhost');
      const invited = await portal.browser.newPage(origin);
      await invited.setViewportSize(viewport);
      await invited.goto(`${origin}${link.pathname}${link.search}`);
      await invited.getByRole('heading', { name: `Welcome, ${person.fullName}` }).waitFor();
      await invited.getByText(person.username, { exact: true }).waitFor();
      await invited.locator('#invitation-password').fill('ivy-secret-1');
      await invited.locator('#invitation-repeat').fill('ivy-secret-2');
      await invited.getByRole('button', { name: 'Set password' }).click();
      await invited.getByText('The passwords do not match').waitFor();
      await invited.locator('#invitation-repeat').fill('ivy-secret-1');
      await invited.getByRole('button', { name: 'Set password' }).click();
      await invited.getByText('Your password is set. Sign in with your username and password.').waitFor();
      expect(await invited.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await portal.screenshot(invited, `invitation-set-password-${viewport.width}`);

      await invited.getByRole('link', { name: 'Sign in' }).click();
      await invited.waitForURL((url) => url.pathname === `/${firm.shortName}/login`);
      await submitLogin(invited, person.username, 'ivy-secret-1');
      await invited.waitForURL((url) => !url.pathname.endsWith('/login'));
      await invited.locator('.app-header__logout').waitFor();
      // The link worked once.
      await invited.goto(`${origin}${link.pathname}${link.search}`);
      await invited.getByText('This invitation is not valid any more. Ask the firm for a new one.').waitFor();

      await page.reload();
      await row.getByText('Active').waitFor();
      await page.close();
      await invited.close();
    }, 120_000);
  }
});
