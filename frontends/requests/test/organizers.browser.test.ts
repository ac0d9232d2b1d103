import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PDFDocument } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem, GenerationResult } from '@ledgerline/contracts/compliance.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { OrganizerDetail } from '@ledgerline/contracts/organizers.contracts.ts';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 42's "Done when", in Chromium at 390 and 1440 px: an Admin sends the shipped 1040
 * organizer from a tracker item; the client answers on the page (a dependant, a yes to 1099-B),
 * reloads halfway and finds the answers kept, and submits; the answers' PDF is a report of the
 * client and the 1099-B is asked for in a document request; the item moves from "Waiting on
 * client" to "In preparation" and the client's home says "we are preparing it"; next year's
 * organizer opens with last year's answers.
 */

const BUS_WAIT_MS = 20_000;
const suffix = uniqueSuffix();
const TENANT = `organize${suffix}`;
async function blankPdf(): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  return new Uint8Array(await doc.save());
}
/** One SurveyJS question, found by its title. */
const statusTag = (page: Page, status: string) => page.locator('.request-summary .p-tag', { hasText: status });
const question = (page: Page, title: string | RegExp) => page.locator('.sd-question', { has: page.locator('.sd-question__title', { hasText: title }) });

describe('organizers in Chromium (issue 42)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let reportTypeId: number;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'compliance', 'requests', 'dashboard']);
    call = apiClient(portal.baseUrl);
    // A US firm (its zone says so): the organizer asks money in dollars.
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Larkin CPAs ${suffix}`, shortName: TENANT, timeZone: 'America/New_York' })).status).toBe(201);
    // The shipped 1040 organizer is tied to the firm's report type of that name.
    const type = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name: 'Form 1040' });
    expect(type.status).toBe(201);
    reportTypeId = type.body.id;
    admin = (await addFirmUser(portal, TENANT, { username: `lee${suffix}`, fullName: 'Lee Admin', roleId: 1, clientIds: null })).login;
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  for (const [size, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]] as const) {
    it(`${size} (${viewport.width} px): sent from the tracker, answered with a reload halfway, submitted; the PDF, the 1099-B item, the stage, the home and next year's organizer follow`, async () => {
      // A household of its own per size, with its user and this year's 1040 on the tracker.
      const client = (await call<{ id: number; name: string }>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient(`Quinn Household ${size}`))).body;
      const clientLogin = (await addFirmUser(portal, TENANT, { username: `quinn${size}${suffix}`, fullName: `Quinn ${size}`, roleId: 4, clientIds: [client.id] })).login;
      let item!: ComplianceItem;
      await eventually(async () => {
        const schedule = await call<{ id: number }>('POST', `/api/${TENANT}/compliance-schedules`, admin.token, { clientId: client.id, reportTypeId, frequency: 'yearly', dueMonths: ['4'] });
        expect(schedule.status).toBe(201);
        const generated = await call<GenerationResult>('POST', `/api/${TENANT}/compliance-schedules/${schedule.body.id}/generate/${new Date().getUTCFullYear() + 1}`, admin.token);
        expect(generated.status).toBe(200);
        item = generated.body.items[0]!;
      }, BUS_WAIT_MS, 300);
      const stageOf = async () => (await call<ComplianceItem>('GET', `/api/${TENANT}/compliance-tracker/${item.id}`, admin.token)).body.stage;

      // 1. The Admin sends the organizer from the tracker item and lands on it.
      const staff = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/compliance`);
      await staff.setViewportSize(viewport);
      await staff.getByRole('tab', { name: 'Compliance Tracker' }).click();
      const row = staff.locator(`.compliance-row-${item.id}`);
      await row.getByRole('button', { name: `Send organizer: ${item.reportTypeName} ${item.period}` }).click();
      // Asked first: the client is e-mailed at once.
      const confirm = staff.getByRole('dialog', { name: 'Send organizer' });
      await confirm.getByText(`Send ${client.name} the organizer for ${item.reportTypeName} ${item.period}`).waitFor();
      await portal.screenshot(staff, `organizer-send-confirm-${size}`);
      await confirm.getByRole('button', { name: 'Send' }).click();
      await staff.waitForURL(new RegExp(`/${TENANT}/requests/organizers/\\d+$`));
      await expectToast(staff, 'Organizer Sent');
      const organizerId = Number(new URL(staff.url()).pathname.split('/').pop());
      const sent = (await call<OrganizerDetail>('GET', `/api/${TENANT}/organizers/${organizerId}`, admin.token)).body;
      expect(sent).toMatchObject({ clientId: client.id, trackerItemId: item.id, status: 'sent', currency: 'USD' });
      await statusTag(staff, 'Sent').waitFor();
      await eventually(async () => expect(await stageOf()).toBe('waiting-on-client'), BUS_WAIT_MS, 300);

      // 2. The client answers: filing status and a dependant, then reloads before going on.
      const clientOrigin = portal.baseUrl.replace('127.0.0.1', 'localhost');
      const page = await openAs(portal, clientOrigin, clientLogin, `/${TENANT}/dashboard`);
      await page.setViewportSize(viewport);
      // The home lists the organizer to answer.
      const panel = page.getByRole('region', { name: 'Organizers', exact: true });
      await panel.getByText('Answer the organizer').waitFor();
      await panel.getByRole('link', { name: sent.title }).click();
      await page.waitForURL(new RegExp(`/requests/organizers/${organizerId}$`)).catch((e: unknown) => { throw new Error(`${String(e)} at ${page.url()}`); });
      await question(page, 'Filing status you expect').getByText('Married filing jointly').click();
      // A joint return names the spouse (required once that status is chosen).
      await question(page, "Spouse's full name").getByRole('textbox').fill('Alex Quinn');
      await question(page, "Spouse's Social Security number").getByRole('textbox').fill('123-45-6789');
      const dependants = question(page, 'Dependents');
      await dependants.getByRole('button', { name: 'Add' }).click();
      await dependants.getByRole('textbox', { name: 'Full name' }).fill('Robin Quinn');
      await dependants.getByLabel('Date of birth').fill('2015-06-01');
      await dependants.getByRole('textbox', { name: 'Relationship to you' }).fill('Daughter');
      await page.getByText('Saved', { exact: true }).waitFor();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await portal.screenshot(page, `organizer-answering-${size}`);
      await page.reload();
      await question(page, 'Dependents').getByRole('textbox', { name: 'Full name' }).waitFor();
      expect(await question(page, 'Dependents').getByRole('textbox', { name: 'Full name' }).inputValue()).toBe('Robin Quinn');
      expect(await question(page, 'Filing status you expect').getByRole('radio', { name: 'Married filing jointly' }).isChecked()).toBe(true);
      const saved = (await call<OrganizerDetail>('GET', `/api/${TENANT}/organizers/${organizerId}`, admin.token)).body;
      expect(saved.answers).toMatchObject({ filing_status: 'Married filing jointly', dependants: [{ name: 'Robin Quinn', relationship: 'Daughter' }] });
      expect(saved.status).toBe('in_progress');

      // 3. Submitting before the 1099-B question is answered says so and turns to it; a yes, then Submit.
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Some required questions are not answered yet.').waitFor();
      await question(page, /1099-B/).getByText('Yes', { exact: true }).click();
      await page.getByRole('button', { name: 'Submit' }).click();
      await expectToast(page, 'Submitted', 'Thank you: your answers were sent to the firm.');
      await page.getByText(/Thank you: your answers were sent to the firm\. Your answers are below/).waitFor();
      await statusTag(page, 'Submitted').waitFor();
      // Read only now.
      expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(0);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await portal.screenshot(page, `organizer-submitted-${size}`);

      // 4. The answers' PDF is a report of the client; the 1099-B is asked for.
      const submitted = (await call<OrganizerDetail>('GET', `/api/${TENANT}/organizers/${organizerId}`, admin.token)).body;
      expect(submitted.status).toBe('submitted');
      expect(submitted.reportFileId).toEqual(expect.any(Number));
      expect(submitted.requestId).toEqual(expect.any(Number));
      const reports = (await call<PortalFile[]>('GET', `/api/${TENANT}/files?clientId=${client.id}&fileType=report`, admin.token)).body;
      expect(reports.map((f) => f.id)).toContain(submitted.reportFileId);
      const request = (await call<DocumentRequest>('GET', `/api/${TENANT}/document-requests/${submitted.requestId}`, admin.token)).body;
      expect(request.items.map((i) => i.title)).toContain('1099-B from your broker');
      // Staff, on the organizer since they sent it, see the submission without a reload (its
      // push), find both from the organizer, and mark it reviewed.
      await statusTag(staff, 'Submitted').waitFor();
      await staff.getByRole('button', { name: `View ${submitted.title}.pdf` }).waitFor();
      await staff.getByRole('link', { name: 'Document request' }).waitFor();
      await staff.getByRole('button', { name: 'Mark reviewed' }).click();
      await expectToast(staff, 'Marked Reviewed');
      await statusTag(staff, 'Reviewed').waitFor();
      await portal.screenshot(staff, `organizer-staff-${size}`);
      await staff.getByRole('link', { name: 'Document request' }).click();
      await staff.waitForURL(`${portal.baseUrl}/${TENANT}/requests/${submitted.requestId}`);
      await staff.getByText('1099-B from your broker').waitFor();

      // 5. Submitted with the 1099-B still to come, the return waits on the client; once the
      // broker's form is in (uploaded by the client, accepted by the firm) it moves on by itself,
      // and the client's home says so in plain words.
      expect(await stageOf()).toBe('waiting-on-client');
      const broker = request.items.find((i) => i.title === '1099-B from your broker')!;
      const form = new FormData();
      form.append('file', new Blob([await blankPdf()], { type: 'application/pdf' }), '1099-B.pdf');
      const uploaded = await fetch(`${portal.baseUrl}/api/${TENANT}/document-requests/${request.id}/items/${broker.id}/files`, { method: 'POST', headers: { authorization: `Bearer ${clientLogin.token}` }, body: form });
      expect(uploaded.status).toBe(201);
      for (const other of request.items.filter((i) => i.required && i.id !== broker.id)) {
        expect((await call('PATCH', `/api/${TENANT}/document-requests/${request.id}/items/${other.id}`, clientLogin.token, { status: 'not_applicable', comment: 'Not this year' })).status).toBe(200);
      }
      expect((await call('PATCH', `/api/${TENANT}/document-requests/${request.id}/items/${broker.id}`, admin.token, { status: 'accepted', comment: null })).status).toBe(200);
      await eventually(async () => expect(await stageOf()).toBe('in-preparation'), BUS_WAIT_MS, 300);
      await page.goto(`${clientOrigin}/${TENANT}/dashboard`);
      await page.getByRole('region', { name: 'Your Returns', exact: true }).getByText(`Your ${item.period} Form 1040: we are preparing it`).waitFor();
      expect(await page.getByRole('region', { name: 'Organizers', exact: true }).getByText(sent.title).count()).toBe(0);

      // 6. Next year's organizer from the same template opens with last year's answers.
      const next = await call<OrganizerDetail>('POST', `/api/${TENANT}/organizers`, admin.token, {
        clientId: client.id, templateId: sent.templateId, year: sent.year + 1, dueDate: `${sent.year + 2}-03-01`, sendNow: true,
      });
      expect(next.status).toBe(201);
      expect(next.body.prefilledFromId).toBe(organizerId);
      // The client's open home lists it as it is sent (its push), no reload.
      await page.getByRole('region', { name: 'Organizers', exact: true }).getByRole('link', { name: next.body.title }).waitFor();
      await page.goto(`${clientOrigin}/${TENANT}/requests/organizers/${next.body.id}`);
      await page.getByText("Last year's answers are filled in").waitFor();
      expect(await question(page, 'Filing status you expect').getByRole('radio', { name: 'Married filing jointly' }).isChecked()).toBe(true);
      expect(await question(page, 'Dependents').getByRole('textbox', { name: 'Full name' }).inputValue()).toBe('Robin Quinn');
      await portal.screenshot(page, `organizer-next-year-${size}`);
      await page.close();
      await staff.close();
    }, 240_000);
  }

  it('another firm cannot open the organizer page of this one', async () => {
    const other = `other${suffix}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Other ${suffix}`, shortName: other })).status).toBe(201);
    const outsider = (await addFirmUser(portal, other, { username: `out${suffix}`, fullName: 'Out Sider', roleId: 1, clientIds: null })).login;
    const ours = (await call<{ id: number }[]>('GET', `/api/${TENANT}/organizers`, admin.token)).body[0]!;
    const page = await openAs(portal, portal.baseUrl, outsider, `/${other}/requests/organizers/${ours.id}`);
    await page.getByText('Organizer not found').waitFor();
    await page.close();
  }, 120_000);
});
