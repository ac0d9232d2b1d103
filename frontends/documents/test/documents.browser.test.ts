import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { expectToast, startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';
import { buildDocx } from '../../../services/files/test/extraction/extraction-fixtures.ts';

const SCANNED_INVOICE = path.resolve(import.meta.dirname, '../../../services/files/test/fixtures/scanned-invoice.png');

const suffix = uniqueSuffix();
const firm = { name: `Zenith Partners ${suffix}`, shortName: `zenith${suffix}` };
const TENANT = firm.shortName;
const clientDetails = (name: string, email: string) => ({ name, address: '12 Harbour Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email });
const cpa = { username: `carla${suffix}`, password: 'carla-secret-1', fullName: 'Carla Price' };
const clientUser = { username: `zoe${suffix}`, password: 'zoe-secret-1', fullName: 'Zoe Client' };

const PDF_NAME = 'q1-gst-report.pdf';
const DOCX_NAME = 'engagement-letter.docx';
const PNG_NAME = 'scanned-invoice.png';
const OTHER_CLIENT_REPORT = 'orbit-annual-report.pdf';
const SVG_NAME = 'zenith-logo.svg';
// If this script ran, the tab's title would say so: served sandboxed, it must not.
const SVG_BYTES = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="teal"/><script>document.title = "script ran"</script></svg>');

interface Login { token: string; user: Record<string, unknown> }

describe('documents screens in Chromium', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let page: Page;
  let call: ReturnType<typeof apiClient>;
  let tenant: { id: number; name: string; shortName: string; isActive: boolean };
  let cpaLogin: Login;
  let clientLogin: Login;
  let zenithId: number;
  let orbitId: number;
  let gstReturnsId: number;
  let pdfBytes: Buffer;
  const docxBytes = Buffer.from(buildDocx(['Engagement letter for Zenith Exports']));

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'documents', 'chat']);
    baseUrl = portal.baseUrl;
    call = apiClient(baseUrl);
    const admin = portal.adminToken;
    const created = await call<{ id: number; name: string }>('POST', '/api/companies', admin, firm);
    expect(created.status).toBe(201);
    tenant = { id: created.body.id, name: firm.name, shortName: TENANT, isActive: true };

    const zenith = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, admin, clientDetails('Zenith Exports', 'office@zenith.test'));
    const orbit = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, admin, clientDetails('Orbit Foods', 'office@orbit.test'));
    expect([zenith.status, orbit.status]).toEqual([201, 201]);
    [zenithId, orbitId] = [zenith.body.id, orbit.body.id];
    const gst = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, admin, { name: 'GST Returns', description: 'Quarterly GST filings' });
    const audit = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, admin, { name: 'Audit Reports' });
    expect([gst.status, audit.status]).toEqual([201, 201]);
    gstReturnsId = gst.body.id;

    const roles = await call<{ id: number; name: string }[]>('GET', `/api/${TENANT}/roles`, admin);
    const roleId = (name: string) => roles.body.find((role) => role.name === name)!.id;
    const addUser = async (user: typeof cpa, role: string, clientIds: number[], reportTypeIds: number[] | null) => {
      const reply = await call('POST', `/api/${TENANT}/users`, admin, { ...user, roleId: roleId(role), clientIds, reportTypeIds });
      expect(reply.status).toBe(201);
      const login = await call<Login>('POST', `/api/${TENANT}/auth/login`, null, { username: user.username, password: user.password });
      expect(login.status).toBe(200);
      return login.body;
    };
    cpaLogin = await addUser(cpa, 'CPA', [zenithId, orbitId], [gstReturnsId, audit.body.id]);
    clientLogin = await addUser(clientUser, 'Client', [zenithId], null);

    // A real text PDF, printed by the test's own Chromium.
    const printer = await portal.browser.context.newPage();
    await printer.setContent('<h1>Q1 GST Report</h1><p>Output tax and input credit for Zenith Exports.</p>');
    pdfBytes = await printer.pdf({ format: 'A4' });
    await printer.close();

    // A report of the other client, through the API; its success also shows the files
    // service has learnt the firm, the clients and the CPA's access lists from the events.
    await eventually(async () => {
      const form = new FormData();
      form.append('fileType', 'report');
      form.append('clientId', String(orbitId));
      form.append('reportTypeId', String(gstReturnsId));
      form.append('file', new Blob([new Uint8Array(pdfBytes)], { type: 'application/pdf' }), OTHER_CLIENT_REPORT);
      const reply = await fetch(`${baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${cpaLogin.token}` }, body: form });
      expect([reply.status, await reply.text()]).toEqual([201, expect.anything()]);
    }, 30_000, 250);

    page = await portal.browser.newPage(baseUrl);
    await setLocalStorage(page, { token: cpaLogin.token, user: cpaLogin.user, currentTenant: tenant });
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  const fileRow = (name: string) => page.locator('.files-table .p-datatable-tbody tr', { hasText: name });
  const dropdown = (id: string) => page.locator('.p-dropdown', { has: page.locator(`#${id}`) });

  it('a CPA uploads a PDF, a Word document and a scan in one dialog, each with its own progress', async () => {
    await page.goto(`${baseUrl}/${TENANT}/cpa-dashboard`);
    await page.getByRole('heading', { name: 'Reports', exact: true, level: 2 }).waitFor();
    // The first accessible report type is chosen; two clients mean the CPA picks one.
    await expect(page.getByRole('button', { name: 'GST Returns' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await fileRow(OTHER_CLIENT_REPORT).waitFor();
    await dropdown('files-client').click();
    const filter = page.locator('.p-dropdown-panel .p-dropdown-filter');
    await filter.fill('nobody');
    await page.locator('.p-dropdown-panel').getByText('No client found.').waitFor();
    await filter.fill('Zen');
    await page.getByRole('option', { name: 'Zenith Exports' }).click();
    await page.getByText('No files found for this report type.').waitFor();

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Data' });
    await dialog.waitFor();
    // The page's client and report type come along; without files Upload stays disabled.
    await expect(dropdown('upload-client').locator('.p-dropdown-label').textContent()).resolves.toBe('Zenith Exports');
    await expect(dropdown('upload-report-type').locator('.p-dropdown-label').textContent()).resolves.toBe('GST Returns');
    await dialog.getByText('Please select at least one file to upload').waitFor();
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
    await expect(upload.isDisabled()).resolves.toBe(true);

    await dialog.locator('#upload-files').setInputFiles([
      { name: PDF_NAME, mimeType: 'application/pdf', buffer: pdfBytes },
      { name: DOCX_NAME, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', buffer: docxBytes },
      { name: PNG_NAME, mimeType: 'image/png', buffer: await readFile(SCANNED_INVOICE) },
    ]);
    const items = dialog.locator('.upload-file');
    await expect(items.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-file-name')))).resolves.toEqual([PDF_NAME, DOCX_NAME, PNG_NAME]);
    for (const item of await items.all()) {
      await expect(item.locator('.p-progressbar').isVisible()).resolves.toBe(true);
      await expect(item.locator('.p-progressbar-label').textContent()).resolves.toBe('0%');
    }
    await portal.screenshot(page, 'documents-upload-dialog');

    // Records every state of the three bars while they upload, one request after another.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressStates: string[] }).progressStates = seen;
      const record = () => {
        const bars = [...document.querySelectorAll('.upload-file .p-progressbar')].map((bar) => bar.getAttribute('aria-valuenow'));
        const state = bars.join('|');
        if (bars.length && seen[seen.length - 1] !== state) seen.push(state);
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
    });
    await upload.click();
    await expectToast(page, 'Success', 'File uploaded successfully');
    await dialog.waitFor({ state: 'hidden' });
    const states = await page.evaluate(() => (window as unknown as { progressStates: string[] }).progressStates);
    // Each file reached 100 % on its own, one after another (the dialog closes as the last completes).
    expect(states).toEqual(expect.arrayContaining(['100|0|0', '100|100|0']));
    expect(states.indexOf('100|0|0')).toBeLessThan(states.indexOf('100|100|0'));

    for (const name of [PDF_NAME, DOCX_NAME, PNG_NAME]) await fileRow(name).waitFor();
    await expect(fileRow(OTHER_CLIENT_REPORT).count()).resolves.toBe(0);
    const cells = await fileRow(PDF_NAME).locator('td').allTextContents();
    const today = new Date().toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });
    expect(cells.slice(1, 4)).toEqual(['Zenith Exports', today, 'ReportGST Returns']);
    // The chat remote fills the Chat button (frontends/chat/test walks the dialog itself).
    await expect(fileRow(PDF_NAME).getByRole('button', { name: `Chat about ${PDF_NAME}` }).isEnabled()).resolves.toBe(true);
    await portal.screenshot(page, 'documents-reports');
  }, 120_000);

  it('finds the scan by a word only its image holds, once extraction has run', async () => {
    const search = page.locator('#files-search');
    const hit = fileRow(PNG_NAME).locator('mark.file-snippet__match', { hasText: /zephyrine/i });
    // Extraction (OCR for the scan) runs in the background after the upload.
    await eventually(async () => {
      // Clearing shows the whole list again, so the next search asks the server anew.
      await search.fill('');
      await fileRow(PDF_NAME).waitFor();
      await search.fill('Zephyrine');
      await hit.first().waitFor({ timeout: 3_000 });
    }, 120_000, 500);
    await expect(fileRow(PDF_NAME).count()).resolves.toBe(0);
    await portal.screenshot(page, 'documents-search');
    await search.fill('');
    await fileRow(PDF_NAME).waitFor();
  }, 150_000);

  it('views the PDF in a new tab and downloads the Word document with its bytes intact', async () => {
    const popup = page.waitForEvent('popup');
    await fileRow(PDF_NAME).getByRole('button', { name: `View ${PDF_NAME}` }).click();
    const tab = await popup;
    // The tab opens blank with the click, then goes to the file once it has come.
    await tab.waitForURL(new RegExp(`^blob:${baseUrl}/`), { waitUntil: 'commit' });
    // An image or PDF stays open after the 1 s clean-up.
    await page.waitForTimeout(1_500);
    expect(tab.isClosed()).toBe(false);
    await tab.close();

    // An SVG can carry script: it opens through a signed public link, served sandboxed, never from a blob: URL.
    const svgForm = new FormData();
    svgForm.append('fileType', 'report');
    svgForm.append('clientId', String(zenithId));
    svgForm.append('reportTypeId', String(gstReturnsId));
    svgForm.append('file', new Blob([new Uint8Array(SVG_BYTES)], { type: 'image/svg+xml' }), SVG_NAME);
    const svgUpload = await fetch(`${baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${cpaLogin.token}` }, body: svgForm });
    expect(svgUpload.status).toBe(201);
    const svgId = ((await svgUpload.json()) as { files: { id: number }[] }).files[0]!.id;
    // Another list (all report types) is asked for, so the new file shows.
    await page.locator('label[for="files-display-all"]').click();
    const svgPopup = page.waitForEvent('popup');
    await fileRow(SVG_NAME).getByRole('button', { name: `View ${SVG_NAME}` }).click();
    const svgTab = await svgPopup;
    await svgTab.waitForURL(new RegExp(`^${baseUrl}/api/${TENANT}/public/files/${svgId}\\?token=`));
    const served = await fetch(svgTab.url());
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    await expect(svgTab.title()).resolves.not.toBe('script ran');
    await svgTab.close();
    await page.locator('label[for="files-display-all"]').click();

    const download = page.waitForEvent('download');
    await fileRow(DOCX_NAME).getByRole('button', { name: `Download ${DOCX_NAME}` }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(DOCX_NAME);
    const bytes = await readFile((await saved.path())!);
    expect(bytes.equals(docxBytes)).toBe(true);
    await expectToast(page, 'Success', 'File downloaded successfully');

    // Both were followed by an activity log post.
    await eventually(async () => {
      const logs = await call<{ action: string; fileName: string | null }[]>('GET', `/api/${TENANT}/activity-logs`, cpaLogin.token);
      expect(logs.body.map((log) => `${log.action} ${log.fileName}`)).toEqual(expect.arrayContaining([`view ${PDF_NAME}`, `view ${SVG_NAME}`, `download ${DOCX_NAME}`]));
    }, 10_000, 200);
    // The SVG was only for this check: the later screens list the Zenith files exactly.
    expect((await call('DELETE', `/api/${TENANT}/files/${svgId}`, cpaLogin.token)).status).toBe(200);
  }, 60_000);

  it('asks before closing the upload dialog with a chosen file not uploaded', async () => {
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Data' });
    await dialog.waitFor();
    await dialog.locator('#upload-files').setInputFiles({ name: 'not-sent.pdf', mimeType: 'application/pdf', buffer: pdfBytes });
    await dialog.locator('.upload-file[data-file-name="not-sent.pdf"]').waitFor();
    await page.keyboard.press('Escape');
    const confirm = page.locator('.p-confirm-dialog');
    await confirm.getByText('What you entered in this form has not been saved.').waitFor();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(fileRow('not-sent.pdf').count()).resolves.toBe(0);
  }, 30_000);

  it('deletes a file after the confirmation', async () => {
    await fileRow(DOCX_NAME).getByRole('button', { name: `Delete ${DOCX_NAME}` }).click();
    const confirm = page.locator('.p-confirm-dialog');
    await confirm.getByText(`Are you sure you want to delete "${DOCX_NAME}"? This action cannot be undone.`).waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Success', `File "${DOCX_NAME}" deleted successfully.`);
    await fileRow(DOCX_NAME).waitFor({ state: 'detached' });
    await fileRow(PDF_NAME).waitFor();
  }, 30_000);

  it('files a firm document without a client, shows its badge and size, and lets its uploader delete it', async () => {
    await page.goto(`${baseUrl}/${TENANT}/firm-documents`);
    await page.getByText('No firm documents found').waitFor();
    await page.getByRole('button', { name: 'Upload Document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Data' });
    await expect(dropdown('upload-file-type').locator('.p-dropdown-label').textContent()).resolves.toBe('Firm Document');
    await expect(dropdown('upload-client').locator('.p-dropdown-label').textContent()).resolves.toBe('No Client');
    await dropdown('upload-document-type').click();
    await page.getByRole('option', { name: 'Firm Registration Certificate' }).click();
    await dialog.locator('#upload-files').setInputFiles({ name: 'registration.pdf', mimeType: 'application/pdf', buffer: pdfBytes });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectToast(page, 'Success', 'File uploaded successfully');

    const row = fileRow('registration.pdf');
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells.slice(1, 5)).toEqual(['Firm Registration Certificate', '—', `${(pdfBytes.length / 1024 / 1024).toFixed(2)} MB`, cpa.fullName]);
    await portal.screenshot(page, 'documents-firm-documents');

    await row.getByRole('button', { name: 'Delete registration.pdf' }).click();
    const confirm = page.locator('.p-confirm-dialog');
    await confirm.getByText('Are you sure you want to delete this document?').waitFor();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByText('No firm documents found').waitFor();
  }, 60_000);

  it('lists reports and company documents apart on the file panel', async () => {
    await page.goto(`${baseUrl}/file-upload`);
    await page.getByRole('heading', { name: 'Uploaded Files' }).waitFor();
    await fileRow(PDF_NAME).waitFor();
    await fileRow(OTHER_CLIENT_REPORT).waitFor();
    await dropdown('panel-client').click();
    await page.getByRole('option', { name: 'Orbit Foods' }).click();
    await fileRow(PDF_NAME).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await fileRow(PDF_NAME).waitFor();
    await page.getByRole('button', { name: 'Company Documents' }).click();
    await page.getByText('No files found. Upload a file to get started.').waitFor();
  }, 30_000);

  it("shows a Client user only their own client's reports", async () => {
    const clientPage = await portal.browser.newPage(baseUrl);
    await setLocalStorage(clientPage, { token: clientLogin.token, user: clientLogin.user, currentTenant: tenant });
    await clientPage.goto(`${baseUrl}/${TENANT}/client-reports`);
    await clientPage.getByRole('heading', { name: 'Reports', exact: true, level: 2 }).waitFor();
    await clientPage.getByText('Reports for Zenith Exports').waitFor();
    const rows = clientPage.locator('.files-table .p-datatable-tbody tr');
    await rows.filter({ hasText: PDF_NAME }).waitFor();
    await rows.filter({ hasText: PNG_NAME }).waitFor();
    const names = await rows.locator('td:first-child').allTextContents();
    expect(names.map((name) => name.trim()).sort()).toEqual([PDF_NAME, PNG_NAME].sort());
    expect(await clientPage.getByText(OTHER_CLIENT_REPORT).count()).toBe(0);
    await expect(rows.first().locator('td').nth(1).textContent()).resolves.toBe('GST Returns');

    await clientPage.getByRole('button', { name: 'Show Filters' }).click();
    await clientPage.getByRole('button', { name: 'Hide Filters' }).waitFor();
    await clientPage.locator('#client-reports-start-date').waitFor();
    await portal.screenshot(clientPage, 'documents-client-reports');

    // Their company documents are one click away, and both kinds are searched by content.
    await clientPage.getByRole('button', { name: 'Company Documents' }).click();
    await clientPage.getByText('No company documents available').waitFor();
    await clientPage.locator('#client-reports-search').fill('no-such-words-anywhere');
    await clientPage.getByText("No files match 'no-such-words-anywhere'").waitFor();
    await clientPage.getByRole('button', { name: 'Reports', exact: true }).click();
    await clientPage.getByRole('button', { name: 'Reset Filters' }).click();
    await rows.filter({ hasText: PDF_NAME }).waitFor();
    await clientPage.close();
  }, 60_000);

  it('pages a long list on the server, 25 rows at a time, and goes back to page one when a filter changes', async () => {
    // 26 company documents of Orbit Foods, in two requests (at most 20 files each).
    const names = Array.from({ length: 26 }, (_, i) => `paged-${String(i + 1).padStart(2, '0')}.txt`);
    for (const batch of [names.slice(0, 20), names.slice(20)]) {
      const form = new FormData();
      form.append('fileType', 'company_document');
      form.append('clientId', String(orbitId));
      for (const name of batch) form.append('file', new Blob([`${name} contents`], { type: 'text/plain' }), name);
      const reply = await fetch(`${baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${cpaLogin.token}` }, body: form });
      expect(reply.status).toBe(201);
    }
    const offsets: string[] = [];
    const listener = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/${TENANT}/files` && url.searchParams.get('fileType') === 'company_document') offsets.push(`${url.searchParams.get('limit')}/${url.searchParams.get('offset')}`);
    };
    page.on('request', listener);
    try {
      // The Client user's page shared this browser's storage: sign the CPA back in.
      await setLocalStorage(page, { token: cpaLogin.token, user: cpaLogin.user, currentTenant: tenant });
      await page.goto(`${baseUrl}/file-upload`);
      await page.getByRole('button', { name: 'Company Documents' }).click();
      // Newest first: the first page ends at the second file, the first file is alone on page 2.
      await fileRow('paged-26.txt').waitFor();
      await expect(fileRow('paged-01.txt').count()).resolves.toBe(0);
      await expect(page.locator('.files-table .p-datatable-tbody tr').count()).resolves.toBe(25);
      await page.locator('.p-paginator').getByRole('button', { name: '2' }).click();
      await fileRow('paged-01.txt').waitFor();
      await fileRow('paged-26.txt').waitFor({ state: 'detached' });
      expect(offsets).toContain('25/25');

      await dropdown('panel-client').click();
      await page.getByRole('option', { name: 'Orbit Foods' }).click();
      await fileRow('paged-26.txt').waitFor();
      expect(offsets.at(-1)).toBe('25/0');
    } finally {
      page.off('request', listener);
    }
  }, 60_000);
});
