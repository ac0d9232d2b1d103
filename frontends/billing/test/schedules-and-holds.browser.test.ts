import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { Invoice, InvoiceSchedule } from '@ledgerline/contracts/billing.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 43's recurring invoices and documents released on payment, through their screens: an
 * Admin makes a draft recur quarterly from the invoice's page and stops it again, and holds a
 * client's document until an invoice is paid from the file panel; the client's user sees it
 * waiting. Each step is checked against the API afterwards.
 */

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const FIRM = { name: `Oak & Ash ${suffix}`, shortName: `oakash${suffix}`, country: 'US' };
const TENANT = FIRM.shortName;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const DOCUMENT = `Signed 8879 ${suffix}.pdf`;
const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });
/** The browser's tomorrow as yyyy-mm-dd: the schedule dialog's default first issue date. */
function tomorrowIso(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('recurring schedules and payment holds in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let clientLogin: FirmLogin;
  let client: Client;
  let draft: Invoice;
  let sent: Invoice;
  let fileId = 0;

  async function upload(name: string): Promise<number> {
    const form = new FormData();
    form.append('fileType', 'company_document');
    form.append('clientId', String(client.id));
    form.append('file', new Blob(['%PDF-1.4 signed 8879'], { type: 'application/pdf' }), name);
    const r = await fetch(`${portal.baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
    expect(r.status).toBe(201);
    return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
  }

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'billing', 'documents']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    client = (await call<Client>('POST', `/api/${TENANT}/clients`, portal.adminToken, { ...testClient('Maple Family'), jurisdiction: 'US', state: 'US-NY' })).body;
    admin = (await addFirmUser(portal, TENANT, { username: `olga${suffix}`, fullName: 'Olga Admin', roleId: 1, clientIds: null })).login;
    clientLogin = (await addFirmUser(portal, TENANT, { username: `maple${suffix}`, fullName: 'Mia Maple', roleId: 4, clientIds: [client.id] })).login;
    await eventually(async () => expect((await call('GET', `/api/${TENANT}/invoices`, admin.token)).status).toBe(200), BUS_WAIT_MS, 200);
    const lines = [{ description: 'Monthly bookkeeping', unitPrice: 30000 }];
    draft = (await call<Invoice>('POST', `/api/${TENANT}/invoices`, admin.token, { clientId: client.id, lines })).body;
    const second = (await call<Invoice>('POST', `/api/${TENANT}/invoices`, admin.token, { clientId: client.id, lines: [{ description: 'Form 1040 preparation', unitPrice: 45000 }] })).body;
    sent = (await call<Invoice>('POST', `/api/${TENANT}/invoices/${second.id}/send`, admin.token)).body;
    expect(sent.number).toBe('INV-0001');
    fileId = await upload(DOCUMENT);
    // The files service learns invoices from billing's events: a probe file's hold is accepted once it knows this one.
    const probe = await upload(`probe ${suffix}.pdf`);
    await eventually(async () => expect((await call('PUT', `/api/${TENANT}/files/${probe}/payment-hold`, admin.token, { invoiceId: sent.id })).status).toBe(200), BUS_WAIT_MS, 200);
    expect((await call('DELETE', `/api/${TENANT}/files/${probe}/payment-hold`, admin.token)).status).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an Admin makes a draft recur quarterly from its page, then stops it (1440 px and 390 px)', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/invoices/${draft.id}`);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Draft invoice', level: 2 }).waitFor();
    const panel = page.getByRole('region', { name: 'Recurring' });
    await panel.getByText('Not recurring: this draft is sent once.').waitFor();

    await panel.getByRole('button', { name: 'Make Recurring' }).click();
    const dialog = page.getByRole('dialog', { name: 'Recurring Schedule' });
    await dialog.locator('.p-dropdown', { has: page.locator('#schedule-frequency') }).click();
    await pick(page, 'Quarterly').click();
    await dialog.locator('#schedule-due-days').fill('20');
    await dialog.getByRole('button', { name: 'Save Schedule' }).click();
    await expectToast(page, 'Success', 'Recurring schedule saved');
    await panel.getByText('Active').waitFor();
    await panel.getByText('due 20 days after issue').waitFor();
    await panel.getByText(/^Quarterly, next issue /).waitFor();

    const saved = await call<InvoiceSchedule>('GET', `/api/${TENANT}/invoices/${draft.id}/schedule`, admin.token);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ templateId: draft.id, frequency: 'quarterly', nextIssueDate: tomorrowIso(), dueInDays: 20, active: true, lastInvoiceId: null });
    await portal.screenshot(page, 'billing-schedule-1440');
    // On a phone (loaded afresh: the side navigation folds away at this width).
    await page.setViewportSize(PHONE);
    await page.reload();
    await panel.getByText('due 20 days after issue').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'billing-schedule-390');

    await panel.getByRole('button', { name: 'Stop Recurring' }).click();
    await expectToast(page, 'Success', 'Recurring schedule stopped');
    await panel.getByText('Not recurring: this draft is sent once.').waitFor();
    expect((await call('GET', `/api/${TENANT}/invoices/${draft.id}/schedule`, admin.token)).status).toBe(404);
    await page.close();
  });

  it('an Admin holds a client\'s document until an invoice is paid; the client\'s user sees it waiting (390 px and 1440 px)', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, '/file-upload');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Uploaded Files' }).waitFor();
    await page.getByRole('button', { name: 'Company Documents' }).click();
    const row = page.locator('.files-table tbody tr', { hasText: DOCUMENT });
    await row.getByRole('button', { name: `Release ${DOCUMENT} on payment` }).click();
    const dialog = page.getByRole('dialog', { name: 'Release on Payment' });
    await dialog.locator('.p-dropdown', { has: page.locator('#payment-hold-invoice') }).click();
    await pick(page, 'INV-0001 — $450.00 due').click();
    await dialog.getByRole('button', { name: 'Hold Until Paid' }).click();
    await expectToast(page, 'Success', `${DOCUMENT} is released on payment`);
    await row.getByText('Waiting for payment of INV-0001').waitFor();
    await row.getByRole('button', { name: `Release ${DOCUMENT} now` }).waitFor();
    await portal.screenshot(page, 'documents-payment-hold-1440');

    const listed = await call<PortalFile[]>('GET', `/api/${TENANT}/files?clientId=${client.id}&limit=500`, admin.token);
    expect(listed.body.find((f) => f.id === fileId)?.waitingForPayment).toEqual({ invoiceId: sent.id, invoiceNumber: 'INV-0001' });
    const download = await fetch(`${portal.baseUrl}/api/${TENANT}/files/${fileId}`, { headers: { authorization: `Bearer ${clientLogin.token}` } });
    expect(download.status).toBe(403);
    await page.close();

    const clientPage = await openAs(portal, 'http://localhost:' + new URL(portal.baseUrl).port, clientLogin, `/${TENANT}/client-reports`);
    await clientPage.setViewportSize(PHONE);
    await clientPage.getByRole('button', { name: 'Company Documents' }).click();
    const clientRow = clientPage.locator('.files-table tbody tr', { hasText: DOCUMENT });
    await clientRow.getByText('Waiting for payment of INV-0001').waitFor();
    expect(await clientRow.getByRole('button', { name: `Release ${DOCUMENT} now` }).count()).toBe(0);
    expect(await sideways(clientPage)).toBeLessThanOrEqual(0);
    await portal.screenshot(clientPage, 'documents-payment-hold-client-390');

    // Released by hand from the panel: the client's user may open it again.
    const again = await openAs(portal, portal.baseUrl, admin, '/file-upload');
    await again.setViewportSize(PHONE);
    await again.getByRole('button', { name: 'Company Documents' }).click();
    const againRow = again.locator('.files-table tbody tr', { hasText: DOCUMENT });
    await againRow.getByRole('button', { name: `Release ${DOCUMENT} now` }).click();
    await expectToast(again, 'Success', `${DOCUMENT} released`);
    await againRow.getByRole('button', { name: `Release ${DOCUMENT} on payment` }).waitFor();
    await portal.screenshot(again, 'documents-payment-hold-released-390');
    const after = await call<PortalFile[]>('GET', `/api/${TENANT}/files?clientId=${client.id}&limit=500`, admin.token);
    expect(after.body.find((f) => f.id === fileId)).not.toHaveProperty('waitingForPayment');
    await clientPage.close();
    await again.close();
  });

  it('an Admin holds a report type of the client from Reports, and releases it (1440 px and 390 px)', async () => {
    const reportType = (await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name: `Form 1040 ${suffix}` })).body;
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(client.id));
    form.append('reportTypeId', String(reportType.id));
    form.append('file', new Blob(['%PDF-1.4 return'], { type: 'application/pdf' }), `Return ${suffix}.pdf`);
    const uploaded = await fetch(`${portal.baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
    expect(uploaded.status).toBe(201);

    // The firm's one client and one report type are chosen for the Admin.
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/cpa-dashboard`);
    await page.setViewportSize(DESKTOP);
    const row = page.locator('.files-table tbody tr', { hasText: `Return ${suffix}.pdf` });
    await row.waitFor();
    const control = page.getByRole('group', { name: `Form 1040 ${suffix}: release on payment` });
    await control.getByRole('button', { name: 'Hold until paid…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Release on Payment' });
    await dialog.locator('.p-dropdown', { has: page.locator('#payment-hold-invoice') }).click();
    await pick(page, 'INV-0001 — $450.00 due').click();
    await dialog.getByRole('button', { name: 'Hold Until Paid' }).click();
    await expectToast(page, 'Success', `Form 1040 ${suffix} is released on payment`);
    await control.getByText(`Form 1040 ${suffix}: waiting for payment of INV-0001`).waitFor();
    await row.getByText('Waiting for payment of INV-0001').waitFor();
    await portal.screenshot(page, 'documents-report-type-hold-1440');
    const holds = await call<{ reportTypeId: number; invoiceNumber: string; filesWaiting: number }[]>('GET', `/api/${TENANT}/files/clients/${client.id}/payment-holds`, admin.token);
    expect(holds.body).toEqual([{ clientId: client.id, reportTypeId: reportType.id, invoiceId: sent.id, invoiceNumber: 'INV-0001', filesWaiting: 1 }]);

    await page.setViewportSize(PHONE);
    await page.reload();
    await control.getByRole('button', { name: 'Release' }).click();
    await expectToast(page, 'Success', `Form 1040 ${suffix} released`);
    await control.getByRole('button', { name: 'Hold until paid…' }).waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'documents-report-type-released-390');
    expect((await call('GET', `/api/${TENANT}/files/clients/${client.id}/payment-holds`, admin.token)).body).toEqual([]);
    await page.close();
  });
});
