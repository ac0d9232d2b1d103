import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { CDPSession, Page } from 'playwright-core';
import { apiClient, TEST_ADMIN } from '@ledgerline/server/portal-harness.ts';
import { freePort } from '@ledgerline/kit/testing/free-port.ts';
import { expectToast, signOut, startPortalBrowser, submitLogin, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/**
 * Passkeys in Chromium, with its virtual authenticator (CDP WebAuthn domain: a platform
 * authenticator with resident keys and the user verified): a CPA adds a passkey in
 * Security, signs in with it alone on the firm's page, uses it as the second step after the
 * password, and removes it; where the firm requires a second factor, an unenrolled CPA sets up
 * a passkey instead of an authenticator app at sign-in; the generic sign-in page finds the firm
 * of the passkey offered, and the platform administrator signs in with one on their own page. The portal's public URL is the page's origin: passkeys are
 * bound to its host (localhost: a secure context without TLS).
 */
const suffix = uniqueSuffix();
const firm = { name: `Passkey Tax ${suffix}`, shortName: `passkey${suffix}` };
const PASSWORD = 'password1';
const cpa = { username: `paula${suffix}`, fullName: 'Paula Key', roleId: 3 };
const admin = { username: `adam${suffix}`, fullName: 'Adam Admin', roleId: 1 };
const newcomer = { username: `nina${suffix}`, fullName: 'Nina New', roleId: 3 };

describe('passkeys in Chromium', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let page: Page;
  let cdp: CDPSession;
  let authenticatorId = '';
  let cpaCredentialId = '';

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://localhost:${port}`;
    portal = await startPortalBrowser(['shell', 'access', 'account', 'directory'], { KEYCLOAK_URL: '', PORT: String(port), PUBLIC_BASE_URL: baseUrl });
    const call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    for (const person of [cpa, admin, newcomer]) {
      expect((await call('POST', `/api/${firm.shortName}/users`, portal.adminToken, { ...person, password: PASSWORD, clientIds: [], reportTypeIds: [] })).status).toBe(201);
    }
    page = await portal.browser.newPage(baseUrl);
    cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable', { enableUI: false });
    ({ authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    }));
  }, 1_200_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** Waits for the dashboard; a passkey error the page shows instead fails at once with its text. */
  const reachDashboard = async () => {
    const message = page.locator('.passkey-sign-in .p-inline-message, .mfa-step__passkey-form .p-inline-message');
    const refused = message.waitFor().then(async () => { throw new Error(`refused: ${await message.textContent()}`); });
    await Promise.race([page.waitForURL(`**/${firm.shortName}/dashboard`), refused]);
    refused.catch(() => undefined);
  };
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;

  it('a CPA adds a passkey in Security', async () => {
    await page.goto(`${baseUrl}/${firm.shortName}/login`);
    await submitLogin(page, cpa.username, PASSWORD);
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await page.goto(`${baseUrl}/${firm.shortName}/account-settings`);
    await page.getByTestId('passkeys').getByText('No passkeys yet').waitFor();
    await page.locator('#passkey-name').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expectToast(page, 'Passkey added', '"Work laptop" can now sign you in.');
    await page.getByTestId('passkeys').getByText('Work laptop').waitFor();
    const stored = await credentials();
    expect(stored).toHaveLength(1);
    // Discoverable: it can sign in without a username.
    expect(stored[0]!.isResidentCredential).toBe(true);
    expect(stored[0]!.rpId).toBe('localhost');
    cpaCredentialId = stored[0]!.credentialId;
    await page.setViewportSize({ width: 390, height: 900 });
    const section = page.locator('section[aria-labelledby="security-passkeys"]');
    await section.scrollIntoViewIfNeeded();
    await portal.screenshot(page, 'passkeys-security-phone');
    // The passkeys' table and form fit a phone's width.
    expect(await section.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('signs in with the passkey alone on the firm\'s page', async () => {
    await signOut(page);
    await page.goto(`${baseUrl}/${firm.shortName}/login`);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await portal.screenshot(page, 'passkeys-sign-in-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await reachDashboard();
    await expectToast(page, 'Login Successful');
    expect((await credentials())[0]!.signCount).toBeGreaterThan(0);
  });

  it('after the password, the passkey is the second step', async () => {
    await signOut(page);
    await page.goto(`${baseUrl}/${firm.shortName}/login`);
    await submitLogin(page, cpa.username, PASSWORD);
    await page.getByText('Use the passkey on this device, your phone or your security key.').waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await reachDashboard();
    await expectToast(page, 'Login Successful');
  });

  it('an Admin sees the passkey among the CPA\'s second factors, with a reset', async () => {
    await signOut(page);
    await submitLogin(page, admin.username, PASSWORD);
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await page.goto(`${baseUrl}/${firm.shortName}/settings`);
    await page.getByRole('tab', { name: 'Security' }).click();
    const row = page.getByTestId('user-factors').locator('tr', { hasText: cpa.username });
    await row.getByRole('button', { name: `Reset second factors of ${cpa.username}` }).waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([`${cpa.fullName} (${cpa.username})`, 'CPA', 'Off', '0', '1', 'Reset']);
    await page.getByTestId('security-events').getByText('Second factor added').first().waitFor();
    await signOut(page);
  });

  it('removes the passkey in Security; the password alone signs in again', async () => {
    await submitLogin(page, cpa.username, PASSWORD);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await reachDashboard();
    await page.goto(`${baseUrl}/${firm.shortName}/account-settings`);
    await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
    await page.getByTestId('passkeys').getByText('No passkeys yet').waitFor();
    await signOut(page);
    await submitLogin(page, cpa.username, PASSWORD);
    await page.waitForURL(`**/${firm.shortName}/dashboard`);
    await signOut(page);
  });

  it('where the firm requires a second factor, an unenrolled CPA sets up a passkey instead of an authenticator app', async () => {
    const call = apiClient(portal.baseUrl);
    const adminLogin = await call<{ token: string }>('POST', `/api/${firm.shortName}/auth/login`, null, { username: admin.username, password: PASSWORD });
    const policy = { requireMfaForStaff: true, requireMfaForClients: false, allowEmailCodeForStaff: false, allowEmailCodeForClients: true, clientEmailSignIn: true };
    expect((await call('PUT', `/api/${firm.shortName}/security-settings`, adminLogin.body.token, policy)).status).toBe(200);
    await submitLogin(page, newcomer.username, PASSWORD);
    await page.getByText('Set up an authenticator app to continue.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.locator('#setup-passkey-name').fill('Office PC');
    await page.setViewportSize({ width: 390, height: 844 });
    await portal.screenshot(page, 'passkeys-setup-step-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Add the passkey and continue' }).click();
    await reachDashboard();
    await expectToast(page, 'Login Successful');
    // The device holds the new passkey beside the CPA's (removed on the server, still on the device).
    expect(await credentials()).toHaveLength(2);
    // The next sign-in asks for the passkey after the password.
    await signOut(page);
    await submitLogin(page, newcomer.username, PASSWORD);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await reachDashboard();
  });
  it('on the generic sign-in page, the passkey alone finds its firm', async () => {
    // The device keeps the CPA's passkey removed on the server: only the one still registered is offered.
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: cpaCredentialId });
    await signOut(page);
    await page.goto(`${baseUrl}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await portal.screenshot(page, 'passkeys-generic-sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    // Where the generic page's password sign-in goes too, signed in as the passkey's owner.
    await page.waitForURL(`${baseUrl}/`);
    await page.locator('.app-header').getByText(newcomer.fullName).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('currentTenant') ?? 'null')?.shortName)).toBe(firm.shortName);
  });

  it('the platform administrator adds a passkey and signs in with it alone on the administrator\'s page', async () => {
    await signOut(page);
    await cdp.send('WebAuthn.clearCredentials', { authenticatorId });
    await page.goto(`${baseUrl}/admin/login`);
    await submitLogin(page, TEST_ADMIN.username, TEST_ADMIN.password, 'Sign In as Administrator');
    await page.waitForURL('**/admin/dashboard');
    await page.goto(`${baseUrl}/account-settings`);
    await page.locator('#passkey-name').fill('Admin laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expectToast(page, 'Passkey added', '"Admin laptop" can now sign you in.');
    expect(await credentials()).toHaveLength(1);
    await signOut(page);
    await page.goto(`${baseUrl}/admin/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await portal.screenshot(page, 'passkeys-admin-sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/admin/dashboard');
    await expectToast(page, 'Admin Access Granted');
  });
});
