import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { DocumentRequest, DocumentRequestSummary, RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, submitLogin, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 27's walk through the screens: an Admin asks a client for documents from a template
 * and copies an upload link; a person without an account uploads two items by the link on a
 * phone; the Admin returns one with a reason; the client's user signs in, reads the reason,
 * uploads again and says an optional item does not apply; the Admin accepts and the request
 * completes; the uploads are found by content search.
 */

const suffix = uniqueSuffix();
const FIRM = { name: `Sharma & Co ${suffix}`, shortName: `sharma${suffix}` };
const TENANT = FIRM.shortName;
const DUE_YEAR = new Date().getFullYear() + 1;
const DUE_DATE = `${DUE_YEAR}-04-13`;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const REASON = 'This is the February register; we need March.';
/** Words only the uploads hold, for the content search. */
const SALES_WORD = `zephyrsales${suffix}`;
const PURCHASE_WORD = `quokkapurchase${suffix}`;
const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });
/** The browser's clock in another zone: a due date must stay the calendar date typed, wherever the user is. */
const inTimeZone = async (page: Page, timezoneId: string) => (await page.context().newCDPSession(page)).send('Emulation.setTimezoneOverride', { timezoneId });
const item = (page: Page, title: string) => page.locator('li.request-item', { has: page.getByRole('heading', { name: title, exact: true }) });

