import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem, ComplianceSchedule, PresetApplyResult } from '@ledgerline/contracts/compliance.contracts.ts';
import { REGISTRATION_SCOPE, type ComplianceInsight, type InsightRuleSettings } from '@ledgerline/contracts/insights.contracts.ts';
import { expectToast, SCREENSHOT_DIR, startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const BUS_WAIT_MS = 30_000;
const suffix = uniqueSuffix();
const FIRM = { name: `Insight Partners ${suffix}`, shortName: `insight${suffix}` };
const TENANT = FIRM.shortName;
const YEAR = new Date().getFullYear();
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
interface Login { token: string; user: Record<string, unknown> }

describe('AI compliance insights screen in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: Login;
  let clientId: number;
  let gstr3bReportTypeId: number;

  const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });
  const tab = (page: Page, label: string) => page.getByRole('tab', { name: new RegExp(`^${label} \\(\\d+\\)$`) });
  const insightsOf = async () => (await call<ComplianceInsight[]>('GET', `/api/${TENANT}/compliance-insights?clientId=${clientId}`, admin.token)).body;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'insights', 'compliance']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    const client = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, {
      name: 'Bayview Bakery', address: '4 Market Road', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'bayview@example.com',
    });
    clientId = client.body.id;
    expect((await call('POST', `/api/${TENANT}/users`, portal.adminToken, { username: `ada${suffix}`, password: 'password1', fullName: 'Ada Admin', roleId: 1, clientIds: null })).status).toBe(201);
    admin = (await call<Login>('POST', `/api/${TENANT}/auth/login`, null, { username: `ada${suffix}`, password: 'password1' })).body;
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an Admin applies a preset, generates the year and analyses: one card per report type lists its periods, leads to the item, and "Mark filed" files a matched one', async () => {
    // The compliance side through its API: India's calendar for the client, this year generated.
    const applied = await call<PresetApplyResult>('POST', `/api/${TENANT}/compliance-presets/india/apply`, admin.token, { clientIds: [clientId] });
    expect(applied.status).toBe(200);
    const gstr3b = applied.body.createdSchedules.find((s: ComplianceSchedule) => s.reportTypeName === 'GSTR-3B')!;
    gstr3bReportTypeId = gstr3b.reportTypeId;
    for (const schedule of applied.body.createdSchedules) {
      expect((await call('POST', `/api/${TENANT}/compliance-schedules/${schedule.id}/generate/${YEAR}?from=${YEAR}-01-01`, admin.token)).status).toBe(200);
    }
    const today = new Date().toISOString().slice(0, 10);
    const items = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${clientId}&limit=1000`, admin.token)).body;
    const overdue = items.filter((i) => i.reportTypeId === gstr3b.reportTypeId && i.dueDate < today).sort((a, b) => b.dueDate.localeCompare(a.dueDate));
    expect(overdue.length).toBeGreaterThan(1);
    const [filed, stillMissing] = [overdue[0]!, overdue[1]!];

    const page = await portal.browser.newPage(portal.baseUrl);
    await setLocalStorage(page, { token: admin.token, user: admin.user });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance-insights`);
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('AI Insights');
    await page.getByText('No pending insights found.').waitFor();

    // The tracker items reach the insights service as events: analyse once they have.
    const groupOf = async () => (await insightsOf()).find((i) => i.insightType === 'missing_document' && i.status === 'pending' && i.metadata.reportTypeId === gstr3b.reportTypeId);
    await eventually(async () => {
      expect((await call('POST', `/api/${TENANT}/public/clients/${clientId}/analyze-compliance`, portal.adminToken)).status).toBe(200);
      expect((await groupOf())?.periods).toContain(overdue.at(-1)!.period);
    }, BUS_WAIT_MS, 300);
    await page.locator('.p-dropdown', { has: page.locator('#insights-analyze') }).click();
    await pick(page, 'Bayview Bakery').click();
    await expectToast(page, 'Analysis Complete', /^Analysis complete: \d+ new insights?$/);
    const group = (await groupOf())!;
    // A year of overdue returns is a handful of cards, one per report type, not one per month.
    const missingCards = (await insightsOf()).filter((i) => i.insightType === 'missing_document');
    expect(missingCards.length).toBeLessThanOrEqual(applied.body.createdSchedules.length);
    expect(group.periods.length).toBeGreaterThanOrEqual(overdue.length);
    const card = page.getByRole('article', { name: group.title });
    await card.waitFor();
    await expect(card.getByRole('list', { name: 'Periods' }).getByRole('link').count()).resolves.toBe(group.periods.length);
    await card.getByRole('button', { name: 'Create task' }).waitFor();
    await card.getByRole('button', { name: 'Request documents' }).waitFor();
    await portal.screenshot(page, 'insights-grouped-card');

    // One filed acknowledgement for the latest overdue month arrives.
    const month = LONG_MONTHS[Number(filed.periodStart.slice(5, 7)) - 1];
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(clientId));
    form.append('reportTypeId', String(gstr3b.reportTypeId));
    form.append('file', new Blob([`GSTR-3B Acknowledgement\nARN AA29${suffix}\nReturn filed for ${month} ${filed.periodStart.slice(0, 4)}\n`], { type: 'text/plain' }), 'GSTR-3B acknowledgement.txt');
    const uploaded = await fetch(`${portal.baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form });
    expect(uploaded.status).toBe(201);
    await eventually(async () => expect((await insightsOf()).some((i) => i.insightType === 'compliance_match')).toBe(true), BUS_WAIT_MS, 200);

    // Straight to the button: the analysis toast may still cover it (top right) on a slow machine.
    await page.getByRole('button', { name: 'Refresh' }).dispatchEvent('click');
    const match = page.getByRole('article', { name: `GSTR-3B for ${filed.period} appears to be filed` });
    await match.waitFor();
    await match.getByText('GSTR-3B acknowledgement.txt', { exact: true }).waitFor();
    await match.getByText(/^\d+% confidence$/).waitFor();
    // The acknowledgement took that month off the group's card: the same card, one period fewer.
    await eventually(async () => expect((await groupOf())).toMatchObject({ id: group.id, periods: group.periods.filter((p) => p !== filed.period) }), BUS_WAIT_MS, 200);

    // "Mark filed" files the tracker item (today) and the card is acted upon.
    await match.getByRole('button', { name: 'Mark filed' }).click();
    await expectToast(page, 'Marked Filed', `GSTR-3B ${filed.period} is filed`);
    const item = (await call<ComplianceItem>('GET', `/api/${TENANT}/compliance-tracker/${filed.id}`, admin.token)).body;
    expect(item).toMatchObject({ status: 'filed' });
    expect(item.filedDate?.slice(0, 10)).toBe(today);
    await tab(page, 'Acted Upon').filter({ hasText: 'Acted Upon (1)' }).waitFor();

    // A period of the card opens its item in the compliance tracker.
    await page.getByRole('article', { name: (await groupOf())!.title }).getByRole('link', { name: `Open ${stillMissing.period} in the compliance tracker` }).click();
    const dialog = page.getByRole('dialog', { name: 'Update Compliance Status' });
    await dialog.getByText(`Bayview Bakery · GSTR-3B · ${stillMissing.period}`).waitFor();
    // The link is used once: the address keeps the page, not the item.
    expect(new URL(page.url())).toMatchObject({ pathname: expect.stringMatching(/\/compliance$/), search: '' });
    await portal.screenshot(page, 'insights-period-opens-item');

    // The client's name leads to the client's compliance.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.goBack();
    await page.getByRole('article', { name: (await groupOf())!.title }).getByRole('link', { name: "Bayview Bakery's compliance" }).click();
    await page.locator('.compliance-filters .p-dropdown-label', { hasText: 'Bayview Bakery' }).waitFor();
    await page.close();
  });

  it('"Request documents" asks the client for one period\'s documents and opens the request; "Create task" makes the task and opens it', async () => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await setLocalStorage(page, { token: admin.token, user: admin.user });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance-insights`);
    const group = (await insightsOf()).find((i) => i.insightType === 'missing_document' && i.status === 'pending' && i.metadata.reportTypeId === gstr3bReportTypeId)!;
    const [period] = group.periods;
    const card = page.getByRole('article', { name: group.title });
    await card.getByRole('button', { name: 'Request documents' }).click();
    // Several periods: the card asks which.
    await page.getByRole('menuitem', { name: period }).click();
    await page.waitForURL(/\/requests\/\d+$/);
    const requestId = Number(/\/requests\/(\d+)$/.exec(page.url())![1]);
    const request = await call<{ clientId: number; reportTypeId: number; title: string }>('GET', `/api/${TENANT}/document-requests/${requestId}`, admin.token);
    expect(request.body).toMatchObject({ clientId, reportTypeId: gstr3bReportTypeId, title: `GSTR-3B — ${period}` });

    await page.goto(`${portal.baseUrl}/${TENANT}/compliance-insights`);
    await page.getByRole('article', { name: group.title }).getByRole('button', { name: 'Create task' }).click();
    await page.waitForURL(/\/tasks\?task=\d+$/);
    const taskId = Number(/task=(\d+)$/.exec(page.url())![1]);
    const tasks = await call<{ id: number; title: string; clientIds: number[]; reportTypeId: number; priority: string }[]>('GET', `/api/${TENANT}/tasks?clientId=${clientId}`, admin.token);
    const task = tasks.body.find((t) => t.id === taskId)!;
    expect(task).toMatchObject({ clientIds: [clientId], reportTypeId: gstr3bReportTypeId, priority: 'high' });
    expect(task.title).toMatch(/^Collect GSTR-3B for .+ \(Bayview Bakery\)$/);
    // The card was acted upon.
    expect((await insightsOf()).find((i) => i.id === group.id)?.status).toBe('acted_upon');
    await page.close();
  });

  it('an Admin sets the threshold rules: keywords, thresholds by jurisdiction in their currency and a report type\'s own; a refusal shows the server\'s message', async () => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await setLocalStorage(page, { token: admin.token, user: admin.user });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance-insights`);
    await page.getByRole('button', { name: 'Rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Insight Rules' });
    // The defaults until someone saves.
    await dialog.locator('.p-chips-token', { hasText: 'gross receipts' }).waitFor();
    // Each jurisdiction's threshold in its own currency, with the law it comes from.
    await expect(dialog.getByLabel('Threshold 1', { exact: true }).inputValue()).resolves.toBe('₹20,00,000');
    await expect(dialog.getByLabel('Threshold 2', { exact: true }).inputValue()).resolves.toBe('£90,000');
    await expect(dialog.getByLabel('Threshold 4', { exact: true }).inputValue()).resolves.toBe('$100,000');
    await dialog.getByText(/CGST Act 2017, s\. 22\(1\)/).waitFor();
    await dialog.locator('.p-chips-token', { hasText: 'total' }).locator('.p-chips-token-icon').click();
    await dialog.getByLabel('Keywords (Enter adds one)').fill('sales');
    await dialog.getByLabel('Keywords (Enter adds one)').press('Enter');
    await dialog.getByLabel('Threshold 1', { exact: true }).fill('1500000');
    await dialog.getByRole('button', { name: 'Remove threshold 5' }).click();
    await dialog.getByRole('button', { name: 'Add threshold' }).click();
    await dialog.locator('.p-dropdown', { has: page.getByLabel('Report type 5') }).click();
    await page.locator('li[role="option"]', { hasText: 'GSTR-3B' }).click();
    await dialog.getByLabel('Threshold 5', { exact: true }).fill('500000');
    // What a threshold is about: the new row starts with the registration scope (businesses' sales); narrowed to companies' invoices.
    await dialog.locator('.p-multiselect', { has: page.getByLabel('Client types 5') }).click();
    for (const type of ['Sole proprietor', 'Partnership', 'C corporation', 'S corporation', 'LLP', 'Trust']) await page.locator('li[role="option"]', { hasText: new RegExp(`^${type}$`) }).click();
    await page.keyboard.press('Escape');
    await dialog.locator('.p-multiselect', { has: page.getByLabel('Documents 5') }).click();
    for (const kind of ['Financial statement', 'Business\'s income tax return', 'Other document']) await page.locator('li[role="option"]', { hasText: kind }).click();
    await page.keyboard.press('Escape');
    await portal.screenshot(page, 'insight-rules-by-jurisdiction');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Success', 'Insight rules saved');
    await dialog.waitFor({ state: 'detached' });
    const rules = (await call<InsightRuleSettings>('GET', `/api/${TENANT}/compliance-insights/rules`, admin.token)).body;
    expect(rules.keywords).toEqual(['turnover', 'gross receipts', 'sales']);
    expect(rules.thresholds.map((t) => [t.jurisdiction, t.currency, t.threshold, t.reportTypeId])).toEqual([
      ['IN', 'INR', 1_500_000, null], ['UK', 'GBP', 90_000, null], ['AU', 'AUD', 75_000, null], ['US', 'USD', 100_000, null], ['IN', 'INR', 500_000, gstr3bReportTypeId],
    ]);
    expect(rules.thresholds[4]).toMatchObject({ entityTypes: ['company'], documentKinds: ['invoice'] });
    expect(rules.thresholds[0]).toMatchObject({ entityTypes: REGISTRATION_SCOPE.entityTypes, documentKinds: REGISTRATION_SCOPE.documentKinds });

    // Reopened, it shows what was saved; with no keyword left the server refuses and the dialog stays.
    await page.getByRole('button', { name: 'Rules' }).click();
    await dialog.locator('.p-chips-token', { hasText: 'sales' }).waitFor();
    for (const word of rules.keywords) await dialog.locator('.p-chips-token', { hasText: word }).locator('.p-chips-token-icon').click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Error', 'Give at least one keyword');
    await dialog.waitFor();
    expect((await call<InsightRuleSettings>('GET', `/api/${TENANT}/compliance-insights/rules`, admin.token)).body).toEqual(rules);
    await page.close();
  });

  it.each([[390, 844], [1440, 900]])('at %i px an Admin analyses all clients, moves several insights at once, confirms a dismissal and undoes it from the toast', async (width, height) => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height });
    await setLocalStorage(page, { token: admin.token, user: admin.user });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance-insights`);
    await page.getByRole('button', { name: 'Analyze all clients' }).click();
    await expectToast(page, 'Analysis Complete', /^Analysis complete: \d+ new insights? across 1 client$/);
    await page.getByRole('button', { name: 'Refresh' }).dispatchEvent('click');
    await tab(page, 'Pending').click();
    const pending = (await insightsOf()).filter((i) => i.status === 'pending');
    expect(pending.length).toBeGreaterThan(1);
    const grouped = pending.find((i) => i.periods.length > 1)!;
    await page.getByRole('article', { name: grouped.title }).screenshot({ path: `${SCREENSHOT_DIR}/insights-grouped-card-${width}.png` });

    // Two cards selected, moved together.
    const panel = page.locator('.p-tabview-panel:not([hidden])');
    for (const insight of pending.slice(0, 2)) await panel.locator(`label[for="insight-select-${insight.id}"], #insight-select-${insight.id}`).first().click();
    const bar = panel.getByRole('toolbar', { name: 'Selected insights' });
    await bar.getByText('2 selected').waitFor();
    await bar.screenshot({ path: `${SCREENSHOT_DIR}/insights-bulk-bar-${width}.png` });
    await bar.getByRole('button', { name: 'Mark Reviewed' }).click();
    await expectToast(page, 'Success', '2 insights updated');
    await eventually(async () => expect((await insightsOf()).filter((i) => pending.slice(0, 2).some((p) => p.id === i.id)).map((i) => i.status)).toEqual(['reviewed', 'reviewed']), BUS_WAIT_MS, 200);

    // Dismissing is asked first; Cancel keeps the insight.
    const target = pending[0]!;
    await tab(page, 'Reviewed').click();
    const card = page.getByRole('article', { name: target.title }).first();
    await card.getByRole('button', { name: 'Dismiss' }).click();
    const confirm = page.getByRole('dialog', { name: 'Dismiss insights' });
    await confirm.getByText('Dismiss this insight? You can undo it from the message that follows.').waitFor();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/insights-dismiss-confirm-${width}.png` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await insightsOf()).find((i) => i.id === target.id)?.status).toBe('reviewed');
    await card.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('dialog', { name: 'Dismiss insights' }).getByRole('button', { name: 'Dismiss' }).click();
    await expectToast(page, 'Success', 'Compliance insight updated successfully');
    expect((await insightsOf()).find((i) => i.id === target.id)?.status).toBe('dismissed');
    // The toast's Undo brings the card back as it was.
    const undo = page.locator('.p-toast').getByRole('button', { name: 'Undo' });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/insights-dismiss-undo-${width}.png` });
    await undo.click();
    await expectToast(page, 'Success', '1 insight restored');
    expect((await insightsOf()).find((i) => i.id === target.id)).toMatchObject({ status: 'reviewed', reviewedByName: 'Ada Admin' });
    await page.getByRole('article', { name: target.title }).first().waitFor();
    // Nothing on the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.close();
  }, 120_000);
});
