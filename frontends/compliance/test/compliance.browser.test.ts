import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem, ComplianceSchedule } from '@ledgerline/contracts/compliance.contracts.ts';
import { addDays, dateIn, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { addFirmUser, expectToast, explained, type PortalBrowser, recordFirmInfo, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const FIRM = { name: `Ledger Partners ${suffix}`, shortName: `ledger${suffix}` };
const TENANT = FIRM.shortName;
const YEAR = new Date().getFullYear();
const clientDetails = (name: string, email: string) => ({ name, address: '4 Market Road', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email });
interface Login { token: string; user: Record<string, unknown>; tenant?: unknown }

describe('compliance screen in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: Login;
  let clientUser: Login;
  const clients: Record<string, number> = {};

  async function addUser(username: string, fullName: string, roleId: number, clientIds: number[] | null): Promise<Login> {
    const created = await call<{ id: number }>('POST', `/api/${TENANT}/users`, portal.adminToken, { username, password: 'password1', fullName, roleId, clientIds });
    expect(created.status).toBe(201);
    const login = await call<Login>('POST', `/api/${TENANT}/auth/login`, null, { username, password: 'password1' });
    expect(login.status).toBe(200);
    return login.body;
  }
  const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });
  async function openAs(origin: string, login: Login, path: string): Promise<Page> {
    const page = await portal.browser.newPage(origin);
    await setLocalStorage(page, { token: login.token, user: login.user, ...(login.tenant ? { currentTenant: login.tenant } : {}) });
    await page.goto(`${origin}${path}`);
    return page;
  }
  const itemsOf = async (clientId: number) => (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${clientId}`, admin.token)).body;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'compliance', 'dashboard']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    for (const name of ['Bayview Bakery', 'Coral Imports']) {
      const r = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, clientDetails(name, `${name.split(' ')[0]!.toLowerCase()}@example.com`));
      expect(r.status).toBe(201);
      clients[name] = r.body.id;
    }
    admin = await addUser(`ada${suffix}`, 'Ada Admin', 1, null);
    clientUser = await addUser(`bay${suffix}`, 'Bay Owner', 4, [clients['Bayview Bakery']!]);
    // Another client's items, which the Client user must never see.
    const type = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name: 'Coral Payroll' });
    const coral = await call<ComplianceSchedule>('POST', `/api/${TENANT}/compliance-schedules`, admin.token, { clientId: clients['Coral Imports'], reportTypeId: type.body.id, frequency: 'monthly' });
    expect(coral.status).toBe(201);
    expect((await call('POST', `/api/${TENANT}/compliance-schedules/${coral.body.id}/generate/${YEAR}`, admin.token)).status).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an Admin applies the India calendar to a client, generates this year, sees the calendar fill, files one item and extends another', async () => {
    const page = await openAs(portal.baseUrl, admin, `/${TENANT}/compliance`);
    await page.getByRole('tab', { name: 'Calendar View' }).waitFor();
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('Compliance');

    await page.getByRole('button', { name: 'Statutory Calendars' }).click();
    const presetDialog = page.getByRole('dialog', { name: 'Apply Statutory Calendar' });
    await presetDialog.locator('.p-dropdown', { has: page.locator('#preset-jurisdiction') }).click();
    await pick(page, 'India').click();
    await presetDialog.locator('.p-multiselect', { has: page.locator('#preset-clients') }).click();
    await pick(page, 'Bayview Bakery').click();
    await presetDialog.locator('.p-dialog-title').click();
    // A client without an entity type is offered every entry but the QRMP scheme's, pre-checked.
    const entries = presetDialog.getByRole('group', { name: 'Entries for Bayview Bakery' });
    await expect(entries.locator('#preset-' + clients['Bayview Bakery'] + '-gstr-3b').isChecked()).resolves.toBe(true);
    await expect(entries.locator('#preset-' + clients['Bayview Bakery'] + '-gstr-3b-qrmp').isChecked()).resolves.toBe(false);
    // This walk generates from the Schedules tab: the calendar makes only the schedules.
    await presetDialog.getByLabel('Create the items due from').uncheck();
    await presetDialog.getByRole('button', { name: 'Apply' }).click();
    await expectToast(page, 'Statutory Calendar Applied', '13 schedules created');
    await presetDialog.getByText('Nobody needed new report types.').waitFor();
    await presetDialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('tab', { name: 'Schedules' }).click();
    const card = page.getByRole('article', { name: 'Bayview Bakery GSTR-3B' });
    await card.getByText('20', { exact: true }).waitFor();
    await card.getByText('The period before the due date').waitFor();
    // The whole year from December's period on (a start the firm chooses; by default the day the schedule was made).
    await page.locator('#generation-start').fill(`12/01/${YEAR - 1}`);
    await page.locator('#generation-start').press('Escape');
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await card.getByRole('button', { name: `Generate ${YEAR}`, exact: true }).click();
    await expectToast(page, 'Trackers Generated', `12 items created for GSTR-3B ${YEAR}`);
    const gstr1 = page.getByRole('article', { name: 'Bayview Bakery GSTR-1', exact: true });
    await gstr1.getByRole('button', { name: `Generate ${YEAR}`, exact: true }).click();
    await expectToast(page, 'Trackers Generated', `12 items created for GSTR-1 ${YEAR}`);
    // The rest of the firm's schedules in one call (Coral's year exists already): GSTR-9, TDS deposits and returns, advance tax,
    // the three ITRs, AOC-4, MGT-7 and the two LLP forms (how many items of each the India calendar's rules decide).
    await page.getByRole('button', { name: `Generate ${YEAR} for all schedules shown` }).click();
    await expectToast(page, 'Trackers Generated', new RegExp(`^\\d+ items created for 14 schedules, ${YEAR}$`));

    // The calendar of this month shows the 11th and the 20th filled.
    await page.getByRole('tab', { name: 'Calendar View' }).click();
    const month = String(new Date().getMonth() + 1).padStart(2, '0');
    const chip = (day: string, reportType: string) => page.locator(`[data-day="${YEAR}-${month}-${day}"] .compliance-chip`, { hasText: reportType });
    await chip('20', 'GSTR-3B').getByText('Bayview Bakery').waitFor();
    await chip('11', 'GSTR-1').getByText('Bayview Bakery').waitFor();
    // Days are highlighted from the server's day counts (X-Day-Counts), not from the few items fetched.
    if (new Date().getUTCDate() > 11) await page.locator(`[data-day="${YEAR}-${month}-11"].compliance-calendar__day--overdue`).waitFor();
    await expect(page.locator(`[data-day="${YEAR}-${month}-12"].compliance-calendar__day--overdue`).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Quarter', exact: true }).click();
    await expect(page.locator('.compliance-month-card').count()).resolves.toBe(3);
    await page.getByRole('button', { name: 'Month', exact: true }).click();
    // The overdue panel and card fetch three items and the count, not the firm's whole list.
    const overdueCount = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker/overdue`, admin.token)).body.length;
    const overduePanel = page.getByRole('region', { name: 'Overdue' });
    await overduePanel.getByRole('heading', { name: `Overdue (${overdueCount})` }).waitFor();
    await expect(overduePanel.locator('li').count()).resolves.toBe(Math.min(3, overdueCount));
    if (overdueCount > 3) await overduePanel.getByText(`+${overdueCount - 3} more`).waitFor();
    await page.locator('.compliance-summary--danger .compliance-summary__value', { hasText: String(overdueCount) }).waitFor();

    const items = (await itemsOf(clients['Bayview Bakery']!)).filter((i) => i.reportTypeName === 'GSTR-3B');
    expect(items).toHaveLength(12);
    const [toFile, toExtend] = [items[0]!, items[1]!];
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    // The table pages on the server, 25 rows a page, in due-date order.
    const firm = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker`, admin.token)).body;
    expect(firm.length).toBeGreaterThan(25);
    await page.locator(`.compliance-row-${firm[0]!.id}`).waitFor();
    await expect(page.locator(`.compliance-row-${firm[25]!.id}`).count()).resolves.toBe(0);
    await page.locator('.compliance-table .p-paginator-next').click();
    await page.locator(`.compliance-row-${firm[25]!.id}`).waitFor();
    await page.locator('.compliance-table .p-paginator-prev').click();

    await page.locator(`.compliance-row-${toFile.id}`).getByRole('button', { name: `Update GSTR-3B ${toFile.period}` }).click();
    let dialog = page.getByRole('dialog', { name: 'Update Compliance Status' });
    await dialog.locator('.p-dropdown', { has: page.locator('#tracker-status') }).click();
    await pick(page, 'Filed').click();
    await dialog.locator('#tracker-filed').waitFor();
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Status Updated', `GSTR-3B ${toFile.period}`);
    await page.locator(`.compliance-row-${toFile.id}`).getByText('Filed', { exact: true }).waitFor();

    await page.locator(`.compliance-row-${toExtend.id}`).getByRole('button', { name: `Update GSTR-3B ${toExtend.period}` }).click();
    dialog = page.getByRole('dialog', { name: 'Update Compliance Status' });
    await dialog.locator('#tracker-extension').click();
    const picker = page.locator('.p-datepicker');
    await picker.locator('.p-datepicker-next').click();
    await picker.locator('td:not(.p-datepicker-other-month) span', { hasText: /^15$/ }).click();
    await dialog.locator('#tracker-remarks').fill('Client asked for more time');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Status Updated', `GSTR-3B ${toExtend.period}`);
    // The tracker orders by the day each item is due by now: the extended one moves on (to a later page), so filter to find it.
    const statusFilter = page.locator('.compliance-filters .p-dropdown').nth(1);
    await statusFilter.click();
    await pick(page, 'Extended').click();
    const row = page.locator(`.compliance-row-${toExtend.id}`);
    await row.getByText('Extended', { exact: true }).waitFor();
    await row.getByText(/^Extended to /).waitFor();
    await statusFilter.click();
    await pick(page, 'All').click();

    const after = await itemsOf(clients['Bayview Bakery']!);
    expect(after.find((i) => i.id === toFile.id)).toMatchObject({ status: 'filed' });
    expect(after.find((i) => i.id === toFile.id)!.filedDate).not.toBeNull();
    expect(after.find((i) => i.id === toExtend.id)).toMatchObject({ status: 'extended', remarks: 'Client asked for more time' });
    // On a phone the paged table, paginator included, never scrolls the page sideways (the
    // status filter's panel, placed for the desktop width, gone first: it fades out).
    await page.locator('.p-dropdown-panel').waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.compliance-table .p-paginator').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it("counts today on the firm's clocks: a firm in Kolkata seen from a browser in Los Angeles late in the evening", async () => {
    // A firm of its own, so the other walks keep the platform's default zone.
    const kolkata = { name: `Kolkata Ledgers ${suffix}`, shortName: `kolkata${suffix}`, timeZone: 'Asia/Kolkata' };
    expect((await call('POST', '/api/companies', portal.adminToken, kolkata)).status).toBe(201);
    const owner = (await addFirmUser(portal, kolkata.shortName, { username: `kira${suffix}`, fullName: 'Kira Kapoor', roleId: 1, clientIds: null })).login;
    // The latest 22:30 in Los Angeles before now: Kolkata is already on the next day then.
    const la = 'America/Los_Angeles';
    const tonight = instantAt(todayIn(la), '22:30', la);
    const evening = tonight.getTime() <= Date.now() ? tonight : instantAt(addDays(todayIn(la), -1), '22:30', la);
    const browserDay = dateIn(evening, la);
    const firmDay = dateIn(evening, kolkata.timeZone);
    expect(firmDay).toBe(addDays(browserDay, 1));

    const page = await portal.browser.newPage(portal.baseUrl);
    await (await page.context().newCDPSession(page)).send('Emulation.setTimezoneOverride', { timezoneId: la });
    await page.clock.setFixedTime(evening);
    await setLocalStorage(page, { token: owner.token, user: owner.user, currentTenant: owner.tenant });
    await expect(page.evaluate(() => [Intl.DateTimeFormat().resolvedOptions().timeZone, new Date().getDate()])).resolves.toEqual([la, Number(browserDay.slice(8))]);

    // The home's "Compliance Due Soon" asks for the firm's next 14 days.
    const dueSoon = page.waitForRequest((request) => request.url().includes('/compliance-tracker?startDate='));
    const firmInfo = recordFirmInfo(page);
    await page.goto(`${portal.baseUrl}/${kolkata.shortName}/dashboard`);
    const asked = new URL((await dueSoon).url()).searchParams;
    await explained(Promise.resolve().then(() => expect([asked.get('startDate'), asked.get('endDate')]).toEqual([firmDay, addDays(firmDay, 14)])), firmInfo.describe);

    // The Compliance calendar opens on the firm's month and marks the firm's day as today.
    await page.goto(`${portal.baseUrl}/${kolkata.shortName}/compliance`);
    await page.locator(`[data-day="${firmDay}"].compliance-calendar__day--today`).waitFor();
    await expect(page.locator('.compliance-calendar__day--today').count()).resolves.toBe(1);
    await page.close();
  });

  it('a Client user sees only their own client\'s items, and no schedule actions', async () => {
    const origin = portal.baseUrl.replace('127.0.0.1', 'localhost');
    // Their access list reached the compliance service (an event) before their page asks.
    await eventually(async () => {
      const r = await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker`, clientUser.token);
      expect(r.status).toBe(200);
      expect(r.body.length).toBeGreaterThan(0);
    }, BUS_WAIT_MS);
    const page = await openAs(origin, clientUser, `/${TENANT}/compliance`);
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await page.locator('.compliance-table').getByText('GSTR-3B').first().waitFor();
    // innerText: each cell also holds its column's title for the phone's stacked rows, hidden on a wide screen.
    const clientCells = await page.locator('.compliance-table tbody tr td:first-child').allInnerTexts();
    expect(clientCells.length).toBeGreaterThan(0);
    expect(new Set(clientCells)).toEqual(new Set(['Bayview Bakery']));
    await expect(page.getByText('Coral Imports').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Add Schedule' }).count()).resolves.toBe(0);
    // Their page speaks of their company, with no client filter.
    await page.getByText('Filing deadlines and status for Bayview Bakery').waitFor();
    await expect(page.getByText('All Clients').count()).resolves.toBe(0);
    await expect(page.getByRole('tab', { name: 'Schedules' }).count()).resolves.toBe(0);
    await expect(page.locator('.compliance-table').getByRole('button', { name: /^Update / }).count()).resolves.toBe(0);

    // On a phone, with a filled calendar and tracker, the page never scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.getByRole('tab', { name: 'Calendar View' }).click();
    await page.locator('.compliance-chip').first().waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Quarter', exact: true }).click();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.close();
  });
});
