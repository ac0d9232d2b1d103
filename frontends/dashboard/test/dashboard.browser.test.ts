import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import type { UploadResult } from '@ledgerline/contracts/files.contracts.ts';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, TEST_ADMIN } from '@ledgerline/server/portal-harness.ts';
import { startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const suffix = uniqueSuffix();
const FIRM = { name: `Mehta & Associates ${suffix}`, shortName: `mehta${suffix}` };
const OTHER_FIRM = { name: `Other Books ${suffix}`, shortName: `other${suffix}` };
const CLIENT_ROLE_ID = 4;
const ADMIN_ROLE_ID = 1;
/** Events reach the activity service through the bus (RabbitMQ in CI). */
const BUS_WAIT_MS = 20_000;

const usClient = (name: string) => ({
  name,
  address: '1 Main Street, Springfield',
  phone: '(555)-123-4567',
  federalId: '12-3456789',
  stateId: 'il-445',
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
});

describe('dashboard and activity screens in Chromium', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let call: ReturnType<typeof apiClient>;
  let staff: LoginResponse;
  let clientUser: LoginResponse;
  let otherAdmin: LoginResponse;
  const clientIds: Record<string, number> = {};
  const files: Record<string, number> = {};

  async function signIn(tenant: string, username: string): Promise<LoginResponse> {
    const r = await call<LoginResponse>('POST', `/api/${tenant}/auth/login`, null, { username, password: 'password1' });
    expect(r.status).toBe(200);
    return r.body;
  }

  async function createUser(tenant: string, username: string, fullName: string, roleId: number, clients: number[] | null): Promise<LoginResponse> {
    const r = await call('POST', `/api/${tenant}/users`, portal.adminToken, { username, password: 'password1', fullName, roleId, clientIds: clients });
    expect(r.status).toBe(201);
    return signIn(tenant, username);
  }

  /** POST /api/{tenant}/files, multipart, as the staff user. */
  async function upload(clientId: number, name: string, content: string): Promise<number> {
    const form = new FormData();
    form.set('fileType', 'report');
    form.set('clientId', String(clientId));
    form.set('file', new Blob([content], { type: 'text/plain' }), name);
    const r = await fetch(`${baseUrl}/api/${FIRM.shortName}/files`, { method: 'POST', headers: { authorization: `Bearer ${staff.token}` }, body: form });
    const body = (await r.json()) as UploadResult;
    expect({ status: r.status, message: body.message }).toEqual({ status: 201, message: 'File uploaded successfully' });
    return body.files[0]!.id;
  }

  /** Socket connections each page opened: the tab keeps one for every screen and remote (ui/realtime-connection.ts). */
  const socketsOpened = new Map<Page, number>();
  async function openAs(login: LoginResponse, path: string): Promise<Page> {
    const page = await portal.browser.newPage(baseUrl);
    socketsOpened.set(page, 0);
    page.on('websocket', () => socketsOpened.set(page, socketsOpened.get(page)! + 1));
    await setLocalStorage(page, { token: login.token, user: login.user, ...(login.tenant ? { currentTenant: login.tenant } : {}) });
    await page.goto(`${baseUrl}${path}`);
    return page;
  }

  const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true }).locator('.stat-card__value');
  const tabLabels = (page: Page) => page.locator('.dashboard-tabs .p-tabview-nav .p-tabview-title').allTextContents();
  const panel = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
  const rowsText = (page: Page, scope: string) => page.locator(`${scope} .p-datatable-tbody > tr`).allInnerTexts();

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'dashboard']);
    baseUrl = portal.baseUrl;
    call = apiClient(baseUrl);
    for (const firm of [FIRM, OTHER_FIRM]) expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    // Quiet Traders has no documents or activity: counted among the firm's clients, not the active ones.
    for (const name of ['Mehta Exports', 'Sunrise Textiles', 'Quiet Traders']) {
      const r = await call<{ id: number }>('POST', `/api/${FIRM.shortName}/clients`, portal.adminToken, usClient(name));
      expect(r.status).toBe(201);
      clientIds[name] = r.body.id;
    }
    staff = await createUser(FIRM.shortName, `priya${suffix}`, 'Priya Mehta', ADMIN_ROLE_ID, null);
    clientUser = await createUser(FIRM.shortName, `ravi${suffix}`, 'Ravi Kumar', CLIENT_ROLE_ID, [clientIds['Mehta Exports']!]);
    otherAdmin = await createUser(OTHER_FIRM.shortName, `olga${suffix}`, 'Olga Other', ADMIN_ROLE_ID, null);

    // Services other than identity learn about new firms from its events.
    await eventually(async () => {
      expect((await call('GET', `/api/${FIRM.shortName}/files`, staff.token)).status).toBe(200);
      expect((await call('GET', `/api/${FIRM.shortName}/dashboard`, staff.token)).status).toBe(200);
    }, BUS_WAIT_MS);
    files['Q1 Return.txt'] = await upload(clientIds['Mehta Exports']!, 'Q1 Return.txt', 'Quarterly return of Mehta Exports\n'.repeat(20_000));
    files['Ledger.csv'] = await upload(clientIds['Mehta Exports']!, 'Ledger.csv', 'date,amount\n2025-03-01,100\n');
    files['Sunrise Payroll.txt'] = await upload(clientIds['Sunrise Textiles']!, 'Sunrise Payroll.txt', 'Payroll of Sunrise Textiles\n');
    // Uploads reach the activity service as file.uploaded events.
    await eventually(async () => {
      const r = await call<DashboardOverview>('GET', `/api/${FIRM.shortName}/dashboard`, staff.token);
      expect(r.body.totalDocuments).toBe(3);
    }, BUS_WAIT_MS);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('Dashboard (staff): cards, recent files and the activity feed show the uploads; viewing a file records it', async () => {
    const page = await openAs(staff, `/${FIRM.shortName}/dashboard`);
    await expect(card(page, 'Total Documents').textContent()).resolves.toBe('3');
    expect(await tabLabels(page)).toEqual(['Overview', 'Client Engagement', 'Document Analytics', 'User Activity']);
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('Dashboard');
    await expect(card(page, 'Total Activities').textContent()).resolves.toBe('3');
    await expect(card(page, 'Clients').textContent()).resolves.toBe('3');
    await expect(page.getByRole('region', { name: 'Clients', exact: true }).locator('.stat-card__note').textContent()).resolves.toBe('2 active');
    await expect(card(page, 'Active Users (7d)').textContent()).resolves.toBe('1');

    const recentFiles = panel(page, 'Recent Files');
    await recentFiles.getByText('Sunrise Payroll.txt').waitFor();
    const fileRows = await rowsText(page, '.recent-files');
    expect(fileRows).toHaveLength(3);
    // Newest first; 20,000 lines of 34 bytes are 0.65 MB.
    expect(fileRows[0]).toContain('Sunrise Payroll.txt');
    expect(fileRows[2]).toMatch(/Q1 Return\.txt\s+Mehta Exports\s+Reports\s+0\.65 MB\s+Priya Mehta/);
    await expect(recentFiles.getByRole('link', { name: 'Reports page' }).getAttribute('href')).resolves.toBe(`/${FIRM.shortName}/cpa-dashboard`);

    const feed = panel(page, 'Recent Activity');
    await feed.getByText('Uploaded Q1 Return.txt').waitFor();
    expect(await rowsText(page, '[aria-label="Recent Activity"]')).toHaveLength(3);
    await page.getByRole('img', { name: 'Activity (Last 30 Days)' }).waitFor();
    await portal.screenshot(page, 'dashboard-overview');

    // View: the shared file-access module opens the file and records the view.
    const popup = page.context().waitForEvent('page');
    await recentFiles.getByRole('button', { name: 'View Q1 Return.txt' }).click();
    await (await popup).waitForEvent('close');
    await feed.getByText('Viewed Q1 Return.txt').waitFor();
    await expect(card(page, 'Total Activities').textContent()).resolves.toBe('4');
    // The shell's bell and the dashboard's remote share the one connection (two opened while a ui module imported it by a relative path).
    expect(socketsOpened.get(page)).toBe(1);
    await page.close();
  });

  it('Dashboard tabs (staff): engagement, document analytics and the user activity details dialog', async () => {
    const page = await openAs(staff, `/${FIRM.shortName}/dashboard`);
    await page.getByRole('tab', { name: 'Client Engagement' }).click();
    const engagement = panel(page, 'Client Engagement');
    await engagement.getByText('Mehta Exports').waitFor();
    expect((await rowsText(page, '[aria-label="Client Engagement"]'))[0]).toMatch(/^Mehta Exports\s+2\s+3/);
    await page.getByRole('img', { name: 'Top Clients by Activity' }).waitFor();
    await engagement.getByRole('button', { name: 'Engagement details for Mehta Exports' }).click();
    const clientDialog = page.getByRole('dialog', { name: 'Client Engagement Details' });
    await clientDialog.getByText('Viewed Q1 Return.txt').waitFor();
    await expect(clientDialog.locator('.details-figures').innerText()).resolves.toMatch(/Documents\s+2\s+Total Actions\s+3/);
    await page.keyboard.press('Escape');
    await clientDialog.waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: 'Document Analytics' }).click();
    const usage = panel(page, 'Document Usage');
    await usage.getByText('Q1 Return.txt').waitFor();
    expect((await rowsText(page, '[aria-label="Document Usage"]'))[0]).toMatch(/^Q1 Return\.txt\s+Mehta Exports\s+1\s+0\s+0\s+1$/);
    await page.getByRole('img', { name: 'Most Used Documents' }).waitFor();
    await page.getByRole('img', { name: 'Documents by Type' }).waitFor();

    await page.getByRole('tab', { name: 'User Activity' }).click();
    const users = panel(page, 'User Activity');
    await users.getByText('Priya Mehta').waitFor();
    await page.getByRole('img', { name: 'Actions Breakdown' }).waitFor();
    await users.getByRole('button', { name: 'Activity details for Priya Mehta' }).click();
    const userDialog = page.getByRole('dialog', { name: 'User Activity Details' });
    await userDialog.getByText('Viewed Q1 Return.txt').waitFor();
    await expect(userDialog.locator('.details-figures').innerText()).resolves.toMatch(/Total Actions\s+4/);
    await expect(userDialog.getByRole('list', { name: 'Actions breakdown' }).innerText()).resolves.toMatch(/Uploads\s*3\s*Views\s*1/);
    await portal.screenshot(page, 'dashboard-user-details');
    await page.close();
  });

  it('Activity page: the newest entries with Details, filterable by action', async () => {
    const page = await openAs(staff, '/activity');
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('Activity');
    await page.getByText('Viewed Q1 Return.txt').waitFor();
    const rows = await rowsText(page, '.activity-page');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/Viewed Q1 Return\.txt\s+Priya Mehta\s+Mehta Exports\s+\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M\s+Viewed file: Q1 Return\.txt/);
    expect(rows.filter((row) => row.includes('Uploaded'))).toHaveLength(3);
    const headers = await page.locator('.activity-page .p-datatable-thead th').allInnerTexts();
    expect(headers.map((header) => header.trim())).toEqual(['', 'Activity', 'User', 'Client', 'Date & Time', 'Details', 'Action']);

    await page.locator('.activity-page__filter').click();
    await page.getByRole('option', { name: 'Uploads' }).click();
    await page.getByText('Viewed Q1 Return.txt').waitFor({ state: 'detached' });
    // The table re-renders after the filter: the last rows of the unfiltered list may linger a moment.
    await eventually(async () => expect(await rowsText(page, '.activity-page')).toHaveLength(3), 10_000);
    await portal.screenshot(page, 'activity-page');
    await page.close();
  });

  it('Client user: the client labels and only their own client\'s figures, files and activity', async () => {
    const page = await openAs(clientUser, `/${FIRM.shortName}/dashboard`);
    await expect(card(page, 'Your Documents').textContent()).resolves.toBe('2');
    expect(await tabLabels(page)).toEqual(['Company Overview', 'Your Documents', 'Your Activity']);
    await expect(card(page, 'Your Companies').textContent()).resolves.toBe('1');
    await expect(page.locator('.page-heading__title').first().textContent()).resolves.toBe('Your Dashboard');
    await expect(page.getByRole('region', { name: 'Active Users (7d)' }).count()).resolves.toBe(0);

    const recentFiles = panel(page, 'Recent Files');
    await recentFiles.getByText('Ledger.csv').waitFor();
    const fileRows = await rowsText(page, '.recent-files');
    expect(fileRows).toHaveLength(2);
    expect(fileRows.join('\n')).not.toContain('Sunrise');
    await expect(recentFiles.getByRole('link', { name: 'Reports page' }).getAttribute('href')).resolves.toBe(`/${FIRM.shortName}/client-reports`);
    await panel(page, 'Recent Activity').getByText('Viewed Q1 Return.txt').waitFor();
    expect((await rowsText(page, '[aria-label="Recent Activity"]')).join('\n')).not.toContain('Sunrise');

    // Their own view, then only their own row under Your Activity.
    const popup = page.context().waitForEvent('page');
    await recentFiles.getByRole('button', { name: 'View Ledger.csv' }).click();
    await (await popup).waitForEvent('close');
    await page.getByRole('tab', { name: 'Your Activity' }).click();
    const users = panel(page, 'User Activity');
    await users.getByText('Ravi Kumar').waitFor();
    expect(await rowsText(page, '[aria-label="User Activity"]')).toEqual([expect.stringMatching(/^Ravi Kumar\s+1\s/)]);
    await portal.screenshot(page, 'dashboard-client');
    await page.close();
  });

  it.each([{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1440, height: 900 }])(
    'an individual client\'s user is spoken to as a person, not as a company ($name)', async (viewport) => {
      const person = await call<{ id: number }>('POST', `/api/${FIRM.shortName}/clients`, portal.adminToken, { ...usClient(`Grace Lee ${viewport.name}`), entityType: 'individual' });
      expect(person.status).toBe(201);
      const grace = await createUser(FIRM.shortName, `grace${viewport.name}${suffix}`, 'Grace Lee', CLIENT_ROLE_ID, [person.body.id]);
      const page = await portal.browser.newPage(baseUrl);
      await page.setViewportSize(viewport);
      await setLocalStorage(page, { token: grace.token, user: grace.user, ...(grace.tenant ? { currentTenant: grace.tenant } : {}) });
      await page.goto(`${baseUrl}/${FIRM.shortName}/dashboard`);
      await page.locator('.page-heading__title', { hasText: 'Your Dashboard' }).waitFor();
      await expect(page.locator('.page-heading__subtitle').first().textContent()).resolves.toBe('What is due from you, and your documents');
      await card(page, 'Your Documents').waitFor();
      // Her own client's line in the header, with a person's icon.
      await page.locator('.client-org-name .pi-user').waitFor();
      // The tabs are drawn as the viewer scrolls near them (below four panels on a phone).
      await page.locator('.when-near-viewport, .dashboard-tabs').first().scrollIntoViewIfNeeded();
      await page.locator('.dashboard-tabs').scrollIntoViewIfNeeded();
      await eventually(async () => expect(await tabLabels(page)).toEqual(['Your Overview', 'Your Documents', 'Your Activity']), 10_000);
      await expect(page.getByRole('region', { name: 'Your Companies' }).count()).resolves.toBe(0);
      const words = (await page.locator('main').innerText()).toLowerCase();
      for (const companyWord of ['company dashboard', 'your companies', 'from your company', 'company overview']) expect(words).not.toContain(companyWord);
      await portal.screenshot(page, `dashboard-individual-client-${viewport.name}`);
      await page.close();
    },
  );

  it('another firm sees none of it; a platform administrator without a firm is asked to pick one', async () => {
    const page = await openAs(otherAdmin, `/${OTHER_FIRM.shortName}/dashboard`);
    await expect(card(page, 'Total Documents').textContent()).resolves.toBe('0');
    await panel(page, 'Recent Files').getByText('No files uploaded yet.').waitFor();
    await panel(page, 'Recent Activity').getByText('No activities found.').waitFor();
    await page.goto(`${baseUrl}/activity`);
    await page.getByText('No activities found.').waitFor();
    await page.close();

    const admin = await call<LoginResponse>('POST', '/api/admin/auth/login', null, TEST_ADMIN);
    const adminPage = await openAs(admin.body, '/');
    await adminPage.getByText('No tenant selected').waitFor();
    await adminPage.getByText('Select a tenant in the header to see its dashboard.').waitFor();
    await adminPage.close();
  });
});
