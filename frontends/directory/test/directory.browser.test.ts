import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ensureFrontendsBuilt, launchBrowser, setLocalStorage, type TestBrowser } from '@ledgerline/kit/testing/browser.ts';
import { freePort } from '@ledgerline/kit/testing/free-port.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { startGoogleStandIn, type GoogleStandIn } from '../../../services/directory/test/support/google-stand-in.ts';

const frontendsDir = path.resolve(import.meta.dirname, '../..');
const screenshotDir = path.resolve(frontendsDir, '../test-results');
const TENANT = 'mehtaassoc';
const CLIENT_NAME = 'Mehta Exports';

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const toast = (page: Page, summary: string) => page.locator('.p-toast-message').filter({ hasText: summary });

describe('directory screens in Chromium', () => {
  let google: GoogleStandIn;
  let portal: Awaited<ReturnType<typeof startTestPortal>>;
  let browser: TestBrowser;
  let page: Page;
  let baseUrl: string;

  beforeAll(async () => {
    // Google sends the browser back to PUBLIC_BASE_URL, so the gateway needs a port known before it starts.
    const [port] = await Promise.all([freePort(), ensureFrontendsBuilt(frontendsDir, ['shell', 'directory'])]);
    google = await startGoogleStandIn();
    portal = await startTestPortal({
      ...google.env,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      TENANT_POLL_MS: '100',
      GATEWAY_TENANT_POLL_MS: '100',
    });
    baseUrl = portal.gatewayUrl;
    const call = apiClient(baseUrl);
    const firm = await call<{ id: number; name: string }>('POST', '/api/companies', portal.adminToken, { name: 'Mehta & Associates', shortName: TENANT });
    expect(firm.status).toBe(201);
    const admin = await call('POST', `/api/${TENANT}/users`, portal.adminToken, { username: 'priya', password: 'password1', fullName: 'Priya Mehta', roleId: 1 });
    expect(admin.status).toBe(201);
    const login = await call<{ token: string; user: object }>('POST', `/api/${TENANT}/auth/login`, null, { username: 'priya', password: 'password1' });
    expect(login.status).toBe(200);
    // The directory service learns about new firms from identity; wait until it serves this one.
    await until(async () => (await call('GET', `/api/${TENANT}/client-field-settings`, login.body.token)).status === 200, 'the directory service');

    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    page = await browser.newPage(baseUrl);
    await setLocalStorage(page, {
      token: login.body.token,
      user: login.body.user,
      currentTenant: { id: firm.body.id, name: firm.body.name, shortName: TENANT, isActive: true },
    });
    await mkdir(screenshotDir, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await portal?.stop();
    await google?.close();
  });

  const screenshot = (target: Page, name: string) => target.screenshot({ path: path.join(screenshotDir, `directory-${name}.png`) });
  const dropdown = (id: string) => page.locator(`.p-dropdown:has(#${id})`);
  const pick = async (id: string, option: string) => {
    await dropdown(id).click();
    await page.getByRole('option', { name: option }).click();
  };

  it('Settings: the Admin switches the client fields to Indian formats and saves them', async () => {
    await page.goto(`${baseUrl}/${TENANT}/settings`);
    const phoneLabel = page.locator('#settings-phoneLabel');
    await phoneLabel.waitFor();
    await phoneLabel.fill('');
    await page.getByText('Phone label is required').waitFor();
    await phoneLabel.fill('Mobile Number');
    await expect(page.getByText('Phone label is required').count()).resolves.toBe(0);

    await pick('settings-phoneCountry', 'India');
    // The country's preset overwrites pattern and example.
    await expect(page.locator('#settings-phonePattern').inputValue()).resolves.toBe('^\\+91\\d{10}$');
    await expect(page.locator('#settings-phoneExample').inputValue()).resolves.toBe('+919876543210');
    await page.locator('#settings-federalIdLabel').fill('PAN');
    await pick('settings-federalId-format', 'PAN — ABCDE1234F (India)');
    await page.locator('#settings-stateIdLabel').fill('GSTIN');
    await pick('settings-stateId-format', 'GSTIN — 15 characters (India)');
    await expect(page.locator('#settings-stateIdExample').inputValue()).resolves.toBe('22ABCDE1234F1Z5');

    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Client field settings saved successfully').waitFor();
    await screenshot(page, 'settings');
  });

  it("Settings: the Admin sets the firm's time zone, which the firm's info then answers", async () => {
    await page.goto(`${baseUrl}/${TENANT}/settings`);
    await page.getByRole('tab', { name: 'Firm' }).click();
    // The form shows 'Loading...' until the firm's zone is read.
    await dropdown('firm-time-zone').filter({ hasText: 'UTC' }).waitFor();
    await pick('firm-time-zone', 'Europe/London');
    await page.getByRole('button', { name: 'Save Time Zone' }).click();
    await toast(page, "The firm's time zone is now Europe/London").waitFor();
    const info = await apiClient(baseUrl)<{ timeZone: string }>('GET', `/api/${TENANT}/info`, null);
    expect(info.body.timeZone).toBe('Europe/London');
    await screenshot(page, 'settings-firm-time-zone');
  });

  it("Clients: the firm's rules reject bad input with the spec's messages, then a valid client is saved", async () => {
    await page.goto(`${baseUrl}/${TENANT}/clients`);
    await page.getByRole('heading', { name: 'Client Management', level: 2 }).waitFor();
    await page.getByText('No clients found. Add a client to get started.').waitFor();
    const headers = await page.locator('.p-datatable thead th').allTextContents();
    expect(headers).toEqual(['Client Name', 'Email', 'Mobile Number', 'PAN', 'Tax IDs', 'Employees', 'Start Date', 'Actions']);

    await page.getByRole('button', { name: 'Add Client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Client' });
    await dialog.waitFor();
    await page.locator('#client-name').fill('M');
    await page.locator('#client-address').fill('Road');
    await page.locator('#client-phone').fill('98765');
    await page.locator('#client-federalId').fill('abcpm12');
    await page.locator('#client-stateId').fill('27abc');
    await page.locator('#client-email').fill('not-an-email');
    // Identifiers are upper-cased while typing.
    await expect(page.locator('#client-federalId').inputValue()).resolves.toBe('ABCPM12');
    await dialog.getByRole('button', { name: 'Save Client' }).click();
    const messages = await dialog.locator('.form-field__error').allTextContents();
    expect(messages).toEqual([
      'Name must be at least 2 characters',
      'Invalid email address',
      'Address must be at least 5 characters',
      'Mobile Number must be a valid Indian mobile number. Examples: +919876543210',
      'PAN must be a valid PAN number (5 letters + 4 numbers + 1 letter). Example: ABCDE1234F',
      'GSTIN must be a valid 15-digit GST number. Example: 22ABCDE1234F1Z5',
    ]);
    await screenshot(page, 'client-form-errors');

    await page.locator('#client-name').fill(CLIENT_NAME);
    await page.locator('#client-address').fill('14 Marine Drive, Mumbai 400020');
    await page.locator('#client-phone').fill('+919876543210');
    await page.locator('#client-federalId').fill('abcpm1234k');
    await page.locator('#client-stateId').fill('27abcpm1234k1z5');
    await page.locator('#client-email').fill('accounts@mehtaexports.in');
    await page.locator('#client-employees').fill('25');
    await pick('client-destination', 'Google Drive');
    // Where it files and as what: the jurisdiction left to the firm's country (India, its phone country).
    await pick('client-entity-type', 'Company');
    // Issue 39: its State among India's, its registrations among those India has; the year end left to India's 31 Mar.
    await expect(dropdown('client-fiscal-year-end').locator('.p-dropdown-label').textContent()).resolves.toBe('Default: 31 Mar');
    await dropdown('client-state').click();
    await page.locator('.p-dropdown-filter').fill('Mahar');
    await page.getByRole('option', { name: 'Maharashtra (IN-MH)' }).click();
    await page.locator('.p-multiselect:has(#client-registrations)').click();
    const offered = await page.locator('.p-multiselect-panel li[role="option"]').allTextContents();
    expect(offered).toEqual(['GST (India)', 'GST, monthly returns (India)', 'GST, quarterly QRMP (India)', 'TDS deductor (India)']);
    await page.getByRole('option', { name: 'GST, monthly returns (India)' }).click();
    await page.getByRole('option', { name: 'TDS deductor (India)' }).click();
    await dialog.locator('.p-dialog-title').click();
    await dialog.locator('#client-registrations').scrollIntoViewIfNeeded();
    await screenshot(page, 'client-form-calendar-fields');
    // Fixed values clear their messages live, before saving.
    await expect(dialog.locator('.form-field__error').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Save Client' }).click();
    await toast(page, 'Client created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.locator('.p-datatable tbody tr').filter({ hasText: CLIENT_NAME });
    await row.waitFor();
    const today = new Date().toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(1, 7)).toEqual(['accounts@mehtaexports.in', '+919876543210', 'ABCPM1234K', '', '25', today]);
    const saved = await page.evaluate(async (tenant) => {
      const r = await fetch(`/api/${tenant}/clients`, { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
      return (await r.json()) as { name: string; jurisdiction: string; entityType: string | null; state: string | null }[];
    }, TENANT);
    expect(saved.find((c) => c.name === CLIENT_NAME)).toMatchObject({
      jurisdiction: 'IN', entityType: 'company', fiscalYearEnd: '03-31', state: 'IN-MH', registrations: ['gst_monthly', 'tds'],
    });
    await row.getByText('Company · Maharashtra (IN-MH) · year end 31 Mar · GST, monthly returns (India), TDS deductor (India)').waitFor();

    await page.getByPlaceholder('Search clients by name, email, phone, federal ID...').fill('nobody');
    await page.getByText('No clients match your search criteria.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await row.waitFor();
    await screenshot(page, 'clients');
  });

  it('downloads a client\'s documents as a ZIP with its index', async () => {
    const saved = page.waitForEvent('download');
    await page.getByRole('button', { name: `Download documents of ${CLIENT_NAME}` }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toBe(`${CLIENT_NAME} documents.zip`);
    const file = await download.path();
    const zip = await readFile(file);
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(zip.includes(Buffer.from('index.csv'))).toBe(true);
  });

  it('Portal link: copied to the clipboard and opened signed out shows the client', async () => {
    await page.getByRole('button', { name: `Copy portal link for ${CLIENT_NAME}` }).click();
    await toast(page, 'Portal Link Copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${baseUrl}/${TENANT}/client/\\d+/portal\\?token=.+`));

    const visitor = await launchBrowser();
    try {
      const portalPage = await visitor.newPage(baseUrl);
      await portalPage.goto(link);
      await portalPage.getByRole('heading', { name: `Document Settings for ${CLIENT_NAME}` }).waitFor();
      await portalPage.getByText('Google Drive is selected but not yet configured. Please complete the setup to enable file uploads.').waitFor();
      await expect(portalPage.getByRole('button', { name: 'Setup' }).isVisible()).resolves.toBe(true);
      await screenshot(portalPage, 'client-portal');

      // A link with a forged token does not open the page.
      await portalPage.goto(link.replace(/token=.+$/, 'token=forged'));
      await portalPage.getByText('Unable to load client information. Please check the link and try again.').waitFor();
      // Not a dead end: the firm's name and its sign-in page.
      await portalPage.getByRole('heading', { name: 'Mehta & Associates' }).waitFor();
      await portalPage.getByRole('button', { name: "Sign in to Mehta & Associates' portal" }).click();
      await portalPage.waitForURL(`${baseUrl}/${TENANT}/login`);

      // A link without its token is not even sent to the server (which could only refuse it).
      const asked: string[] = [];
      portalPage.on('request', (request) => asked.push(new URL(request.url()).pathname));
      await portalPage.goto(link.replace(/\?token=.+$/, ''));
      await portalPage.getByRole('button', { name: "Sign in to Mehta & Associates' portal" }).waitFor();
      expect(asked.filter((path) => path.endsWith('/portal') && path.startsWith('/api/'))).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  it('Google Drive: credentials, consent in a popup against the stand-in, then removal', async () => {
    await page.getByRole('button', { name: `Google Drive Setup for ${CLIENT_NAME}` }).click();
    const dialog = page.getByRole('dialog', { name: `Google Drive Setup — ${CLIENT_NAME}` });
    await dialog.getByText('Enter OAuth Credentials').waitFor();
    await dialog.getByRole('button', { name: 'Save Credentials' }).click();
    await toast(page, 'Missing Credentials').waitFor();
    await expect(toast(page, 'Missing Credentials').textContent()).resolves.toContain('Please provide both Client ID and Client Secret');

    await dialog.locator('#drive-client-id').fill(google.app.clientId);
    const secret = dialog.locator('#drive-client-secret');
    await secret.fill(google.app.clientSecret);
    await expect(secret.getAttribute('type')).resolves.toBe('password');
    await dialog.locator('.p-password .p-icon, .p-password i').first().click();
    await expect(secret.getAttribute('type')).resolves.toBe('text');
    // Typed but not saved: Close asks first; keeping them leaves both values in place.
    await dialog.locator('.p-dialog-footer').getByRole('button', { name: 'Close' }).click();
    const discard = page.locator('.p-confirm-dialog');
    await discard.getByText('What you entered in this form has not been saved.').waitFor();
    await discard.getByRole('button', { name: 'Keep Editing' }).click();
    await discard.waitFor({ state: 'hidden' });
    await expect(dialog.locator('#drive-client-id').inputValue()).resolves.toBe(google.app.clientId);
    await dialog.getByRole('button', { name: 'Save Credentials' }).click();
    await toast(page, 'Credentials Saved').waitFor();

    const popupOpened = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Connect Google Drive' }).click();
    const popup = await popupOpened;
    expect(popup.viewportSize()).toEqual({ width: 600, height: 600 });
    await toast(page, 'Success!').waitFor();
    await expect(toast(page, 'Success!').textContent()).resolves.toContain('Google Drive has been connected successfully.');
    await dialog.getByText('Google Drive Connected').waitFor();
    // The popup handed its result over and closed itself.
    await until(async () => popup.isClosed(), 'the popup to close', 5000);
    expect(google.folders).toEqual([{ name: `${CLIENT_NAME} Documents`, mimeType: 'application/vnd.google-apps.folder' }]);
    await screenshot(page, 'google-drive-connected');

    await dialog.getByRole('button', { name: 'Remove Integration' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Integration' });
    await confirm.getByText('Are you sure you want to remove Google Drive integration for this client?').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Integration Removed').waitFor();
    await dialog.getByText('Enter OAuth Credentials').waitFor();
    await dialog.locator('.p-dialog-footer').getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });
});
