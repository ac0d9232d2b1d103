import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';
import { apiClient, createSignedInUser, testClient } from '@ledgerline/server/portal-harness.ts';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { ComplianceItem, GenerationResult } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { TOTP_IDENTITY_METHOD, type SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';
import { chooseInDropdown, type PortalBrowser, SCREENSHOT_DIR, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * A married couple's Form 8879 from the compliance tracker (issues 41 and 42), at 390 and 1440
 * px: an Admin picks "Request signature" on the Form 1040 item, fills the create dialog (the PDF,
 * the taxpayer as the client's portal user and the spouse by name and e-mail, blocks at the end
 * of the last page, the sign-in second factor), the item shows "Ready to sign", the taxpayer signs
 * in the portal with a code from their authenticator app and the spouse from their link with the
 * code the mail brings, the request completes, the sealed PDF is filed as a report that
 * pdfsig verifies, and the tracker item shows it. The Admin invoiced the preparation fee (due in
 * 15 days) first and chose it under "Release on payment of" (issue 43): the filed PDF waits until
 * the fee is paid.
 */

const BUS_WAIT_MS = 20_000;
const suffix = uniqueSuffix();
const mailbox = testMailbox();

describe('a married couple signs their 8879 (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    // The built-in issuer even where CI exports KEYCLOAK_URL: the taxpayer signs with an authenticator the portal keeps.
    portal = await startPortalBrowser(['shell', 'compliance', 'signatures'], { KEYCLOAK_URL: '', PUBLIC_BASE_URL: 'http://portal.invalid', SCHEDULER_POLL_MS: '100', SIGNING_LINK_ATTEMPTS_PER_MINUTE: '1000', ...mailbox.env }, { logger: mailbox.logger });
    call = apiClient(portal.baseUrl);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** Picks an option of a PrimeReact dropdown by its visible label. */
  async function signFromLink(width: number, email: string, name: string, shot: string | null): Promise<void> {
    const mail = await mailbox.waitForMail(email, 1, BUS_WAIT_MS);
    const path = /portal\.invalid(\/sign\/[A-Za-z0-9_.-]+)/.exec(mail.Text)![1]!;
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${portal.baseUrl}${path}`);
    await page.getByText(`Signing as ${name}`).waitFor();
    await page.getByRole('button', { name: 'I agree' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByText('Open the documents').click();
    await (await popup).close();
    // The page reads its state again until the viewing shows, however late it is recorded: no reload.
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(email, 2, BUS_WAIT_MS)).Subject)![1]!;
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('textbox', { name: 'Your signature' }).fill(name);
    await page.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    if (shot) await page.screenshot({ path: join(SCREENSHOT_DIR, shot), fullPage: true });
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed.').waitFor();
    await page.close();
  }

  /** The taxpayer, signed in to the portal, confirms it is them with a fresh code of their authenticator app. */
  async function signInPortal(width: number, email: string, token: string, secret: string): Promise<void> {
    // The signing mail (the household also gets the fee's invoice mail, in either order).
    let path = '';
    await eventually(async () => {
      const found = (await mailbox.messagesTo(email)).map((m) => /portal\.invalid(\/sign\/portal\/[^\s]+)/.exec(m.Text)?.[1]).find(Boolean);
      expect(found).toBeDefined();
      path = found!;
    }, BUS_WAIT_MS, 200);
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: 844 });
    await setLocalStorage(page, { token });
    await page.goto(`${portal.baseUrl}${path}`);
    await page.getByText('Signing as Jordan Taxpayer').waitFor();
    await page.getByRole('button', { name: 'I agree' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByText('Open the documents').click();
    await (await popup).close();
    await page.getByText('Enter the 6-digit code from your authenticator app').waitFor();
    // Setting the authenticator up used the current step: the next one's code is fresh.
    await page.getByRole('textbox', { name: 'Authenticator code', exact: true }).fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Confirm authenticator code', exact: true }).click();
    await page.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `signing-page-8879-portal-totp-${width}.png`), fullPage: true });
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed.').waitFor();
    await page.close();
  }

  it.each([390, 1440])('from the tracker item to a sealed, filed PDF at %i px', async (width) => {
    const tenant = `couple${suffix}${width}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Miller Tax LLC', shortName: tenant })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${tenant}/clients`, portal.adminToken, testClient('Jordan & Pat Household'))).body;
    const form1040 = (await call<ReportType>('POST', `/api/${tenant}/report-types`, portal.adminToken, { name: 'Form 1040' })).body;
    const username = `alex${suffix}${width}`;
    expect((await call('POST', `/api/${tenant}/users`, portal.adminToken, { username, password: 'password1', fullName: 'Alex Admin', roleId: 1, clientIds: null, reportTypeIds: null })).status).toBe(201);
    const admin = (await call<{ token: string; user: Record<string, unknown>; tenant?: unknown }>('POST', `/api/${tenant}/auth/login`, null, { username, password: 'password1' })).body;
    // The taxpayer is the household's portal user, with an authenticator app.
    const jordanEmail = `jordan.${tenant}@example.com`;
    const jordan = await createSignedInUser(call, portal.adminToken, tenant, { username: `jordan${suffix}${width}`, fullName: 'Jordan Taxpayer', roleId: 4, clientIds: [client.id], reportTypeIds: null, email: jordanEmail } as never);
    const setup = await call<{ secret: string }>('POST', `/api/${tenant}/auth/mfa/totp/setup`, jordan.token, {});
    expect((await call('POST', `/api/${tenant}/auth/mfa/totp/confirm`, jordan.token, { code: totpCode(setup.body.secret) })).status).toBe(200);
    const year = new Date().getUTCFullYear() + 1;
    const schedule = await call<{ id: number }>('POST', `/api/${tenant}/compliance-schedules`, admin.token, { clientId: client.id, reportTypeId: form1040.id, frequency: 'yearly', dueMonths: ['4'] });
    expect(schedule.status).toBe(201);
    const item = (await call<GenerationResult>('POST', `/api/${tenant}/compliance-schedules/${schedule.body.id}/generate/${year}`, admin.token)).body.items[0]! as ComplianceItem;
    // The 8879 the tax software printed: two pages, the signature blocks go at the end of the last.
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const text of ['Form 8879 IRS e-file Signature Authorization', 'Part III Taxpayer Declaration and Signature Authorization']) doc.addPage([612, 792]).drawText(text, { x: 50, y: 740, size: 12, font });
    const upload = new FormData();
    upload.set('fileType', 'report');
    upload.set('clientId', String(client.id));
    upload.set('reportTypeId', String(form1040.id));
    upload.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), 'form-8879-jordan.pdf');
    expect((await fetch(`${portal.baseUrl}/api/${tenant}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: upload })).status).toBe(201);
    // The preparation fee, due in 15 days (issue 43): the signed 8879 is released to the household only once it is paid.
    const dueDate = new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10);
    let fee: Invoice | undefined;
    await eventually(async () => {
      const drafted = await call<Invoice>('POST', `/api/${tenant}/invoices`, admin.token, { clientId: client.id, lines: [{ description: 'Form 1040 preparation', unitPrice: 45000 }], dueDate });
      expect(drafted.status).toBe(201);
      fee = drafted.body;
    }, BUS_WAIT_MS, 300);
    expect((await call<Invoice>('POST', `/api/${tenant}/invoices/${fee!.id}/send`, admin.token)).body).toMatchObject({ number: 'INV-0001', dueDate });

    // The Admin opens the tracker and asks for the signatures from the item.
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await setLocalStorage(page, { token: admin.token, user: admin.user, ...(admin.tenant ? { currentTenant: admin.tenant } : {}) });
    await page.goto(`${portal.baseUrl}/${tenant}/compliance`);
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    const row = page.locator(`.compliance-row-${item.id}`);
    await row.getByRole('button', { name: `Request signature: Form 1040 ${item.period}` }).click();
    await page.waitForURL(new RegExp(`/${tenant}/signatures\\?new=1`));
    const dialog = page.getByRole('dialog', { name: 'New Signature Request' });
    await dialog.waitFor();
    expect(await dialog.locator('#signature-title').inputValue()).toBe(`Form 1040 ${item.period}: signature`);
    await dialog.locator('.p-dropdown-label', { hasText: 'Jordan & Pat Household' }).waitFor();
    await chooseInDropdown(page, 'signature-document', 'form-8879-jordan.pdf (Form 1040)');
    await chooseInDropdown(page, 'signer-user-0', `Jordan Taxpayer (${jordanEmail})`);
    await dialog.getByRole('button', { name: 'Add signer' }).click();
    expect(await dialog.locator('#signer-role-1').inputValue()).toBe('spouse');
    await dialog.locator('#signer-name-1').fill('Pat Spouse');
    await dialog.locator('#signer-email-1').fill(`pat.${tenant}@example.com`);
    await chooseInDropdown(page, 'signature-release-invoice', 'INV-0001');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `signature-dialog-${width}-signers.png`), fullPage: true });
    await dialog.locator('.p-dialog-content').evaluate((el) => { el.scrollTop = 0; });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `signature-dialog-${width}.png`), fullPage: true });
    await dialog.getByRole('button', { name: 'Create Signature Request' }).click();
    await page.getByText('the signers have been e-mailed').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).search).toBe('');

    const [request] = (await call<SignatureRequest[]>('GET', `/api/${tenant}/signature-requests`, admin.token)).body;
    expect(request).toMatchObject({ status: 'sent', trackerItemId: item.id, clientId: client.id, reportTypeId: form1040.id, identity: 'sign_in_second_factor', releaseOnPaymentOf: fee!.id, releaseInvoiceNumber: 'INV-0001' });
    const full = (await call<SignatureRequest>('GET', `/api/${tenant}/signature-requests/${request!.id}`, admin.token)).body;
    expect(full.fields.map((f) => [f.page, f.signerIndex, f.type])).toEqual([[2, 0, 'signature'], [2, 1, 'signature']]);
    expect(full.signers.map((s) => [s.name, s.role])).toEqual([['Jordan Taxpayer', 'taxpayer'], ['Pat Spouse', 'spouse']]);

    // The tracker item shows "Ready to sign".
    await eventually(async () => expect((await call<ComplianceItem>('GET', `/api/${tenant}/compliance-tracker/${item.id}`, admin.token)).body.stage).toBe('ready-to-sign'), BUS_WAIT_MS, 300);
    await page.goto(`${portal.baseUrl}/${tenant}/compliance`);
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await page.locator(`.compliance-row-${item.id}`).getByText('Ready to sign').waitFor();
    await page.close();

    // The taxpayer signs in the portal with their authenticator; the spouse from their link with the code e-mailed to them.
    await signInPortal(width, jordanEmail, jordan.token, setup.body.secret);
    await signFromLink(width, `pat.${tenant}@example.com`, 'Pat Spouse', `signing-page-8879-${width}.png`);

    // Completed, sealed, filed as a report of the client: pdfsig (poppler) verifies the whole document.
    let done = full;
    await eventually(async () => {
      done = (await call<SignatureRequest>('GET', `/api/${tenant}/signature-requests/${request!.id}`, admin.token)).body;
      expect(done).toMatchObject({ status: 'completed', signedFileId: expect.any(Number) });
    }, BUS_WAIT_MS, 300);
    expect(done.signers.map((s) => s.identityResult)).toEqual([`passed: ${TOTP_IDENTITY_METHOD} of the signed-in user`, `passed: code e-mailed to pat.${tenant}@example.com`]);
    const files = (await call<PortalFile[]>('GET', `/api/${tenant}/files?clientId=${client.id}&limit=50`, admin.token)).body;
    expect(files.find((f) => f.id === done.signedFileId)).toMatchObject({ fileType: 'report', reportTypeId: form1040.id, waitingForPayment: { invoiceId: fee!.id, invoiceNumber: 'INV-0001' } });
    // Filed held: the household cannot open it until the fee is paid.
    const asJordan = () => fetch(`${portal.baseUrl}/api/${tenant}/files/${done.signedFileId}`, { headers: { authorization: `Bearer ${jordan.token}` } }).then((r) => r.status);
    expect(await asJordan()).toBe(403);
    expect((await call('POST', `/api/${tenant}/invoices/${fee!.id}/payments`, admin.token, { amount: 45000, method: 'cheque' })).status).toBe(201);
    await eventually(async () => expect(await asJordan()).toBe(200), BUS_WAIT_MS, 300);
    const signed = await fetch(`${portal.baseUrl}/api/${tenant}/signature-requests/${request!.id}/document`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(signed.status).toBe(200);
    const file = join(SCREENSHOT_DIR, `married-8879-${width}.pdf`);
    writeFileSync(file, Buffer.from(await signed.arrayBuffer()));
    const check = spawnSync('pdfsig', [file], { encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toContain('Signature is Valid');
    expect(check.stdout).toContain('Total document signed');

    // The tracker item shows the signed document ("Form 1040 … signed <date>"), which opens the sealed PDF.
    await eventually(async () => expect((await call<ComplianceItem>('GET', `/api/${tenant}/compliance-tracker/${item.id}`, admin.token)).body.signedDocument)
      .toEqual({ fileId: done.signedFileId, signedAt: done.completedAt, title: done.title }), BUS_WAIT_MS, 300);
    const tracker = await portal.browser.newPage(portal.baseUrl);
    await tracker.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await setLocalStorage(tracker, { token: admin.token, user: admin.user, ...(admin.tenant ? { currentTenant: admin.tenant } : {}) });
    await tracker.goto(`${portal.baseUrl}/${tenant}/compliance`);
    await tracker.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await tracker.locator(`.compliance-row-${item.id}`).getByRole('button', { name: `Open the signed document: ${done.title} signed ` }).waitFor();
    expect(await sideways(tracker)).toBeLessThanOrEqual(0);
    await tracker.screenshot({ path: join(SCREENSHOT_DIR, `tracker-signed-8879-${width}.png`), fullPage: true });
    await tracker.close();
  });
});
