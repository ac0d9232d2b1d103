import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PDFDocument } from 'pdf-lib';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, SCREENSHOT_DIR, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * The staff Signatures page at 390 and 1440 px: the list with each signer's progress, the
 * audit trail, remind and void.
 */

const suffix = uniqueSuffix();
const TENANT = `miller${suffix}`;

describe('the Signatures page in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let request: SignatureRequest;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'signatures']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Miller Tax ${suffix}`, shortName: TENANT })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient('Jordan Household'))).body;
    const reportType = (await call<ReportType>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name: 'Form 8879' })).body;
    admin = (await addFirmUser(portal, TENANT, { username: `alex${suffix}`, fullName: 'Alex Admin', roleId: 1, clientIds: null })).login;
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    const form = new FormData();
    form.set('fileType', 'report');
    form.set('clientId', String(client.id));
    form.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), 'form-8879.pdf');
    const uploaded = await fetch(`${portal.baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
    const fileId = ((await uploaded.json()) as { files: { id: number }[] }).files[0]!.id;
    const created = await call<SignatureRequest>('POST', `/api/${TENANT}/signature-requests`, admin.token, {
      clientId: client.id, reportTypeId: reportType.id, title: 'Form 8879 (2026)', identity: 'sign_in_second_factor', sendNow: true, documents: [{ fileId }],
      signers: [{ name: 'Jordan Taxpayer', email: `jordan.${suffix}@example.com`, role: 'taxpayer' }, { name: 'Pat Spouse', email: `pat.${suffix}@example.com`, role: 'spouse' }],
      fields: [0, 1].map((signerIndex) => ({ documentIndex: 0, page: 1, x: 50, y: 600 + signerIndex * 60, width: 200, height: 40, type: 'signature', signerIndex })),
    });
    expect(created.status).toBe(201);
    request = created.body;
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it.each([[390, 844], [1440, 900]])('lists the request with each signer\'s progress at %i px, shows the audit trail, reminds', async (width, height) => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/signatures`);
    await page.setViewportSize({ width, height });
    const row = page.locator(`tr.signature-row-${request.id}`);
    await row.getByText('Form 8879 (2026)').waitFor();
    await row.getByText('Jordan Taxpayer (taxpayer): waiting').waitFor();
    await row.getByText('Pat Spouse (spouse): waiting').waitFor();
    await row.getByText('Waiting', { exact: true }).waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/signatures-${width}.png`, fullPage: true });
    await row.getByRole('button', { name: /expand|row/i }).first().click();
    await page.getByRole('list', { name: 'Audit trail' }).getByText(/sent/).waitFor();
    await row.getByRole('button', { name: 'Remind' }).click();
    await expectToast(page, 'Success', 'The signers have been reminded.');
    await page.close();
  });

  it('voids a request', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/signatures`);
    const row = page.locator(`tr.signature-row-${request.id}`);
    await row.getByRole('button', { name: 'Void' }).click();
    await expectToast(page, 'Success', 'The request was voided.');
    await row.getByText('Voided', { exact: true }).waitFor();
    expect((await call<SignatureRequest>('GET', `/api/${TENANT}/signature-requests/${request.id}`, admin.token)).body.status).toBe('voided');
  });
});
