import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { unzip } from '@ledgerline/kit/testing/unzip.ts';
import { addFirmUser, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Settings → Export: a firm's Admin exports their own firm (progress, download) and downloads
 * its readable copy, on a phone and a desktop; a DTA has no such tab.
 */
const suffix = uniqueSuffix();
const TENANT = `own${suffix}`;

describe('a firm Admin exporting the firm from Settings', () => {
  let portal: PortalBrowser;
  const archive = join(mkdtempSync(join(tmpdir(), 'own-export-')), 'firm.tar');

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'directory']);
    expect((await apiClient(portal.baseUrl)('POST', '/api/companies', portal.adminToken, { name: `Own Export ${suffix}`, shortName: TENANT })).status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('starts an export, shows its progress and downloads the archive, on a phone', async () => {
    const { login } = await addFirmUser(portal, TENANT, { username: `admin_${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null });
    const page = await openAs(portal, portal.baseUrl, login, `/${TENANT}/settings`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('tab', { name: 'Export' }).click();
    await page.getByText('No exports yet.').waitFor();
    await page.getByRole('button', { name: 'Start Export' }).click();
    const exports = page.getByRole('list', { name: 'Exports' });
    // Progress shows while it runs (a small firm may finish before the first look).
    await exports.getByRole('progressbar', { name: 'Export progress' }).or(exports.getByRole('button', { name: /^Download \(/ })).first().waitFor();
    const download = exports.getByRole('button', { name: /^Download \(\d+(\.\d)? KB\)$/ });
    await download.waitFor({ timeout: 60_000 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'settings-firm-export-phone');
    const saved = page.waitForEvent('download');
    await download.click();
    const file = await saved;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^${TENANT}-\\d{4}-\\d{2}-\\d{2}\\.tar$`));
    await file.saveAs(archive);
    expect((await stat(archive)).size).toBeGreaterThan(10_000);
    await page.close();
  }, 120_000);

  it.each([[390, 844], [1440, 900]])('downloads the readable copy beside the archive (%i px)', async (width, height) => {
    const call = apiClient(portal.baseUrl);
    await call('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient(`Readable ${width}`));
    const { login } = await addFirmUser(portal, TENANT, { username: `reader_${width}_${suffix}`, fullName: 'Rita Reader', roleId: 1, clientIds: null });
    const page = await openAs(portal, portal.baseUrl, login, `/${TENANT}/settings`);
    await page.setViewportSize({ width, height });
    await page.getByRole('tab', { name: 'Export' }).click();
    const button = page.getByRole('button', { name: 'Download Readable Copy' });
    await button.waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    const saved = page.waitForEvent('download');
    await button.click();
    const file = await saved;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^${TENANT}-\\d{4}-\\d{2}-\\d{2}-readable\\.zip$`));
    const copy = join(mkdtempSync(join(tmpdir(), 'readable-')), 'copy.zip');
    await file.saveAs(copy);
    const entries = unzip(await readFile(copy));
    expect(Object.keys(entries)).toEqual(expect.arrayContaining(['README.txt', 'users.csv', 'clients.csv', 'report-types.csv', 'tasks.csv']));
    expect(entries['clients.csv']!.toString()).toContain(`Readable ${width}`);
    await page.close();
  }, 120_000);

  it('offers no Export tab to a DTA', async () => {
    const { login } = await addFirmUser(portal, TENANT, { username: `dta_${suffix}`, fullName: 'Dev Dta', roleId: 2, clientIds: null });
    const page = await openAs(portal, portal.baseUrl.replace('127.0.0.1', 'localhost'), login, `/${TENANT}/settings`);
    await page.getByRole('tab', { name: 'Client Fields' }).waitFor();
    expect(await page.getByRole('tab', { name: 'Export' }).count()).toBe(0);
    await page.close();
  }, 60_000);
});
