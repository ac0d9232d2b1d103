import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem, GenerationResult } from '@ledgerline/contracts/compliance.contracts.ts';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { addFirmUser, openAs, startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * Stages of a return (issue 42) at a phone's and a desktop's size: a request made from a tracker
 * item moves it to "Waiting on client" by itself; on the Board an Admin drags its card to "In
 * preparation" (desktop) and moves it with the card's stage menu on a phone, where the Board is a
 * list grouped by stage; the client's home says where the return stands in plain words, a stage
 * hidden from clients reading as the last visible one, and follows a move while open.
 */
const BUS_WAIT_MS = 20_000;
const suffix = uniqueSuffix();
const TENANT = `stages${suffix}`;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

describe('the Board of stages and "Your Returns" (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let clientUser: FirmLogin;
  let item: ComplianceItem;

  const stageOf = async () => (await call<ComplianceItem>('GET', `/api/${TENANT}/compliance-tracker/${item.id}`, admin.token)).body.stage;
  const card = (page: Page) => page.locator(`.stage-card-${item.id}`);
  const column = (page: Page, stage: string) => page.locator(`.stage-column-${stage}`);
  const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  async function openBoard(viewport: { width: number; height: number }): Promise<Page> {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/compliance`);
    await page.setViewportSize(viewport);
    await page.getByRole('tab', { name: 'Board' }).click();
    await card(page).waitFor();
    return page;
  }
  async function openHome(viewport: { width: number; height: number }): Promise<Page> {
    const page = await openAs(portal, portal.baseUrl.replace('127.0.0.1', 'localhost'), clientUser, `/${TENANT}/dashboard`);
    await page.setViewportSize(viewport);
    await page.getByRole('region', { name: 'Your Returns', exact: true }).waitFor();
    return page;
  }
  const returnLine = (page: Page, text: string) => page.getByRole('region', { name: 'Your Returns', exact: true }).getByText(text);

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'compliance', 'dashboard']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Harbor Tax ${suffix}`, shortName: TENANT })).status).toBe(201);
    const client = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient('Bayview Bakery'));
    expect(client.status).toBe(201);
    const type = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name: 'Form 1040' });
    expect(type.status).toBe(201);
    admin = (await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null })).login;
    clientUser = (await addFirmUser(portal, TENANT, { username: `bea${suffix}`, fullName: 'Bea Baker', roleId: 4, clientIds: [client.body.id] })).login;
    expect((await call('POST', `/api/${TENANT}/request-templates`, admin.token, { name: '1040 checklist', reportTypeId: type.body.id, items: [{ title: 'W-2' }] })).status).toBe(201);
    // This year's return, due next April (compliance learns of the client and report type from events).
    await eventually(async () => {
      const schedule = await call<{ id: number }>('POST', `/api/${TENANT}/compliance-schedules`, admin.token, { clientId: client.body.id, reportTypeId: type.body.id, frequency: 'yearly', dueMonths: ['4'] });
      expect(schedule.status).toBe(201);
      const generated = await call<GenerationResult>('POST', `/api/${TENANT}/compliance-schedules/${schedule.body.id}/generate/${new Date().getUTCFullYear() + 1}`, admin.token);
      expect(generated.status).toBe(200);
      item = generated.body.items[0]!;
    }, BUS_WAIT_MS, 300);
    expect(item.stage).toBe('not-started');
    // A document request made from the item: it waits on the client by itself.
    const request = await call<DocumentRequest>('POST', `/api/${TENANT}/compliance-tracker/${item.id}/document-request`, admin.token, {});
    expect(request.status).toBe(201);
    await eventually(async () => expect(await stageOf()).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('desktop: a column per stage side by side; the card (client, return, due date, assignee, outstanding) is dragged to "In preparation"', async () => {
    const page = await openBoard(DESKTOP);
    const columns = await page.locator('.stage-column h3').allInnerTexts();
    expect(columns.map((c) => c.replace(/\s*\d+$/, ''))).toEqual(['Not started', 'Waiting on client', 'In preparation', 'In review', 'Ready to sign', 'Ready to file', 'Filed']);
    await column(page, 'waiting-on-client').locator(`.stage-card-${item.id}`).waitFor();
    const text = await card(page).innerText();
    for (const part of ['Bayview Bakery', `Form 1040 · ${item.period}`, 'Due ', 'Unassigned', '1 of 1 documents outstanding']) expect(text).toContain(part);
    const [first, second] = await Promise.all([column(page, 'not-started').boundingBox(), column(page, 'waiting-on-client').boundingBox()]);
    expect(second!.x).toBeGreaterThan(first!.x);
    expect(second!.y).toBe(first!.y);

    await card(page).dragTo(column(page, 'in-preparation'));
    await column(page, 'in-preparation').locator(`.stage-card-${item.id}`).waitFor();
    expect(await stageOf()).toBe('in-preparation');
    expect(await overflowsSideways(page)).toBe(false);
    await portal.screenshot(page, 'stage-board-desktop');
    // The tracker list beside it names the stage too.
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await page.locator(`.compliance-row-${item.id}`).getByText('In preparation').waitFor();
    await page.close();
  }, 120_000);

  it('phone: the Board is a list grouped by stage, and the card\'s stage menu moves it to "In review"', async () => {
    const page = await openBoard(PHONE);
    const [first, second] = await Promise.all([column(page, 'not-started').boundingBox(), column(page, 'waiting-on-client').boundingBox()]);
    expect(second!.x).toBe(first!.x);
    expect(second!.y).toBeGreaterThan(first!.y);
    expect(await overflowsSideways(page)).toBe(false);
    await column(page, 'in-preparation').locator(`.stage-card-${item.id}`).waitFor();
    await page.getByLabel(`Stage: Bayview Bakery Form 1040 ${item.period}`).selectOption('in-review');
    await column(page, 'in-review').locator(`.stage-card-${item.id}`).waitFor();
    expect(await stageOf()).toBe('in-review');
    await portal.screenshot(page, 'stage-board-phone');
    await page.close();
  }, 120_000);

  for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    it(`the client's home (${size}) says where the return stands in plain words, and follows a move`, async () => {
      const page = await openHome(viewport);
      // "In review" is hidden from clients: they read the last visible stage before it.
      const sentence = returnLine(page, `Your ${item.period} Form 1040: we are preparing it`);
      await sentence.waitFor();
      // Read whole, never cut short with an ellipsis.
      expect(await sentence.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      expect(await overflowsSideways(page)).toBe(false);
      await portal.screenshot(page, `stage-client-home-${size}`);
      // A move while the page is open reaches it (the push).
      const next = size === 'phone' ? 'ready-to-sign' : 'filed';
      expect((await call('PATCH', `/api/${TENANT}/compliance-tracker/${item.id}`, admin.token, { stage: next })).status).toBe(200);
      await returnLine(page, `Your ${item.period} Form 1040: ${size === 'phone' ? 'ready for your signature' : 'filed'}`).waitFor({ timeout: BUS_WAIT_MS });
      expect((await call('PATCH', `/api/${TENANT}/compliance-tracker/${item.id}`, admin.token, { stage: 'in-review' })).status).toBe(200);
      await page.close();
    }, 120_000);
  }
});
