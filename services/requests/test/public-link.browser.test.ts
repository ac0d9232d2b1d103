import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser } from '@ledgerline/kit/testing/browser.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { CreatedRequestLink, DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';

/*
 * The link page on a 390×844 phone: a person without an account sees the firm and what is
 * needed, uploads an item with its progress, says another does not apply; the firm sees both.
 */

let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let browser: TestBrowser;
let call: ReturnType<typeof apiClient>;
const FIRM = `link${randomBytes(3).toString('hex')}`;
const SHOTS = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'requests-shots-'));

beforeAll(async () => {
  portal = await startTestPortal({ PUBLIC_BASE_URL: 'http://portal.invalid' });
  call = apiClient(portal.gatewayUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('the document-request link page (390×844)', () => {
  it('uploads an item and marks one not applicable without signing in', async () => {
    expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Sharma & Co', shortName: FIRM })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${FIRM}/clients`, portal.adminToken, testClient('Mehta Traders'))).body;
    const admin = await createSignedInUser(call, portal.adminToken, FIRM, { username: `admin_${FIRM}`, fullName: 'Asha Admin', roleId: 1, clientIds: null, reportTypeIds: null });
    const request = (await call<DocumentRequest>('POST', `/api/${FIRM}/document-requests`, admin.token, {
      clientId: client.id, title: 'March GSTR-3B', message: 'Please send these by the 13th.', dueDate: '2030-04-13',
      items: [{ title: 'Sales register' }, { title: 'Purchase register' }, { title: 'Bank statements', required: false }],
    })).body;
    const link = (await call<CreatedRequestLink>('POST', `/api/${FIRM}/document-requests/${request.id}/links`, admin.token, {})).body;
    const path = new URL(link.url).pathname;

    const page = await browser.newPage(portal.gatewayUrl);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${portal.gatewayUrl}${path}`);
    await page.getByText('Sharma & Co').waitFor();
    await page.getByText('0 of 2 required items in').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'request-link-phone.png'), fullPage: true });

    const file = join(mkdtempSync(join(tmpdir(), 'upload-')), 'sales-march.csv');
    writeFileSync(file, 'invoice,amount\nINV-1,1000\n');
    const sales = page.locator('section.item', { hasText: 'Sales register' });
    await sales.locator('input[type=file]').setInputFiles(file);
    await page.getByText('1 of 2 required items in').waitFor();
    await sales.getByText('1 file received').waitFor();

    const purchases = page.locator('section.item', { hasText: 'Purchase register' });
    await purchases.getByRole('button', { name: 'This does not apply' }).click();
    await purchases.getByRole('textbox').fill('No purchases in March');
    await purchases.getByRole('button', { name: 'This does not apply' }).click();
    await page.getByText('2 of 2 required items in').waitFor();
    await page.screenshot({ path: join(SHOTS, 'request-link-phone-done.png'), fullPage: true });

    const seen = (await call<DocumentRequest>('GET', `/api/${FIRM}/document-requests/${request.id}`, admin.token)).body;
    expect(seen.items.map((i) => [i.title, i.status, i.files.map((f) => f.fileName)])).toEqual([
      ['Sales register', 'uploaded', ['sales-march.csv']], ['Purchase register', 'not_applicable', []], ['Bank statements', 'requested', []],
    ]);

    // Revoked: the page says so instead of showing the request.
    expect((await call('DELETE', `/api/${FIRM}/document-requests/${request.id}/links/${link.id}`, admin.token)).status).toBe(200);
    await page.reload();
    await page.getByText('This link has expired or was revoked. Ask the firm for a new one.').waitFor();
  });
});
