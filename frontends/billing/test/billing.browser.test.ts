import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 43's screens as they exist this round: an Admin adds a service to the price list,
 * invoices a client for it with a live total, sends it (it takes its number), records a
 * cheque in part and reads the rest in the ageing; the client's user, on a phone, finds it
 * among the invoices to pay and is told to pay by bank transfer (no payment provider here).
 */

const suffix = uniqueSuffix();
const FIRM = { name: `Hill & Vale ${suffix}`, shortName: `hillvale${suffix}`, country: 'US' };
const TENANT = FIRM.shortName;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
/** The toast sits over the page heading's buttons at the top right: closed once read. */
async function dismissToasts(page: Page): Promise<void> {
  const messages = page.locator('.p-toast-message');
  // One at a time: closing one re-renders the others.
  for (let left = 5; left > 0 && (await messages.count()) > 0; left -= 1) await messages.first().locator('.p-toast-icon-close').click().catch(() => undefined);
  await messages.first().waitFor({ state: 'detached' });
}
const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });

/**
 * The editor's live PDF preview: the next POST /invoices/preview whose first line has this
 * quantity is answered with a PDF, and the frame then shows a new blob URL (the request and
 * the URL are checked, not the pixels).
 */
async function previewShown(page: Page, quantity: number, previousUrl: string | null): Promise<string> {
  const answered = await page.waitForResponse((r) => {
    if (r.request().method() !== 'POST' || !r.url().endsWith('/invoices/preview')) return false;
    const body = JSON.parse(r.request().postData() ?? '{}') as { lines?: { quantity?: number }[] };
    return body.lines?.[0]?.quantity === quantity;
  });
  expect([answered.status(), answered.headers()['content-type']]).toEqual([200, 'application/pdf']);
  const shown = await page.waitForFunction((previous) => {
    const frame = document.querySelector<HTMLIFrameElement>('[data-testid="invoice-preview-frame"]');
    return frame && frame.src.startsWith('blob:') && frame.src !== previous ? frame.src : false;
  }, previousUrl);
  const url = (await shown.jsonValue()) as string;
  expect(url).toMatch(/^blob:/);
  return url;
}