describe('document requests in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let client: Client;
  const clientUser = { username: `mehta${suffix}`, fullName: 'Meera Mehta' };
  const files = mkdtempSync(join(tmpdir(), 'request-uploads-'));
  const file = (name: string, text: string) => { const path = join(files, name); writeFileSync(path, text); return path; };
  let requestId = 0;
  let otherClientsRequestId = 0;
  let linkPath = '';
  let clientPage: Page | null = null;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'requests'], { PUBLIC_BASE_URL: 'http://portal.invalid' });
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    client = (await call<Client>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient('Mehta Traders'))).body;
    // Another client's request, which Mehta's user must never see.
    const coral = (await call<Client>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient('Coral Imports'))).body;
    admin = (await addFirmUser(portal, TENANT, { username: `asha${suffix}`, fullName: 'Asha Admin', roleId: 1, clientIds: null })).login;
    await addFirmUser(portal, TENANT, { ...clientUser, roleId: 4, clientIds: [client.id] });
    const template = await call<RequestTemplate>('POST', `/api/${TENANT}/request-templates`, admin.token, {
      name: 'GSTR-3B documents',
      items: [{ title: 'Sales register' }, { title: 'Purchase register' }, { title: 'Bank statements', required: true }],
    });
    expect(template.status).toBe(201);
    const coralRequest = await call<DocumentRequest>('POST', `/api/${TENANT}/document-requests`, admin.token, {
      clientId: coral.id, title: 'Coral payroll', dueDate: DUE_DATE, items: [{ title: 'Payroll register' }],
    });
    expect(coralRequest.status).toBe(201);
    otherClientsRequestId = coralRequest.body.id;
    await portal.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: portal.baseUrl });
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an Admin creates a request from a template, edits its checklist, and copies an upload link', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests`);
    await page.setViewportSize(DESKTOP);
    await inTimeZone(page, 'America/Los_Angeles');
    await page.getByRole('heading', { name: 'Requests', exact: true, level: 2 }).waitFor();
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('Requests');
    await page.locator('nav.side-nav .side-nav__link', { hasText: 'Requests' }).waitFor();

    await page.getByRole('button', { name: 'New Request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Document Request' });
    await dialog.locator('.p-dropdown', { has: page.locator('#request-client') }).click();
    await pick(page, 'Mehta Traders').click();
    await dialog.locator('.p-dropdown', { has: page.locator('#request-template') }).click();
    await pick(page, 'GSTR-3B documents').click();
    await expect(dialog.locator('#request-title').inputValue()).resolves.toBe('GSTR-3B documents');
    await dialog.locator('#request-title').fill('March GSTR-3B');
    await expect(dialog.getByRole('textbox', { name: /^Item \d title$/ }).evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value)))
      .resolves.toEqual(['Sales register', 'Purchase register', 'Bank statements']);
    // The checklist stays editable: Bank statements becomes optional, an added item is removed again.
    await dialog.getByLabel('Required', { exact: true }).nth(2).uncheck();
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await dialog.getByRole('textbox', { name: 'Item 4 title' }).fill('Credit notes');
    await dialog.getByRole('button', { name: 'Remove item 4' }).click();
    await dialog.locator('#request-message').fill('Please send these by the 13th.');
    await dialog.locator('#request-due').fill(`04/13/${DUE_YEAR}`);
    await dialog.locator('#request-due').press('Escape');
    await dialog.getByRole('button', { name: 'Create Request' }).click();
    await expectToast(page, 'Request Created', 'March GSTR-3B: the client has been notified.');
    await page.waitForURL(/\/requests\/\d+$/);
    requestId = Number(page.url().split('/').pop());

    const saved = (await call<DocumentRequest>('GET', `/api/${TENANT}/document-requests/${requestId}`, admin.token)).body;
    expect(saved).toMatchObject({ title: 'March GSTR-3B', dueDate: DUE_DATE, clientId: client.id, status: 'open', assignedToName: 'Asha Admin' });
    expect(saved.items.map((i) => [i.title, i.required])).toEqual([['Sales register', true], ['Purchase register', true], ['Bank statements', false]]);
    await page.getByText(`Due 04/13/${DUE_YEAR}`).waitFor();
    await page.getByText('0 of 2 required items done').waitFor();

    await page.getByRole('button', { name: 'Create Link' }).click();
    await expectToast(page, 'Link Created');
    const url = await page.locator('#link-url').inputValue();
    expect(url).toMatch(/^http:\/\/portal\.invalid\/document-request\/.+/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expectToast(page, 'Copied');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(url);
    linkPath = new URL(url).pathname;
    await page.locator('.request-links__list').getByText('Active').waitFor();
    expect(await sideways(page)).toBe(0);
    await portal.screenshot(page, 'requests-detail-desktop');
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.getByRole('button', { name: 'Create Link' }).waitFor();
    expect(await sideways(page)).toBe(0);
    await portal.screenshot(page, 'requests-detail-phone');
    await page.setViewportSize(DESKTOP);

    await page.goto(`${portal.baseUrl}/${TENANT}/requests`);
    await page.locator(`.request-row-${requestId}`).getByText('Mehta Traders').waitFor();
    await page.locator(`.request-row-${requestId}`).getByText(`04/13/${DUE_YEAR}`).waitFor();
    await portal.screenshot(page, 'requests-list-desktop');
    // Reloaded at the phone's size, so the navigation starts as a closed drawer, as on a phone.
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.locator(`.request-row-${requestId}`).getByRole('link', { name: 'Open March GSTR-3B' }).waitFor();
    expect(await sideways(page)).toBe(0);
    await portal.screenshot(page, 'requests-list-phone');
    // The create dialog fills the phone's screen; its checklist rows keep their buttons in view.
    await page.getByRole('button', { name: 'New Request' }).click();
    const phoneDialog = page.getByRole('dialog', { name: 'New Document Request' });
    await phoneDialog.locator('.p-dropdown', { has: page.locator('#request-template') }).click();
    await pick(page, 'GSTR-3B documents').click();
    await phoneDialog.getByRole('button', { name: 'Remove item 3' }).waitFor();
    expect(await phoneDialog.locator('.p-dialog-content').evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'requests-create-phone');
    await page.close();
  });

  it('a person without an account uploads two items through the link on a phone; the Admin\'s open pages show them without a reload', async () => {
    // The Admin keeps the request and the list open while the uploads come in.
    const staffPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests/${requestId}`);
    await staffPage.setViewportSize(DESKTOP);
    await item(staffPage, 'Sales register').getByText('Requested', { exact: true }).waitFor();
    const listPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests`);
    await listPage.setViewportSize(DESKTOP);
    const row = listPage.locator(`.request-row-${requestId}`);
    // Exact: a date cell on the 30th (11/30/2026) holds "0/2" too.
    await row.getByText('0/2', { exact: true }).waitFor();
    await expect(row.getByText(/to review/).count()).resolves.toBe(0);

    // The link opens on an origin of its own: a new page clears its origin's sign-in, and the Admin's stays.
    const linkOrigin = portal.baseUrl.replace('127.0.0.1', 'localhost');
    const page = await portal.browser.newPage(linkOrigin);
    await page.setViewportSize(PHONE);
    await page.goto(`${linkOrigin}${linkPath}`);
    await page.getByText('0 of 2 required items in').waitFor();
    const sales = page.locator('section.item', { hasText: 'Sales register' });
    await sales.locator('input[type=file]').setInputFiles(file('sales-march.csv', `invoice,amount\n${SALES_WORD},1000\n`));
    await sales.getByText('1 file received').waitFor();
    const purchases = page.locator('section.item', { hasText: 'Purchase register' });
    await purchases.locator('input[type=file]').setInputFiles(file('purchases-feb.csv', 'bill,amount\nFEB-1,400\n'));
    await page.getByText('2 of 2 required items in').waitFor();
    expect(await sideways(page)).toBe(0);
    await page.close();

    // The requests service's push re-reads both staff pages.
    const salesOnStaffPage = item(staffPage, 'Sales register');
    await salesOnStaffPage.getByText('sales-march.csv').waitFor({ timeout: 20_000 });
    await salesOnStaffPage.getByText('Uploaded', { exact: true }).waitFor();
    await item(staffPage, 'Purchase register').getByText('purchases-feb.csv').waitFor({ timeout: 20_000 });
    await row.getByText('2 to review').waitFor({ timeout: 20_000 });
    await portal.screenshot(listPage, 'requests-list-to-review');
    await staffPage.close();
    await listPage.close();
  });

  it("the client's user signs in on a phone and opens the request; the Admin rejects one item with a reason, which reaches the client's open page", async () => {
    // An origin of their own, so the Admin's sign-in in this browser leaves theirs alone.
    const clientOrigin = portal.baseUrl.replace('127.0.0.1', 'localhost');
    clientPage = await portal.browser.newPage(clientOrigin);
    const page = clientPage;
    await page.setViewportSize(PHONE);
    await inTimeZone(page, 'Pacific/Kiritimati');
    await page.goto(`${clientOrigin}/${TENANT}/login`);
    await submitLogin(page, clientUser.username, 'password1');
    await page.waitForURL(`${clientOrigin}/${TENANT}/dashboard`);
    await page.goto(`${clientOrigin}/${TENANT}/requests`);
    const rows = page.locator('.request-table tbody tr');
    await page.locator(`.request-row-${requestId}`).waitFor();
    await expect(rows.count()).resolves.toBe(1);
    // A client reads the due date as the firm's country writes it (a US firm here: its zone names no other).
    await page.locator(`.request-row-${requestId}`).getByText(`Apr 13, ${DUE_YEAR}`).waitFor();
    await page.goto(`${clientOrigin}/${TENANT}/requests/${otherClientsRequestId}`);
    await page.getByRole('heading', { name: 'Request not found' }).waitFor();
    await page.goto(`${clientOrigin}/${TENANT}/requests`);
    await page.locator(`.request-row-${requestId}`).getByRole('link', { name: 'Open March GSTR-3B' }).click();
    await page.waitForURL(`${clientOrigin}/${TENANT}/requests/${requestId}`);

    await page.getByText('2 of 2 required items in').waitFor();
    await page.getByText(`Due Apr 13, ${DUE_YEAR}`).waitFor();

    const staffPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests/${requestId}`);
    await staffPage.setViewportSize(DESKTOP);
    const purchases = item(staffPage, 'Purchase register');
    await purchases.getByText('purchases-feb.csv').waitFor();
    await purchases.getByText(/by link/).waitFor();
    // Download goes through the files API, under the file's own name.
    const [download] = await Promise.all([staffPage.waitForEvent('download'), purchases.getByRole('button', { name: 'Download purchases-feb.csv' }).click()]);
    expect(download.suggestedFilename()).toBe('purchases-feb.csv');

    await purchases.getByRole('button', { name: 'Reject' }).click();
    const dialog = staffPage.getByRole('dialog', { name: 'Reject Purchase register' });
    await dialog.getByRole('button', { name: 'Reject Item' }).click();
    await dialog.getByText('A rejection needs a comment saying what is wrong').waitFor();
    await dialog.locator('#reject-reason').fill(REASON);
    await dialog.getByRole('button', { name: 'Reject Item' }).click();
    await expectToast(staffPage, 'Item Returned', 'Purchase register went back to the client.');
    await purchases.getByText(`Returned: ${REASON}`).waitFor();
    await staffPage.close();

    // The return's push (document-request.changed) refreshes the client's open page: no reload.
    await item(page, 'Purchase register').getByText(`Returned: ${REASON}`).waitFor({ timeout: 20_000 });
  });

  it("the client's user reads the reason, uploads again and says an optional item does not apply", async () => {
    const page = clientPage!;
    const purchases = item(page, 'Purchase register');
    await purchases.getByText(`Returned: ${REASON}`).waitFor();
    await page.getByText('1 of 2 required items in').waitFor();
    // Staff-only parts are not offered.
    await expect(page.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Create Link' }).count()).resolves.toBe(0);
    await expect(purchases.locator('input[type=file][capture=environment][accept="image/*"]').count()).resolves.toBe(1);
    expect(await sideways(page)).toBe(0);
    await portal.screenshot(page, 'requests-client-returned-phone');

    await purchases.getByLabel('Upload files for Purchase register').setInputFiles(file('purchases-march.csv', `bill,amount\n${PURCHASE_WORD},900\n`));
    await expectToast(page, 'File Uploaded', 'purchases-march.csv for Purchase register');
    await purchases.getByText('purchases-march.csv').waitFor();
    await page.getByText('2 of 2 required items in').waitFor();

    const bank = item(page, 'Bank statements');
    await bank.getByRole('button', { name: 'This does not apply' }).click();
    await bank.getByRole('button', { name: 'Save' }).click();
    await bank.getByText('Say why this item does not apply').waitFor();
    await bank.getByLabel('Why does this not apply? *').fill('We have no bank account in this name.');
    await bank.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Marked Not Applicable', 'Bank statements');
    await bank.getByText('Does not apply').waitFor();
    expect(await sideways(page)).toBe(0);
    await portal.screenshot(page, 'requests-client-phone');
    await page.setViewportSize(DESKTOP);
    await page.reload();
    await item(page, 'Bank statements').getByText('Does not apply').waitFor();
    await portal.screenshot(page, 'requests-client-desktop');
    await page.close();
  });

  it('the Admin accepts the items, the request completes, and the uploads are found by content search', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests/${requestId}`);
    await page.setViewportSize(PHONE);
    await item(page, 'Bank statements').getByText('Client comment: We have no bank account in this name.').waitFor();
    for (const title of ['Sales register', 'Purchase register']) {
      await item(page, title).getByRole('button', { name: 'Accept' }).click();
      await item(page, title).getByText('Accepted', { exact: true }).waitFor();
    }
    await page.getByTestId('request-status').getByText('Completed').waitFor();
    await page.getByText('2 of 2 required items done').waitFor();
    await expect(page.getByRole('button', { name: 'Send Now' }).count()).resolves.toBe(0);
    // A complete request's links open nothing any more: closed, nothing to revoke.
    await page.reload();
    await page.locator('.request-links__list').getByText('Closed').waitFor();
    await expect(page.getByRole('button', { name: /^Revoke/ }).count()).resolves.toBe(0);
    expect(await sideways(page)).toBe(0);
    await portal.screenshot(page, 'requests-completed-phone');

    const listed = (await call<DocumentRequestSummary[]>('GET', `/api/${TENANT}/document-requests?status=completed`, admin.token)).body;
    expect(listed.map((r) => r.id)).toEqual([requestId]);
    for (const [word, name] of [[SALES_WORD, 'sales-march.csv'], [PURCHASE_WORD, 'purchases-march.csv']] as const) {
      await eventually(async () => {
        const found = await call<PortalFile[]>('GET', `/api/${TENANT}/files?search=${word}`, admin.token);
        expect(found.body.map((f) => f.originalName)).toEqual([name]);
      }, 30_000, 250);
    }
    await page.close();
  });
});
