import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { apiClient, TEST_ADMIN } from '@ledgerline/server/portal-harness.ts';
import { expectToast, startPortalBrowser, submitLogin, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';
import { rewriteArchive } from '../../../services/server/test/support/firm-moves.ts';

/*
 * The admin console's firm export (progress, download) and import (progress, the new
 * firm's card, what is left to do, who signed the archive, confirming an unsigned one).
 */
const suffix = uniqueSuffix();
const firm = { name: `Export Tax ${suffix}`, shortName: `exp${suffix}` };
const copy = { name: `Imported Tax ${suffix}`, shortName: `imp${suffix}` };

describe('moving a firm in the admin console', () => {
  let portal: PortalBrowser;
  let page: Page;
  const archive = join(mkdtempSync(join(tmpdir(), 'firm-archive-')), 'firm.tar');

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'admin']);
    page = await portal.browser.newPage(portal.baseUrl);
    const call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    const admin = { username: `nora${suffix}`, password: 'password1', fullName: 'Nora Admin', roleId: 1, clientIds: null, reportTypeIds: null };
    expect((await call('POST', `/api/${firm.shortName}/users`, portal.adminToken, admin)).status).toBe(201);
    await page.goto(`${portal.baseUrl}/admin/login`);
    await submitLogin(page, TEST_ADMIN.username, TEST_ADMIN.password, 'Sign In as Administrator');
    await page.waitForURL(`${portal.baseUrl}/admin/dashboard`);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  const card = (shortName: string) => page.locator(`.tenant-card[data-tenant="${shortName}"]`);
  const dialog = () => page.getByRole('dialog');

  it('exports a firm from its card and downloads the archive when ready', async () => {
    await page.goto(`${portal.baseUrl}/admin/tenants`);
    await card(firm.shortName).getByRole('button', { name: `Export ${firm.name}` }).click();
    await dialog().getByRole('button', { name: 'Start Export' }).click();
    const download = dialog().getByRole('button', { name: /^Download \(\d/ });
    await download.waitFor({ timeout: 60_000 });
    await portal.screenshot(page, 'admin-firm-export');
    const saved = page.waitForEvent('download');
    await download.click();
    await (await saved).saveAs(archive);
    expect((await stat(archive)).size).toBeGreaterThan(10_000);
    await page.keyboard.press('Escape');
  }, 90_000);

  it('imports the archive as a new firm with a progress bar, and shows its card', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Import Firm' }).click();
    await dialog().locator('#import-file').setInputFiles(archive);
    await dialog().locator('#import-name').fill(copy.name);
    await dialog().locator('#import-short-name').fill(copy.shortName);
    await dialog().getByRole('button', { name: 'Import' }).click();
    // The upload is checked whole before the job starts (seconds on a loaded machine).
    await dialog().getByRole('progressbar', { name: 'Import progress' }).waitFor({ timeout: 60_000 });
    // With Keycloak the import also makes the firm's realm: seconds more.
    await dialog().getByText(`${copy.name} is ready at /${copy.shortName}/login`).waitFor({ timeout: 60_000 });
    await expectToast(page, 'Firm Imported Successfully', `${copy.name} is available at /${copy.shortName}/login`);
    await dialog().getByText('Signed by this installation.').waitFor();
    await portal.screenshot(page, 'admin-firm-import-phone');
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });
    await card(copy.shortName).waitFor();
    // The toast covers the header's buttons on a phone until it goes.
    await page.locator('.p-toast-message').waitFor({ state: 'detached', timeout: 20_000 });
  }, 90_000);

  it('says that the users of an archive without passwords (a Keycloak firm\'s) need one', async () => {
    const withoutPasswords = join(mkdtempSync(join(tmpdir(), 'firm-archive-')), 'keycloak-firm.tar');
    await writeFile(withoutPasswords, await rewriteArchive(await readFile(archive), (name, body) => (name.startsWith('identity/tables/credentials.') ? null : body)));
    await page.getByRole('button', { name: 'Import Firm' }).click();
    await dialog().locator('#import-file').setInputFiles(withoutPasswords);
    await dialog().locator('#import-name').fill('No Passwords');
    await dialog().locator('#import-short-name').fill(`nop${suffix}`);
    await dialog().getByRole('button', { name: 'Import' }).click();
    // Rebuilt outside an installation, the archive is unsigned: the platform admin confirms it first.
    await dialog().getByText(/^This archive is not signed: nothing shows which installation made it/).waitFor({ timeout: 60_000 });
    await portal.screenshot(page, 'admin-firm-import-confirm');
    await dialog().getByRole('button', { name: 'Import Anyway' }).click();
    await dialog().getByText('No Passwords is ready at').waitFor({ timeout: 60_000 });
    await dialog().getByText('1 user has no password in the archive (the firm signed in through Keycloak there): an Admin sets one for each under Users.').waitFor();
    await dialog().getByText('Not signed; imported on your confirmation.').waitFor();
    await portal.screenshot(page, 'admin-firm-import-without-passwords');
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.locator('.p-toast-message').waitFor({ state: 'detached', timeout: 20_000 });
  }, 90_000);

  it('refuses a short name in use with the server\'s message, creating nothing', async () => {
    await page.getByRole('button', { name: 'Import Firm' }).click();
    await dialog().locator('#import-file').setInputFiles(archive);
    await dialog().locator('#import-name').fill('Again');
    await dialog().locator('#import-short-name').fill(firm.shortName);
    await dialog().getByRole('button', { name: 'Import' }).click();
    await dialog().getByText('A tenant with this short name already exists').waitFor();
  }, 60_000);
});
