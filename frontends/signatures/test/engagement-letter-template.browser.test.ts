import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { SignatureRequest, SignatureTemplate } from '@ledgerline/contracts/signatures.contracts.ts';
import { addFirmUser, chooseInDropdown, expectToast, openAs, type PortalBrowser, SCREENSHOT_DIR, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * An engagement letter from a template (issue 41), at 390 and 1440 px: an Admin saves a letter
 * template on the Templates tab (merge fields put in with their buttons), makes a request from
 * it in the create dialog ("From a template", tax year and fee filled in) to a client by link;
 * the client signs it, and the sealed PDF reads the merged letter. In the second case the
 * client declines with a reason, and the request ends declined with it.
 */

const BUS_WAIT_MS = 20_000;
const suffix = uniqueSuffix();
const mailbox = testMailbox();

describe('an engagement letter from a template (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'signatures'], { PUBLIC_BASE_URL: 'http://portal.invalid', SCHEDULER_POLL_MS: '100', SIGNING_LINK_ATTEMPTS_PER_MINUTE: '1000', ...mailbox.env }, { logger: mailbox.logger });
    call = apiClient(portal.baseUrl);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** The signer opens their link: consent, view, the e-mailed code; then `finish` signs or declines. */
  async function openLink(width: number, email: string, name: string): Promise<Page> {
    const mail = await mailbox.waitForMail(email, 1, BUS_WAIT_MS);
    expect(mail.Subject).toMatch(/^Please sign: Engagement letter/);
    const path = /portal\.invalid(\/sign\/[A-Za-z0-9_.-]+)/.exec(mail.Text)![1]!;
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${portal.baseUrl}${path}`);
    await page.getByText(`Signing as ${name}`).waitFor();
    return page;
  }

  it.each([[390, 'signs'], [1440, 'signs'], [390, 'declines'], [1440, 'declines']] as const)('at %i px the client %s an engagement letter made from a template', async (width, outcome) => {
    const tenant = `letter${suffix}${width}${outcome.slice(0, 1)}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: 'Rivera CPA Group', shortName: tenant })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${tenant}/clients`, portal.adminToken, testClient('Sam Rivera'))).body;
    const letterType = (await call<ReportType>('POST', `/api/${tenant}/report-types`, portal.adminToken, { name: 'Engagement letter' })).body;
    const admin = (await addFirmUser(portal, tenant, { username: `avery${suffix}${width}${outcome.slice(0, 1)}`, fullName: 'Avery Admin', roleId: 1, clientIds: null })).login;
    const signerEmail = `sam.${tenant}@example.com`;

    // The Admin saves the letter on the Templates tab, a merge field put in by its button.
    const page = await openAs(portal, portal.baseUrl, admin, `/${tenant}/signatures`);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await page.getByRole('tab', { name: 'Templates' }).click();
    await page.getByRole('button', { name: 'New template' }).click();
    const editor = page.getByRole('dialog', { name: 'New Signature Template' });
    await editor.locator('#template-name').fill('Engagement letter 1040');
    await editor.locator('#template-body').fill('Dear {{client.name}},\n\nThis letter confirms that {{firm.name}} will prepare your {{tax_year}} returns for a fee of {{fee}}. Sent to ');
    await editor.locator('#template-body').press('End');
    await editor.getByRole('button', { name: 'Insert Client address' }).click();
    expect(await editor.locator('#template-body').inputValue()).toMatch(/Sent to \{\{client\.address\}\}$/);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `signature-template-editor-${width}.png`), fullPage: true });
    await editor.getByRole('button', { name: 'Create Signature Template' }).click();
    await expectToast(page, 'Success', 'Template "Engagement letter 1040" saved.');
    await editor.waitFor({ state: 'hidden' });
    const [template] = (await call<SignatureTemplate[]>('GET', `/api/${tenant}/signature-templates`, admin.token)).body;
    expect(template).toMatchObject({ name: 'Engagement letter 1040', kind: 'engagement_letter', signers: [{ role: 'taxpayer' }] });
    expect(template!.mergeFields).toEqual(['client.name', 'firm.name', 'tax_year', 'fee', 'client.address']);
    await page.locator(`.signature-template-row-${template!.id}`).getByText('Letter text (client.name, firm.name, tax_year, fee, client.address)').waitFor();

    // The request, from the template: the merge values the firm fills in, the client by link.
    await page.getByRole('tab', { name: 'Requests' }).click();
    await page.getByRole('button', { name: 'New signature request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Signature Request' });
    await chooseInDropdown(page, 'signature-client', 'Sam Rivera');
    await chooseInDropdown(page, 'signature-report-type', 'Engagement letter');
    await dialog.getByText('From a template').click();
    await chooseInDropdown(page, 'signature-template', 'Engagement letter 1040 (Engagement letter)');
    expect(await dialog.locator('#signature-title').inputValue()).toBe('Engagement letter 1040');
    await dialog.locator('#signature-title').fill('Engagement letter 2026');
    await dialog.locator('#merge-tax_year').fill('2026');
    await dialog.locator('#merge-fee').fill('1500');
    expect(await dialog.locator('#signer-role-0').inputValue()).toBe('taxpayer');
    await dialog.locator('#signer-name-0').fill('Sam Rivera');
    await dialog.locator('#signer-email-0').fill(signerEmail);
    expect(await dialog.locator('#signature-document').count()).toBe(0);
    // The letter as it will be, before anything is made: a new tab with the PDF.
    const preview = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Preview letter' }).click();
    await (await preview).close();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `signature-dialog-template-${width}.png`), fullPage: true });
    await dialog.getByRole('button', { name: 'Create Signature Request' }).click();
    await page.getByText('the signers have been e-mailed').first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const [request] = (await call<SignatureRequest[]>('GET', `/api/${tenant}/signature-requests`, admin.token)).body;
    expect(request).toMatchObject({ status: 'sent', clientId: client.id, reportTypeId: letterType.id, title: 'Engagement letter 2026' });
    await page.close();

    const signing = await openLink(width, signerEmail, 'Sam Rivera');
    await signing.getByRole('button', { name: 'I agree' }).click();
    // The page draws itself again once the consent is recorded: the next step shows then.
    await signing.getByText('Open the documents').waitFor();
    if (outcome === 'declines') {
      await signing.getByText('Decline to sign').click();
      await signing.getByRole('textbox', { name: 'Why you decline' }).fill('The fee is higher than we agreed');
      expect(await sideways(signing)).toBeLessThanOrEqual(0);
      await signing.screenshot({ path: join(SCREENSHOT_DIR, `signing-page-letter-decline-${width}.png`), fullPage: true });
      await signing.getByRole('button', { name: 'Decline', exact: true }).click();
      await signing.getByText('You declined. The firm has been told.').waitFor();
      await signing.close();
      const declined = (await call<SignatureRequest>('GET', `/api/${tenant}/signature-requests/${request!.id}`, admin.token)).body;
      expect(declined).toMatchObject({ status: 'declined', signers: [{ status: 'declined', declineReason: 'The fee is higher than we agreed' }] });
      return;
    }
    const popup = signing.waitForEvent('popup');
    await signing.getByText('Open the documents').click();
    await (await popup).close();
    await signing.getByRole('button', { name: 'E-mail me a code' }).click();
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(signerEmail, 2, BUS_WAIT_MS)).Subject)![1]!;
    await signing.getByLabel('Code').fill(code);
    await signing.getByRole('button', { name: 'Confirm' }).click();
    await signing.getByRole('textbox', { name: 'Your signature' }).fill('Sam Rivera');
    await signing.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    expect(await sideways(signing)).toBeLessThanOrEqual(0);
    await signing.screenshot({ path: join(SCREENSHOT_DIR, `signing-page-letter-${width}.png`), fullPage: true });
    await signing.getByRole('button', { name: 'Sign', exact: true }).click();
    await signing.getByText('Thank you: you have signed.').waitFor();
    await signing.close();

    // Completed and sealed: the signed PDF reads the merged letter.
    await eventually(async () => expect((await call<SignatureRequest>('GET', `/api/${tenant}/signature-requests/${request!.id}`, admin.token)).body.status).toBe('completed'), BUS_WAIT_MS, 300);
    const signed = await fetch(`${portal.baseUrl}/api/${tenant}/signature-requests/${request!.id}/document`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(signed.status).toBe(200);
    const file = join(SCREENSHOT_DIR, `engagement-letter-${width}.pdf`);
    writeFileSync(file, Buffer.from(await signed.arrayBuffer()));
    const text = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' }).stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Dear Sam Rivera,');
    expect(text).toContain('Rivera CPA Group will prepare your 2026 returns for a fee of $1,500.00. Sent to 1 Main Street, Springfield');
    expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toContain('Signature is Valid');
  });
});