describe('billing in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let clientLogin: FirmLogin;
  let client: Client;
  let invoiceId = 0;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'billing', 'dashboard']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    client = (await call<Client>('POST', `/api/${TENANT}/clients`, portal.adminToken, { ...testClient('Birch Family'), jurisdiction: 'US', state: 'US-NY' })).body;
    admin = (await addFirmUser(portal, TENANT, { username: `hana${suffix}`, fullName: 'Hana Admin', roleId: 1, clientIds: null })).login;
    clientLogin = (await addFirmUser(portal, TENANT, { username: `birch${suffix}`, fullName: 'Ben Birch', roleId: 4, clientIds: [client.id] })).login;
    expect((await call('PUT', `/api/${TENANT}/billing/settings`, admin.token, { bankDetails: 'Routing 021000021, account 1234567890', paymentTermsDays: 15 })).status).toBe(200);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an Admin prices a service, invoices the client for it, sends it and records a cheque in part (1440 px)', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/billing`);
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Billing', exact: true, level: 2 }).waitFor();
    await page.locator('nav.side-nav .side-nav__link', { hasText: 'Billing' }).waitFor();

    await page.getByRole('tab', { name: 'Services' }).click();
    await page.getByLabel('Service name').fill('Form 1040 preparation');
    await page.getByLabel('Default price').fill('450.00');
    await page.getByRole('button', { name: 'Add Service' }).click();
    await page.getByRole('cell', { name: '$450.00' }).waitFor();

    await page.getByRole('button', { name: 'New Invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Invoice' });
    await dialog.locator('.p-dropdown', { has: page.locator('#invoice-client') }).click();
    await pick(page, 'Birch Family').click();
    await dialog.locator('.p-dropdown', { has: page.locator('#invoice-line-1-service') }).click();
    await pick(page, 'Form 1040 preparation').click();
    await expect(dialog.getByLabel('Description of line 1').inputValue()).resolves.toBe('Form 1040 preparation');
    await expect(dialog.getByTestId('invoice-editor-total').textContent()).resolves.toBe('$450.00');
    // The PDF as it would print, beside the editor, and again after a line changes.
    const firstPreview = await previewShown(page, 1, null);
    const [formBox, previewBox] = [await dialog.locator('form').boundingBox(), await dialog.getByRole('region', { name: 'Invoice preview' }).boundingBox()];
    expect(previewBox!.x).toBeGreaterThanOrEqual(formBox!.x + formBox!.width - 1);
    const secondShown = previewShown(page, 2, firstPreview);
    await dialog.getByLabel('Quantity of line 1').fill('2');
    await secondShown;
    await expect(dialog.getByTestId('invoice-editor-total').textContent()).resolves.toBe('$900.00');
    await portal.screenshot(page, 'invoice-editor-preview-1440');
    await dialog.getByLabel('Quantity of line 1').fill('1');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await expectToast(page, 'Success', 'Draft invoice created');
    await dismissToasts(page);
    await page.waitForURL(/\/invoices\/\d+$/);
    invoiceId = Number(page.url().split('/').pop());

    await page.getByRole('button', { name: 'Send' }).click();
    await expectToast(page, 'Success', 'Invoice INV-0001 sent');
    await dismissToasts(page);
    await page.getByRole('heading', { name: 'Invoice INV-0001', level: 2 }).waitFor();

    await page.getByRole('button', { name: 'Record Payment' }).click();
    const payment = page.getByRole('dialog', { name: 'Record Payment' });
    await payment.locator('#payment-amount').fill('200.00');
    await payment.locator('#payment-reference').fill('Cheque 1042');
    await payment.getByRole('button', { name: 'Record Payment' }).click();
    await expectToast(page, 'Success', 'Payment recorded');
    await expect(page.getByTestId('invoice-balance').textContent()).resolves.toBe('$250.00');
    await page.getByText('Partially paid').first().waitFor();
    await page.getByRole('cell', { name: 'Cheque 1042' }).waitFor();

    const saved = (await call<Invoice>('GET', `/api/${TENANT}/invoices/${invoiceId}`, admin.token)).body;
    expect(saved).toMatchObject({ number: 'INV-0001', status: 'partially_paid', total: 45000, amountPaid: 20000, balance: 25000, clientId: client.id });

    await page.goto(`${portal.baseUrl}/${TENANT}/billing`);
    await page.getByRole('tab', { name: 'Receivables' }).click();
    const row = page.locator('.receivables-table tbody tr', { hasText: 'Birch Family' });
    await expect(row.locator('td').last().textContent()).resolves.toBe('$250.00');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it('on a phone the Admin\'s editor shows the PDF preview below the lines, updated after a line changes (390 px)', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/billing`);
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: 'New Invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Invoice' });
    await dialog.locator('.p-dropdown', { has: page.locator('#invoice-client') }).click();
    await pick(page, 'Birch Family').click();
    await dialog.getByLabel('Description of line 1').fill('Bookkeeping, March');
    await dialog.getByLabel('Unit price of line 1').fill('120.00');
    const firstPreview = await previewShown(page, 1, null);
    const [formBox, previewBox] = [await dialog.locator('form').boundingBox(), await dialog.getByRole('region', { name: 'Invoice preview' }).boundingBox()];
    expect(previewBox!.y).toBeGreaterThanOrEqual(formBox!.y + formBox!.height - 1);
    const secondShown = previewShown(page, 3, firstPreview);
    await dialog.getByLabel('Quantity of line 1').fill('3');
    await secondShown;
    await portal.screenshot(page, 'invoice-editor-preview-390');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // Previews save nothing: still the one invoice of the first case.
    expect((await call<Invoice[]>('GET', `/api/${TENANT}/invoices`, admin.token)).body.map((i) => i.number)).toEqual(['INV-0001']);
    await page.close();
  });

  it('the client\'s user finds it among the invoices to pay on a phone, told to pay by bank transfer (no card without a provider) (390 px)', async () => {
    expect(invoiceId).toBeGreaterThan(0);
    const page = await openAs(portal, portal.baseUrl, clientLogin, `/${TENANT}/dashboard`);
    await page.setViewportSize(PHONE);
    // The home's "What we need from you" lists it with what is left to pay.
    const toPay = page.locator('.my-work__panel', { hasText: 'Invoices to Pay' });
    await toPay.getByText('Invoice INV-0001').waitFor();
    await toPay.getByText('$250.00 to pay').waitFor();
    await page.goto(`${portal.baseUrl}/${TENANT}/invoices`);
    await page.getByRole('heading', { name: 'Invoices', exact: true, level: 2 }).waitFor();
    await page.getByText('Invoices to pay: 1').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.getByRole('link', { name: 'INV-0001' }).click();
    await page.waitForURL(new RegExp(`/invoices/${invoiceId}$`));
    await expect(page.getByTestId('invoice-balance').textContent()).resolves.toBe('$250.00');
    await page.getByText('Pay by bank transfer to the account on the invoice (PDF), quoting INV-0001.').waitFor();
    expect(await page.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Record Payment' }).count()).toBe(0);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
