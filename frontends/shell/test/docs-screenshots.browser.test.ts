import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, openAs, SCREENSHOT_DIR, startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/**
 * The pictures of the user guide (docs/images) are taken here, from a firm seeded through the
 * API, so they never show an older screen: `npm run docs:screenshots` (DOCS_SCREENSHOTS=1)
 * writes them into docs/images to be committed; in `npm test` they go to test-results and the
 * test checks each screen showed what its picture is of.
 */
const DOCS_IMAGES = path.resolve(import.meta.dirname, '../../../docs/images');
const FOR_DOCS = process.env.DOCS_SCREENSHOTS === '1';
const OUT_DIR = FOR_DOCS ? DOCS_IMAGES : path.join(SCREENSHOT_DIR, 'docs-images');
const BUS_WAIT_MS = 20_000;
// The pictures show plain names (their own portal is fresh); test runs keep names unique.
const suffix = FOR_DOCS ? '' : uniqueSuffix();
const FIRM = { name: 'Harbor & Mehta Accountants', shortName: `harbor${suffix}` };
const ADMIN_ROLE_ID = 1;
const CLIENT_ROLE_ID = 4;

const clientDetails = (name: string) => ({
  name,
  address: '12 Harbour Street',
  phone: '(555)-123-4567',
  federalId: '12-3456789',
  stateId: 'ST-4411',
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
});

describe('user guide screenshots', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let clientUser: FirmLogin;
  const clients: Record<string, number> = {};

  async function upload(clientId: number, name: string, content: string): Promise<void> {
    const form = new FormData();
    form.set('fileType', 'report');
    form.set('clientId', String(clientId));
    form.set('file', new Blob([content], { type: 'text/plain' }), name);
    const r = await fetch(`${portal.baseUrl}/api/${FIRM.shortName}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
    expect(r.status).toBe(201);
  }

  /** Takes the picture at the given size and checks it was written. */
  async function picture(page: Page, name: string, size: { width: number; height: number }): Promise<void> {
    await page.setViewportSize(size);
    // Let the layout settle at the new width (charts and tables re-measure).
    await page.waitForTimeout(500);
    const file = path.join(OUT_DIR, `${name}.png`);
    await page.screenshot({ path: file });
    expect((await stat(file)).size).toBeGreaterThan(10_000);
  }

  beforeAll(async () => {
    await mkdir(OUT_DIR, { recursive: true });
    portal = await startPortalBrowser(['shell', 'access', 'dashboard', 'documents', 'tasks', 'messaging', 'directory']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    for (const name of ['Mehta Exports Pvt Ltd', 'Bayview Bakery Inc', 'Coral Imports LLC']) {
      const r = await call<{ id: number }>('POST', `/api/${FIRM.shortName}/clients`, portal.adminToken, clientDetails(name));
      expect(r.status).toBe(201);
      clients[name] = r.body.id;
    }
    const asha = await addFirmUser(portal, FIRM.shortName, { username: `asha${suffix}`, fullName: 'Asha Mehta', roleId: ADMIN_ROLE_ID, clientIds: null });
    admin = asha.login;
    clientUser = (await addFirmUser(portal, FIRM.shortName, { username: `ravi${suffix}`, fullName: 'Ravi Kumar', roleId: CLIENT_ROLE_ID, clientIds: [clients['Mehta Exports Pvt Ltd']!] })).login;
    await eventually(async () => {
      expect((await call('GET', `/api/${FIRM.shortName}/files`, admin.token)).status).toBe(200);
    }, BUS_WAIT_MS);
    await upload(clients['Mehta Exports Pvt Ltd']!, 'GSTR-3B October 2026.txt', 'GSTR-3B return\nTax period: October 2026\nOutward taxable supplies 18,40,000\n');
    await upload(clients['Mehta Exports Pvt Ltd']!, 'Bank statement Oct 2026.txt', 'HDFC Bank statement\nPeriod 01/10/2026 to 31/10/2026\n');
    await upload(clients['Bayview Bakery Inc']!, 'Form 941 Q3 2026.txt', 'Form 941 Employer quarterly federal tax return\nQuarter ending September 30, 2026\n');
    await upload(clients['Coral Imports LLC']!, 'Sales ledger 2026.txt', 'Sales ledger of Coral Imports LLC\n');
    // Due dates a few days ahead of whenever the pictures are taken.
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const tasks = [
      { title: 'Prepare GSTR-3B for November', priority: 'high', dueDate: inDays(5), clientIds: [clients['Mehta Exports Pvt Ltd']!] },
      { title: 'Collect W-2s for Form 1040', priority: 'medium', dueDate: inDays(12), clientIds: [clients['Bayview Bakery Inc']!, clients['Coral Imports LLC']!] },
    ];
    for (const task of tasks) {
      expect((await call('POST', `/api/${FIRM.shortName}/tasks`, admin.token, { ...task, status: 'pending', assignedToId: asha.id })).status).toBe(201);
    }
    await eventually(async () => {
      const r = await call<DashboardOverview>('GET', `/api/${FIRM.shortName}/dashboard`, admin.token);
      expect(r.body.totalDocuments).toBe(4);
    }, BUS_WAIT_MS);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('the firm sign-in page', async () => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.goto(`${portal.baseUrl}/${FIRM.shortName}/login`);
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await page.getByText(FIRM.name).first().waitFor();
    await picture(page, 'firm-login', { width: 1440, height: 900 });
  });

  it('the Admin\'s dashboard, on a desktop and on a phone', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${FIRM.shortName}/dashboard`);
    await page.getByText('Bank statement Oct 2026.txt').first().waitFor();
    await picture(page, 'dashboard', { width: 1440, height: 900 });
    await picture(page, 'dashboard-phone', { width: 390, height: 844 });
  });

  it('the Tasks page', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${FIRM.shortName}/tasks`);
    await page.getByText('Prepare GSTR-3B for November').first().waitFor();
    await picture(page, 'tasks', { width: 1440, height: 900 });
  });

  it('Settings → Export with a finished export, on a phone', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${FIRM.shortName}/settings`);
    await page.getByRole('tab', { name: 'Export' }).click();
    await page.getByRole('button', { name: 'Start Export' }).click();
    await page.getByRole('list', { name: 'Exports' }).getByRole('button', { name: /^Download \(/ }).waitFor({ timeout: 60_000 });
    await picture(page, 'settings-firm-export-phone', { width: 390, height: 844 });
  });

  it('a client user\'s reports', async () => {
    const origin = portal.baseUrl.replace('127.0.0.1', 'localhost');
    const page = await openAs(portal, origin, clientUser, `/${FIRM.shortName}/client-reports`);
    await page.getByText('GSTR-3B October 2026.txt').first().waitFor();
    await expect(page.getByText('Form 941 Q3 2026.txt').count()).resolves.toBe(0);
    await picture(page, 'client-reports', { width: 1440, height: 900 });
  });
});
