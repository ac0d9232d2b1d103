import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { expectToast, signInAtFirm, signOut, startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/**
 * A firm on Keycloak (KEYCLOAK_URL; CI sets it) in Chromium: an Admin requires a second factor
 * for staff in Settings → Security, and an unenrolled CPA is walked through the setup on the
 * firm's own sign-in page (an authenticator app only, no recovery codes: the realm keeps it),
 * then signs in with password and code.
 */
const keycloakUrl = realServerUrl('KEYCLOAK_URL');
const describeOnKeycloak = keycloakUrl ? describe : describe.skip;
const suffix = uniqueSuffix();
const firm = { name: `Realm Tax ${suffix}`, shortName: `realm${suffix}` };
const PASSWORD = 'password1';
const STEP_MS = 30_000;
const admin = { username: `rita${suffix}`, fullName: 'Rita Admin', roleId: 1 };
const newcomer = { username: `ravi${suffix}`, fullName: 'Ravi New', roleId: 3 };

describeOnKeycloak('second factors of a firm on Keycloak, in Chromium', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let page: Page;
  let secret = '';

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'account', 'directory']);
    baseUrl = portal.baseUrl;
    const call = apiClient(baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    for (const person of [admin, newcomer]) {
      expect((await call('POST', `/api/${firm.shortName}/users`, portal.adminToken, { ...person, password: PASSWORD, clientIds: [], reportTypeIds: [] })).status).toBe(201);
    }
    page = await portal.browser.newPage(baseUrl);
  }, 1_200_000);

  afterAll(async () => {
    await portal?.close();
  });

  const signIn = (who: { username: string }) => signInAtFirm(page, baseUrl, firm.shortName, who.username, PASSWORD);

  it('an Admin requires a second factor for staff in Settings → Security', async () => {
    await signIn(admin);
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await page.goto(`${baseUrl}/${firm.shortName}/settings`);
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByTestId('user-factors').getByText(newcomer.username).waitFor();
    await page.getByText('Require a second factor for staff (Admin, DTA, CPA and custom roles)').click();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await expectToast(page, 'Saved', 'Sign-in policy updated.');
    await signOut(page);
  });

  it('an unenrolled CPA sets up an authenticator app at sign-in and goes straight on: the realm keeps it, with no recovery codes', async () => {
    await signIn(newcomer);
    await page.getByText('Your firm requires a second step at sign-in. Set up an authenticator app to continue.').waitFor();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    // The realm takes an authenticator app: no passkey is offered instead.
    expect(await page.getByRole('button', { name: 'Use a passkey instead' }).count()).toBe(0);
    await portal.screenshot(page, 'keycloak-setup-step');
    secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
    await page.locator('#mfa-code').fill('000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The code is not valid. Please try again.').waitFor();
    await page.locator('#mfa-code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await expectToast(page, 'Login Successful');
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);
    // Security sends them to the realm's account console for their factors.
    await page.goto(`${baseUrl}/${firm.shortName}/account-settings`);
    await page.getByRole('link', { name: 'Open your Keycloak account' }).waitFor();
    await signOut(page);
  });

  it('the next sign-in asks for the authenticator\'s code, which the realm checks', async () => {
    await signIn(newcomer);
    await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
    // A later code than the setup's: the realm takes each code once.
    await page.locator('#mfa-code').fill(totpCode(secret, Date.now() + STEP_MS));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await expectToast(page, 'Login Successful');
  });
});
