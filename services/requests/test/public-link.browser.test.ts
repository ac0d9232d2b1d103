import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser, type TestBrowser } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { mailpit, type ReceivedMail } from '@ledgerline/kit/testing/mailpit.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { CreatedRequestLink, DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';

/*
 * The link page on a 390 px phone and a 1440 px desktop: a person without an account sees the
 * firm and what is needed, uploads several files at once, says another item does not apply in
 * one step, reads the firm's reason for a returned item, and asks for a new link once it ends.
 */

let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let browser: TestBrowser;
let call: ReturnType<typeof apiClient>;
const FIRM = `link${randomBytes(3).toString('hex')}`;
/** Mailpit in CI: the returned item's e-mail is read back from it. */
const mail = mailpit();
const SHOTS = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'requests-shots-'));

beforeAll(async () => {
  portal = await startTestPortal({ PUBLIC_BASE_URL: 'http://portal.invalid', SCHEDULER_POLL_MS: '200', ...(mail ? { SMTP_URL: mail.smtpUrl } : {}) });
  call = apiClient(portal.gatewayUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe.each([390, 1440])('the document-request link page at %i px', (width) => {
  it('uploads two files in one pick, marks one not applicable in one step, shows a returned item\'s reason, says all done, and offers a new link once the link ends', async () => {
    const firm = `${FIRM}${width}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Sharma & Co', shortName: firm, timeZone: 'Asia/Kolkata' })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${firm}/clients`, portal.adminToken, testClient('Mehta Traders'))).body;
    const admin = await createSignedInUser(call, portal.adminToken, firm, { username: `admin_${firm}`, fullName: 'Asha Admin', roleId: 1, clientIds: null, reportTypeIds: null });
    const request = (await call<DocumentRequest>('POST', `/api/${firm}/document-requests`, admin.token, {
      clientId: client.id, title: 'March GSTR-3B', message: 'Please send these by the 13th.', dueDate: '2030-04-13',
      items: [{ title: 'Sales register' }, { title: 'Purchase register' }, { title: 'Bank statements', required: false }],
    })).body;
    const link = (await call<CreatedRequestLink>('POST', `/api/${firm}/document-requests/${request.id}/links`, admin.token, { email: `mehta.${firm}@example.com` })).body;
    const path = new URL(link.url).pathname;

    const page = await browser.newPage(portal.gatewayUrl);
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${portal.gatewayUrl}${path}`);
    await page.getByText('Sharma & Co').waitFor();
    // An Indian firm (by its zone) writes the day first.
    await page.getByText('For Mehta Traders · due 13 Apr 2030').waitFor();
    await page.getByText('0 of 2 required items in').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(SHOTS, `request-link-${width}.png`), fullPage: true });

    const dir = mkdtempSync(join(tmpdir(), 'upload-'));
    writeFileSync(join(dir, 'sales-march.csv'), 'invoice,amount\nINV-1,1000\n');
    writeFileSync(join(dir, 'sales-credit-notes.csv'), 'note,amount\nCN-1,50\n');
    const sales = page.locator('section.item', { hasText: 'Sales register' });
    await sales.locator('input[type=file]').setInputFiles([join(dir, 'sales-march.csv'), join(dir, 'sales-credit-notes.csv')]);
    await sales.getByText('2 files received').waitFor();
    await page.getByText('1 of 2 required items in').waitFor();

    const purchases = page.locator('section.item', { hasText: 'Purchase register' });
    await purchases.getByRole('textbox', { name: 'Does not apply? Say why:' }).fill('No purchases in March');
    await purchases.getByRole('button', { name: 'This does not apply' }).click();
    await page.getByText('2 of 2 required items in').waitFor();
    await page.getByText(/^All done, thank you!/).waitFor();

    const seen = (await call<DocumentRequest>('GET', `/api/${firm}/document-requests/${request.id}`, admin.token)).body;
    expect(seen.items.map((i) => [i.title, i.status, i.files.map((f) => f.fileName).sort()])).toEqual([
      ['Sales register', 'uploaded', ['sales-credit-notes.csv', 'sales-march.csv']], ['Purchase register', 'not_applicable', []], ['Bank statements', 'requested', []],
    ]);

    // The firm returns the sales register: its reason shows beside it, and all done is gone.
    expect((await call('PATCH', `/api/${firm}/document-requests/${request.id}/items/${request.items[0]!.id}`, admin.token, { status: 'rejected', comment: 'The credit notes are for February' })).status).toBe(200);
    await page.reload();
    await sales.getByText('Returned: The credit notes are for February').waitFor();
    expect(await page.getByText(/^All done, thank you!/).count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, `request-link-returned-${width}.png`), fullPage: true });
    if (mail) {
      // The link's recipient is told too, with the reason and a fresh link.
      let returned: ReceivedMail | undefined;
      await eventually(async () => {
        returned = (await mail.messagesTo(`mehta.${firm}@example.com`)).find((m) => m.Subject === 'Please look again: Sales register — March GSTR-3B');
        expect(returned).toBeDefined();
      }, 15_000, 300);
      expect(returned!.Text).toContain('The reason: The credit notes are for February');
      expect(returned!.Text).toContain('Please upload it again by 13 Apr 2030.');
      expect(returned!.Text).toMatch(/http:\/\/portal\.invalid\/document-request\/\S+/);
    }

    // Ended (revoked here; an expired one reads the same): the page offers a new link by e-mail, and answers as it would for any token.
    expect((await call('DELETE', `/api/${firm}/document-requests/${request.id}/links/${link.id}`, admin.token)).status).toBe(200);
    await page.reload();
    await page.getByText('This link has expired or was revoked. Ask the firm for a new one.').waitFor();
    await page.getByRole('button', { name: 'E-mail me a new link' }).click();
    await page.getByText('If this link was sent to an e-mail address, a new link is on its way there.', { exact: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
});
