import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';
import { mailpit } from '@ledgerline/kit/testing/mailpit.ts';
import { launchBrowser } from '@ledgerline/kit/testing/browser.ts';
import { expectToast, signInAtFirm, signOut, startPortalBrowser, submitLogin, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/**
 * Issue 26 in Chromium: a CPA sets up an authenticator in Security (the code computed here
 * from the key the page shows), signs in with password and code, uses a recovery code once;
 * an Admin requires a second factor for staff and an unenrolled CPA is walked through setup.
 * The built-in issuer: Keycloak firms keep their factors in the realm.
 */
const suffix = uniqueSuffix();
const firm = { name: `Secure Tax ${suffix}`, shortName: `secure${suffix}` };
const PASSWORD = 'password1';
const STEP_MS = 30_000;
const mail = mailpit();
const clientEmail = `cleo-${suffix}@example.test`;
const people = {
  admin: { username: `ann${suffix}`, fullName: 'Ann Admin', roleId: 1 },
  cpa: { username: `carl${suffix}`, fullName: 'Carl Price', roleId: 3 },
  newcomer: { username: `dana${suffix}`, fullName: 'Dana New', roleId: 3 },
  client: { username: `cleo${suffix}`, fullName: 'Cleo Client', roleId: 4, email: clientEmail },
};

describe('second factors in Chromium', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let page: Page;
  let secret = '';
  let recoveryCodes: string[] = [];

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'account', 'directory'], { KEYCLOAK_URL: '', SCHEDULER_POLL_MS: '200', ...(mail ? { SMTP_URL: mail.smtpUrl } : {}) });
    baseUrl = portal.baseUrl;
    const call = apiClient(baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    for (const p of Object.values(people)) {
      expect((await call('POST', `/api/${firm.shortName}/users`, portal.adminToken, { ...p, password: PASSWORD, clientIds: [], reportTypeIds: [] })).status).toBe(201);
    }
    page = await portal.browser.newPage(baseUrl);
  }, 1_200_000);

  afterAll(async () => {
    await portal?.close();
  });

  const signIn = (who: { username: string }) => signInAtFirm(page, baseUrl, firm.shortName, who.username, PASSWORD);
  const shownSecret = async () => (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');

  it('a CPA sets up an authenticator in Security and keeps the recovery codes', async () => {
    await signIn(people.cpa);
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await page.goto(`${baseUrl}/${firm.shortName}/account-settings`);
    await page.getByTestId('totp-status').getByText('Off.').waitFor();
    await page.getByRole('button', { name: 'Set up authenticator' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    secret = await shownSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.locator('#mfa-code').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The code is not valid. Please try again.').waitFor();
    await page.locator('#mfa-code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    recoveryCodes = (await page.getByTestId('recovery-codes').locator('code').allTextContents());
    expect(recoveryCodes).toHaveLength(10);
    await expect(page.getByRole('button', { name: 'Done' }).isDisabled()).resolves.toBe(true);
    await portal.screenshot(page, 'sign-in-security-recovery-codes');
    await page.getByText('I saved them').click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('totp-status').getByText('On: sign-in asks for a code from your authenticator app.').waitFor();
    await page.getByText('Recovery codes left: 10').waitFor();
    await page.getByTestId('sign-ins').getByText('Signed in').first().waitFor();
  });

  it('signs out, then signs in with password and authenticator code', async () => {
    await signOut(page);
    await signIn(people.cpa);
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    await page.setViewportSize({ width: 390, height: 800 });
    await portal.screenshot(page, 'sign-in-security-code-step-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('#mfa-code').fill('123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not valid. Please try again.').waitFor();
    // The step after the one the setup used: accepted now, never used before.
    await page.locator('#mfa-code').fill(totpCode(secret, Date.now() + STEP_MS));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await expectToast(page, 'Login Successful');
  });

  it('a recovery code signs in once; the second use fails', async () => {
    await signOut(page);
    await signIn(people.cpa);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.locator('#mfa-code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await signOut(page);
    await signIn(people.cpa);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.locator('#mfa-code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('The code is not valid. Please try again.').waitFor();
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await page.locator('#login-username').waitFor();
  });

  it('an Admin requires a second factor for staff in Settings → Security', async () => {
    await signIn(people.admin);
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await page.goto(`${baseUrl}/${firm.shortName}/settings`);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByTestId('user-factors').getByText(people.cpa.username).waitFor();
    await page.getByText('Require a second factor for staff (Admin, DTA, CPA and custom roles)').click();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await expectToast(page, 'Saved', 'Sign-in policy updated.');
    // The kind in words, with the Admin who changed the policy as its user.
    const change = page.getByTestId('security-events').locator('tbody tr', { hasText: 'Sign-in policy changed' });
    await change.first().waitFor();
    await expect(change.first().textContent()).resolves.toContain(people.admin.username);
    await expect(page.getByTestId('security-events').getByText('policy-changed', { exact: true }).count()).resolves.toBe(0);
    for (const viewport of [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1440, height: 900 }]) {
      await page.setViewportSize(viewport);
      await page.getByTestId('security-events').scrollIntoViewIfNeeded();
      await portal.screenshot(page, `sign-in-security-events-${viewport.name}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await portal.screenshot(page, 'sign-in-security-settings-tab');
    await signOut(page);
  });

  it('an unenrolled CPA is walked through setup at the next sign-in', async () => {
    await signIn(people.newcomer);
    await page.getByText('Your firm requires a second step at sign-in. Set up an authenticator app to continue.').waitFor();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await page.setViewportSize({ width: 390, height: 900 });
    await portal.screenshot(page, 'sign-in-security-setup-step-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('#mfa-code').fill(totpCode(await shownSecret()));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByText('I saved them').click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await expectToast(page, 'Login Successful');
    await signOut(page);
  });

  // The code is read from the real SMTP server (Mailpit); outside CI without MAILPIT_URL this step does not run.
  if (mail) it('a Client user signs in with a code e-mailed to them', async () => {
    await page.goto(`${baseUrl}/${firm.shortName}/login`);
    await page.getByRole('button', { name: 'E-mail me a sign-in code' }).click();
    await page.locator('#sign-in-email').fill(clientEmail);
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    await page.getByText('If this address belongs to a client of the firm, a sign-in code is on its way.', { exact: false }).waitFor();
    const received = await mail.waitForMail(clientEmail);
    expect(received.From.Name).toBe(`${firm.name} via Ledgerline`);
    await page.locator('#mfa-code').fill(/^(\d{6}) /.exec(received.Subject)![1]!);
    await page.setViewportSize({ width: 390, height: 800 });
    await portal.screenshot(page, 'sign-in-security-email-code-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expectToast(page, 'Login Successful');
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
  });

  it('sign out everywhere ends the session of a second browser', async () => {
    // A second Chromium (its own profile: another device), signed in as the same client.
    const second = await launchBrowser();
    try {
      const otherPage = await second.newPage(baseUrl);
      await otherPage.goto(`${baseUrl}/${firm.shortName}/login`);
      await submitLogin(otherPage, people.client.username, PASSWORD);
      await otherPage.waitForURL((url) => !url.pathname.endsWith('/login'));
      const otherToken = await otherPage.evaluate(() => localStorage.getItem('token'));
      expect(otherToken).toEqual(expect.any(String));
      await signOutEverywhere();
      // The other browser's token is refused: its next page says the session has ended.
      expect((await apiClient(baseUrl)('GET', `/api/${firm.shortName}/auth/me`, otherToken)).status).toBe(401);
      await otherPage.goto(`${baseUrl}/${firm.shortName}/account-settings`);
      // Its first refused call sends it to the sign-in page, which says why once.
      await otherPage.waitForURL((url) => url.pathname === `/${firm.shortName}/login`);
      await otherPage.locator('.login-card__notice').getByText('Your session has ended. Please sign in again.').waitFor();
      await expect(otherPage.getByText('Your session has ended', { exact: false }).count()).resolves.toBe(1);
      await expect(otherPage.evaluate(() => localStorage.getItem('token'))).resolves.toBeNull();
    } finally {
      await second.close();
    }
  });

  it('another tab of the same browser follows to the sign-in page once, with one message', async () => {
    for (const viewport of [{ width: 390, height: 844, name: 'phone' }, { width: 1440, height: 900, name: 'desktop' }]) {
      const otherTab = await page.context().newPage();
      try {
        await otherTab.setViewportSize(viewport);
        await signOutEverywhere(async () => {
          // The other tab on the client's home, where several screens ask the server.
          await otherTab.goto(`${baseUrl}/${firm.shortName}/dashboard`);
          await otherTab.locator('.page-heading').first().waitFor();
        });
        await otherTab.waitForURL((url) => url.pathname === `/${firm.shortName}/login`);
        const notice = otherTab.locator('.login-card__notice');
        await notice.getByText('Your session has ended. Please sign in again.').waitFor();
        await expect(otherTab.getByText('Your session has ended', { exact: false }).count()).resolves.toBe(1);
        // The notice is said once: the address no longer asks for it, and a reload does not repeat it.
        expect(new URL(otherTab.url()).search).toBe('');
        await portal.screenshot(otherTab, `sign-out-everywhere-other-tab-${viewport.name}`);
        await otherTab.reload();
        await otherTab.locator('#login-username').waitFor();
        await expect(otherTab.locator('.login-card__notice').count()).resolves.toBe(0);
      } finally {
        await otherTab.close();
      }
    }
  });

  /** Signs the client in on the first browser and signs out everywhere from Security; `beforeSignOut` runs while signed in. */
  const signOutEverywhere = async (beforeSignOut?: () => Promise<void>) => {
    // Signed out of what the step before may have left signed in, then in with the password.
    await page.goto(baseUrl);
    await page.evaluate(() => localStorage.clear());
    await signIn(people.client);
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    await page.goto(`${baseUrl}/${firm.shortName}/account-settings`);
    await page.getByTestId('sessions').getByText('(this one)').waitFor();
    // Another device's session beside this one (a tab of this browser shares this one).
    if (!beforeSignOut) expect(await page.getByTestId('sessions').locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
    // On a phone the tables fit: the page does not scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('sign-ins').locator('tbody tr').first().waitFor();
    // The navigation becomes a drawer that slides away on a phone.
    await page.locator('.side-nav').waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await portal.screenshot(page, 'sign-in-security-sessions-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await beforeSignOut?.();
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/login'));
  };
});
