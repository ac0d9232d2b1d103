import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploadBlankPdf } from '@ledgerline/kit/testing/upload-blank-pdf.ts';
import { launchBrowser, setLocalStorage, type TestBrowser } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import { TOTP_IDENTITY_METHOD, type SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';

/*
 * The signing page a link opens, on a 390 px phone and a 1440 px desktop: a signer without an
 * account agrees to sign electronically, opens the documents, answers the firm's question,
 * fills a field, types their signature and signs; the request completes.
 */

let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let browser: TestBrowser;
let call: ReturnType<typeof apiClient>;
const FIRM = `signpage${randomBytes(3).toString('hex')}`;
const mailbox = testMailbox();
const SHOTS = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'signing-shots-'));

beforeAll(async () => {
  // The built-in issuer even where CI exports KEYCLOAK_URL: a Keycloak firm's realm keeps the authenticator the portal case signs with.
  portal = await startTestPortal({ KEYCLOAK_URL: '', PUBLIC_BASE_URL: 'http://portal.invalid', SCHEDULER_POLL_MS: '100', ...mailbox.env }, { logger: mailbox.logger });
  call = apiClient(portal.gatewayUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe.each([390, 1440])('the signing link page at %i px', (width) => {
  it('walks a signer through consent, the documents, the knowledge check, a field and a typed signature', async () => {
    const firm = `${FIRM}${width}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Miller Tax LLC', shortName: firm })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${firm}/clients`, portal.adminToken, testClient('Jordan Household'))).body;
    const reportType = (await call<ReportType>('POST', `/api/${firm}/report-types`, portal.adminToken, { name: 'Engagement letter' })).body;
    const admin = await createSignedInUser(call, portal.adminToken, firm, { username: `admin_${firm}`, fullName: 'Alex Admin', roleId: 1, clientIds: null, reportTypeIds: null });
    const fileId = await uploadBlankPdf(portal.gatewayUrl, firm, admin.token, { clientId: client.id, name: 'engagement-letter.pdf' });
    const email = `jordan.${firm}@example.com`;
    const created = await call<SignatureRequest>('POST', `/api/${firm}/signature-requests`, admin.token, {
      clientId: client.id, reportTypeId: reportType.id, title: 'Engagement letter 2027', message: 'Please sign before we start.', identity: 'knowledge', sendNow: true,
      documents: [{ fileId }],
      signers: [{ name: 'Jordan Client', email, role: 'taxpayer', knowledge: [{ question: 'Your prior-year AGI', answer: '48,150' }] }],
      fields: [
        { documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 },
        { documentIndex: 0, page: 1, x: 50, y: 660, width: 200, height: 20, type: 'text', signerIndex: 0, label: 'Phone' },
      ],
    });
    expect(created.status).toBe(201);
    const mail = await mailbox.waitForMail(email, 1, 20_000);
    const path = /portal\.invalid(\/sign\/[A-Za-z0-9_.-]+)/.exec(mail.Text)![1]!;

    const page = await browser.newPage(portal.gatewayUrl);
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${portal.gatewayUrl}${path}`);
    await page.getByText('Miller Tax LLC').waitFor();
    await page.getByText('Signing as Jordan Client (taxpayer)').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.getByRole('button', { name: 'I agree' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByText('Open the documents').click();
    await (await popup).close();
    await page.getByLabel('Your prior-year AGI').fill('$48150');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByLabel('Phone (page 1) *').fill('555-0100');
    await page.getByRole('textbox', { name: 'Your signature' }).fill('Jordan Client');
    await page.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    await page.screenshot({ path: join(SHOTS, `signing-page-${width}.png`), fullPage: true });
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed.').waitFor();

    const done = await call<SignatureRequest>('GET', `/api/${firm}/signature-requests/${created.body.id}`, admin.token);
    expect(done.body.status).toBe('completed');
    expect(done.body.signers[0]).toMatchObject({ identityResult: 'passed: 1 of 1 answers the firm holds' });
    expect(done.body.signers[0]!.browser).toContain('Chrome');
  });
});

/** A firm whose Client user Taylor is the one signer of a sent Form 8879 request; the path the notice e-mail links to. */
async function portalSigner(firm: string) {
  expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Miller Tax LLC', shortName: firm })).status).toBe(201);
  const client = (await call<Client>('POST', `/api/${firm}/clients`, portal.adminToken, testClient('Jordan Household'))).body;
  const reportType = (await call<ReportType>('POST', `/api/${firm}/report-types`, portal.adminToken, { name: 'Form 8879' })).body;
  const admin = await createSignedInUser(call, portal.adminToken, firm, { username: `admin_${firm}`, fullName: 'Alex Admin', roleId: 1, clientIds: null, reportTypeIds: null });
  const email = `taylor.${firm}@example.com`;
  const taxpayer = await createSignedInUser(call, portal.adminToken, firm, { username: `taylor_${firm}`, fullName: 'Taylor Taxpayer', roleId: 4, clientIds: [client.id], reportTypeIds: null, email } as never);
  const fileId = await uploadBlankPdf(portal.gatewayUrl, firm, admin.token, { clientId: client.id, name: 'form-8879.pdf' });
  let created = { status: 0, body: {} as SignatureRequest };
  // The service learns the Client user from identity's events.
  await eventually(async () => {
    created = await call<SignatureRequest>('POST', `/api/${firm}/signature-requests`, admin.token, {
      clientId: client.id, reportTypeId: reportType.id, title: 'Form 8879 (2026)', identity: 'sign_in_second_factor', sendNow: true, documents: [{ fileId }],
      signers: [{ userId: taxpayer.id, role: 'taxpayer' }],
      fields: [{ documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 }],
    });
    expect(created.status).toBe(201);
  }, 20_000, 200);
  expect(created.status).toBe(201);
  const notice = await mailbox.waitForMail(email, 1, 20_000);
  const path = /portal\.invalid(\/sign\/portal\/[^\s]+)/.exec(notice.Text)![1]!;
  return { admin, taxpayer, email, created, path };
}

describe('a signed-in Client user on the signing page', () => {
  it('signs with an e-mailed code using the portal\'s stored sign-in, and is asked to sign in without one', async () => {
    const firm = `${FIRM}portal`;
    const { admin, taxpayer, email, created, path } = await portalSigner(firm);

    const page = await browser.newPage(portal.gatewayUrl);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${portal.gatewayUrl}${path}`);
    await page.getByText('Sign in to the portal first').waitFor();
    await setLocalStorage(page, { token: taxpayer.token });
    await page.goto(`${portal.gatewayUrl}${path}`);
    await page.getByText('Signing as Taylor Taxpayer (taxpayer)').waitFor();
    await page.getByRole('button', { name: 'I agree' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Open the documents' }).click();
    await (await popup).close();
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(email, 2, 20_000)).Subject)![1]!;
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed.').waitFor();
    const done = await call<SignatureRequest>('GET', `/api/${firm}/signature-requests/${created.body.id}`, admin.token);
    expect(done.body.status).toBe('completed');
    expect(done.body.signers[0]!.identityResult).toBe(`passed: code e-mailed to ${email}`);
  });

  it('signs with a code from their authenticator app, offered above the e-mailed code', async () => {
    const firm = `${FIRM}totp`;
    const { admin, taxpayer, created, path } = await portalSigner(firm);
    const setup = await call<{ secret: string }>('POST', `/api/${firm}/auth/mfa/totp/setup`, taxpayer.token, {});
    expect((await call('POST', `/api/${firm}/auth/mfa/totp/confirm`, taxpayer.token, { code: totpCode(setup.body.secret) })).status).toBe(200);

    const page = await browser.newPage(portal.gatewayUrl);
    await page.setViewportSize({ width: 390, height: 844 });
    await setLocalStorage(page, { token: taxpayer.token });
    await page.goto(`${portal.gatewayUrl}${path}`);
    await page.getByText('Signing as Taylor Taxpayer (taxpayer)').waitFor();
    await page.getByRole('button', { name: 'I agree' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Open the documents' }).click();
    await (await popup).close();
    await page.getByText('Enter the 6-digit code from your authenticator app').waitFor();
    const top = async (text: string) => (await page.getByText(text, { exact: true }).boundingBox())!.y;
    expect(await top('Enter the 6-digit code from your authenticator app')).toBeLessThan(await top('E-mail me a code'));
    const totp = page.getByRole('textbox', { name: 'Authenticator code', exact: true });
    // The confirmation used the current step: a code of the next one is fresh, and a made-up one is refused.
    const fresh = totpCode(setup.body.secret, Date.now() + 30_000);
    await totp.fill(fresh === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm authenticator code', exact: true }).click();
    await page.getByText('not valid or was already used').waitFor();
    await page.screenshot({ path: join(SHOTS, 'signing-page-portal-totp-390.png'), fullPage: true });
    await totp.fill(fresh);
    await page.getByRole('button', { name: 'Confirm authenticator code', exact: true }).click();
    await page.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed.').waitFor();
    const done = await call<SignatureRequest>('GET', `/api/${firm}/signature-requests/${created.body.id}`, admin.token);
    expect(done.body.status).toBe('completed');
    expect(done.body.signers[0]!.identityResult).toBe(`passed: ${TOTP_IDENTITY_METHOD} of the signed-in user`);
  });
});
