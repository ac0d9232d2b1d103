import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 39's walk: a New York firm onboards in late November 2026 with an individual, an S
 * corporation, a C corporation whose year ends on 30 June, an employer, a UK company with a 2025
 * accounting period and an Australian company. The tracker and the calendar show the January
 * employer returns on Monday 1 Feb 2027 and say why (31 Jan 2027 is a Sunday), the C
 * corporation's returns carry fiscal-year labels, the open CT600 and the FY2026 company return are
 * there although their periods ended before the firm started, and extending the 1120-S moves it to
 * 15 Sep 2027 on the calendar. At 1440 px and 390 px (issue 44: on a phone every tracker row shows
 * client, return, period, due date, status and days; the item dialog shows its dates), and seen
 * from browsers in two other zones, where the dates stay the same dates.
 *
 * The firm's start day is fixed (25 Nov 2026), so the walk reads the same whatever day it runs.
 */

const suffix = uniqueSuffix();
const ZONE = 'America/New_York';
const FIRM = { name: `Hudson & Pine ${suffix}`, shortName: `hudson${suffix}`, timeZone: ZONE };
const TENANT = FIRM.shortName;
const START = '2026-11-25';
const SETTINGS = {
  phoneLabel: 'Phone', phoneCountry: 'US', phonePattern: '^\\+?[0-9()\\- ]{7,20}$', phoneExample: '(555)-123-4567',
  federalIdLabel: 'EIN', federalIdPattern: '^[A-Z0-9-]{5,15}$', federalIdExample: '12-3456789', stateIdLabel: 'State ID', stateIdPattern: '^.+$', stateIdExample: 'NY-4411',
};
const CLIENTS = {
  individual: { name: 'Maya Alvarez', jurisdiction: 'US', entityType: 'individual', state: 'US-NY' },
  sCorp: { name: 'Austin Design Inc', jurisdiction: 'US', entityType: 's_corp', state: 'US-NY' },
  juneCorp: { name: 'Delaware Robotics Inc', jurisdiction: 'US', entityType: 'c_corp', state: 'US-DE', fiscalYearEnd: '06-30' },
  employer: { name: 'Hudson Payroll LLC', jurisdiction: 'US', entityType: 'partnership', state: 'US-NY', registrations: ['employer'] },
  uk: { name: 'Thames Widgets Ltd', jurisdiction: 'UK', entityType: 'company', fiscalYearEnd: '12-31' },
  au: { name: 'Sydney Harbour Pty Ltd', jurisdiction: 'AU', entityType: 'company', state: 'AU-NSW' },
} as const;
type ClientKey = keyof typeof CLIENTS;

describe('a New York firm onboarding in late November 2026 (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  const ids = {} as Record<ClientKey, number>;
  const itemsOf = async (key: ClientKey) => (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${ids[key]}`, admin.token)).body;
  const find = async (key: ClientKey, reportType: RegExp, dueDate?: string) => {
    const items = (await itemsOf(key)).filter((i) => reportType.test(i.reportTypeName) && (!dueDate || i.dueDate === dueDate || i.statutoryDueDate === dueDate));
    expect(items.map((i) => `${i.reportTypeName} ${i.period} ${i.dueDate}`)).not.toEqual([]);
    return items[0]!;
  };
  const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });

  async function applyCalendar(page: Page, jurisdiction: string, clients: ClientKey[]): Promise<void> {
    await page.getByRole('button', { name: 'Statutory Calendars' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply Statutory Calendar' });
    await dialog.locator('.p-dropdown', { has: page.locator('#preset-jurisdiction') }).click();
    await pick(page, jurisdiction).click();
    await dialog.locator('.p-multiselect', { has: page.locator('#preset-clients') }).click();
    for (const key of clients) await pick(page, CLIENTS[key].name).click();
    await dialog.locator('.p-dialog-title').click();
    // The firm took over on 25 Nov 2026: the items due from then on, whatever periods they cover.
    await expect(dialog.getByLabel('Create the items due from').isChecked()).resolves.toBe(true);
    await dialog.locator('#preset-items-from').fill('11/25/2026');
    await dialog.locator('#preset-items-from').press('Escape');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expectToast(page, 'Statutory Calendar Applied', /^\d+ schedules created, \d+ items$/);
    // What was created, client by client, and what was left out and why.
    await dialog.getByRole('list', { name: 'Created' }).waitFor();
    await dialog.getByText('items created, due from Nov 25, 2026').waitFor();
    await dialog.getByText('Left out').first().waitFor();
    await portal.screenshot(page, `compliance-us-apply-${jurisdiction.toLowerCase().replace(/\W+/g, '-')}-1440`);
    await dialog.getByRole('button', { name: 'Done' }).click();
  }
  /** Moves the month view to `title` ('February 2027') with the arrows. */
  async function showMonth(page: Page, title: string): Promise<void> {
    await page.getByRole('tab', { name: 'Calendar View' }).click();
    for (let i = 0; i < 36 && (await page.getByTestId('calendar-title').textContent()) !== title; i++) {
      const [shown, wanted] = [await page.getByTestId('calendar-title').textContent(), title].map((t) => Date.parse(`1 ${t}`));
      await page.getByRole('button', { name: shown! < wanted! ? 'Next month' : 'Previous month' }).click();
    }
    await expect(page.getByTestId('calendar-title').textContent()).resolves.toBe(title);
  }
  /** The page's client filter (it holds for the tracker and the calendar). */
  async function filterClient(page: Page, key: ClientKey): Promise<void> {
    await page.locator('.compliance-filters .p-dropdown').first().click();
    await pick(page, CLIENTS[key].name).click();
  }
  async function filterTracker(page: Page, key: ClientKey): Promise<void> {
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await filterClient(page, key);
    await page.locator('.compliance-table tbody tr', { hasText: CLIENTS[key].name }).first().waitFor();
  }

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'compliance']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    expect((await call('POST', `/api/${TENANT}/client-field-settings`, portal.adminToken, SETTINGS)).status).toBe(201);
    for (const [key, c] of Object.entries(CLIENTS) as [ClientKey, (typeof CLIENTS)[ClientKey]][]) {
      const r = await call<{ id: number; fiscalYearEnd: string; state: string | null }>('POST', `/api/${TENANT}/clients`, portal.adminToken, {
        address: '1 Liberty Plaza', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'NY-4411', email: `${key.toLowerCase()}@example.com`, ...c,
      });
      expect(r.status).toBe(201);
      ids[key] = r.body.id;
    }
    admin = (await addFirmUser(portal, TENANT, { username: `hp${suffix}`, fullName: 'Hana Pine', roleId: 1, clientIds: null })).login;
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('reads the clients back with their year ends (the jurisdiction\'s when unsaid), States and registrations', async () => {
    const clients = (await call<{ id: number; fiscalYearEnd: string; state: string | null; registrations: string[] | null }[]>('GET', `/api/${TENANT}/clients`, admin.token)).body;
    const of = (key: ClientKey) => clients.find((c) => c.id === ids[key])!;
    expect(of('juneCorp')).toMatchObject({ fiscalYearEnd: '06-30', state: 'US-DE' });
    expect(of('au')).toMatchObject({ fiscalYearEnd: '06-30', state: 'AU-NSW' });
    expect(of('individual')).toMatchObject({ fiscalYearEnd: '12-31', registrations: null });
    expect(of('employer')).toMatchObject({ registrations: ['employer'] });
  });

  it('applies the US, UK and Australian calendars, generates from the start day, and the tracker says why dates moved', async () => {
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/compliance`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('tab', { name: 'Calendar View' }).waitFor();
    await applyCalendar(page, 'United States', ['individual', 'sCorp', 'juneCorp', 'employer']);
    await applyCalendar(page, 'United Kingdom', ['uk']);
    await applyCalendar(page, 'Australia', ['au']);

    // The firm took over on 25 Nov 2026: every return due from then on, whatever period it covers.
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await page.locator('#generation-start').fill('11/25/2026');
    await page.locator('#generation-start').press('Escape');
    for (const year of [2026, 2027]) {
      const r = await call<{ created: number; leftOut: unknown[] }>('POST', `/api/${TENANT}/compliance-schedules/generate/${year}?from=${START}`, admin.token);
      expect(r.status).toBe(200);
    }
    // The Schedules tab says what a generation made and what it left out, and why.
    const generateButton = page.getByRole('button', { name: /^Generate 2026 for all schedules shown$/ });
    if (await generateButton.count()) {
      await generateButton.click();
      await page.getByRole('status', { name: 'Generation result' }).waitFor();
      await portal.screenshot(page, 'compliance-us-generation-result-1440');
    }

    // The employer's returns for 2026, due on Sunday 31 Jan 2027, are due on Monday 1 Feb 2027.
    const q4 = await find('employer', /941/, '2027-01-31');
    expect(q4).toMatchObject({ statutoryDueDate: '2027-01-31', dueDate: '2027-02-01' });
    expect(q4.dueDateReason).toContain('31 Jan 2027 is a Sunday');
    // The June year-end corporation's returns name its fiscal year; the UK and Australian returns whose periods ended are there.
    const fy1120 = await find('juneCorp', /^Form 1120$/);
    expect(fy1120.period).toMatch(/^FY Jul 20\d\d–Jun 20\d\d$/);
    const ct600 = await find('uk', /CT600/);
    expect(ct600).toMatchObject({ periodEnd: '2025-12-31', dueDate: '2026-12-31' });
    const auCompany = await find('au', /company/i, '2027-02-28');
    expect(auCompany).toMatchObject({ periodEnd: '2026-06-30', dueDate: '2027-03-01' });

    await filterTracker(page, 'employer');
    const row = page.locator(`.compliance-row-${q4.id}`);
    await row.getByText('Feb 01, 2027').waitFor();
    await row.getByText('Due Mon 1 Feb 2027 — 31 Jan 2027 is a Sunday').waitFor();
    // On a wide screen a table with its column headers (the phone's per-line titles hidden).
    await expect(page.locator('.compliance-table thead th').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['Client', 'Report Type', 'Period', 'Due Date', 'Status', 'Days']));
    await expect(row.locator('td').first().locator('.p-column-title').isVisible()).resolves.toBe(false);
    await portal.screenshot(page, 'compliance-us-tracker-1440');

    await filterTracker(page, 'juneCorp');
    await page.locator(`.compliance-row-${fy1120.id}`).getByText(fy1120.period).waitFor();
    await filterTracker(page, 'uk');
    await page.locator(`.compliance-row-${ct600.id}`).getByText('Dec 31, 2026').waitFor();
    await filterTracker(page, 'au');
    await page.locator(`.compliance-row-${auCompany.id}`).getByText('Mar 01, 2027').waitFor();

    // The calendar puts them on the business day and says why.
    await filterClient(page, 'employer');
    await showMonth(page, 'February 2027');
    const moved = page.locator('[data-day="2027-02-01"] .compliance-chip', { hasText: CLIENTS.employer.name.slice(0, 15) }).first();
    await moved.waitFor();
    await expect(moved.getAttribute('title')).resolves.toContain('31 Jan 2027 is a Sunday');
    await expect(page.locator('[data-day="2027-01-31"] .compliance-chip', { hasText: CLIENTS.employer.name.slice(0, 15) }).count()).resolves.toBe(0);
    await portal.screenshot(page, 'compliance-us-calendar-feb-2027-1440');
    await page.close();
  });

  it('extends the 1120-S from the tracker: the calendar moves it to 15 Sep 2027', async () => {
    const form1120s = await find('sCorp', /1120-S/, '2027-03-15');
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/compliance`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await filterTracker(page, 'sCorp');
    await page.locator(`.compliance-row-${form1120s.id}`).getByRole('button', { name: `Extend ${form1120s.reportTypeName} ${form1120s.period}` }).click();
    // The toast's text, whichever it is, so a refusal says why.
    const toast = page.locator('.p-toast-message').last();
    await toast.waitFor();
    await expect(toast.innerText()).resolves.toContain(`${form1120s.reportTypeName} ${form1120s.period} extended to Sep 15, 2027`);
    await page.locator(`.compliance-row-${form1120s.id}`).getByText('Extended to Sep 15, 2027').waitFor();
    await eventually(async () => expect((await itemsOf('sCorp')).find((i) => i.id === form1120s.id)).toMatchObject({ status: 'extended', extendedDueDate: '2027-09-15' }), 5000, 200);

    await showMonth(page, 'September 2027');
    const chip = page.locator('[data-day="2027-09-15"] .compliance-chip', { hasText: '1120-S' });
    await chip.waitFor();
    await expect(chip.getAttribute('title')).resolves.toContain('Extended from Mar 15, 2027');
    await portal.screenshot(page, 'compliance-us-calendar-sep-2027-1440');
    await showMonth(page, 'March 2027');
    await expect(page.locator('[data-day="2027-03-15"] .compliance-chip', { hasText: '1120-S' }).count()).resolves.toBe(0);

    // The bulk bar's Extend without a date: each selected item to its own entry's day (Form 1040 → 15 Oct 2027).
    const form1040 = await find('individual', /^Form 1040$/, '2027-04-15');
    await filterTracker(page, 'individual');
    await page.locator(`.compliance-row-${form1040.id} .p-checkbox`).click();
    await page.getByRole('toolbar', { name: 'Selected items' }).getByRole('button', { name: 'Extend', exact: true }).click();
    await expectToast(page, 'Items Updated', '1 items extended');
    await eventually(async () => expect((await itemsOf('individual')).find((i) => i.id === form1040.id)).toMatchObject({ status: 'extended', extendedDueDate: '2027-10-15' }), 5000, 200);
    await page.close();
  });

  it('on a phone every tracker row shows client, return, period, due date, status and days; the item dialog shows its dates', async () => {
    const q4 = await find('employer', /941/, '2027-01-31');
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/compliance`);
    await page.setViewportSize({ width: 390, height: 844 });
    await filterTracker(page, 'employer');
    const row = page.locator(`.compliance-row-${q4.id}`);
    await row.getByText('Due Mon 1 Feb 2027 — 31 Jan 2027 is a Sunday').waitFor();
    // Each line of the card: its column's title and the value, inside the screen.
    const lines: [string, string | RegExp][] = [
      ['Client', CLIENTS.employer.name], ['Report Type', q4.reportTypeName], ['Period', q4.period], ['Due Date', 'Feb 01, 2027'], ['Status', 'Pending'], ['Days', /\d+ days/],
    ];
    for (const [title, value] of lines) {
      const cell = row.locator('td', { has: page.locator('.p-column-title', { hasText: new RegExp(`^${title}$`) }) });
      await expect(cell.innerText()).resolves.toMatch(typeof value === 'string' ? value : value);
      const box = await cell.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expect(box!.y).toBeGreaterThanOrEqual(0);
    }
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'compliance-us-tracker-390');

    await row.getByRole('button', { name: `Update ${q4.reportTypeName} ${q4.period}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Update Compliance Status' });
    const dates = dialog.getByRole('definition');
    await dialog.getByText('Period Start').waitFor();
    await expect(dates.allInnerTexts()).resolves.toEqual(expect.arrayContaining([
      'Oct 01, 2026', 'Dec 31, 2026', 'Sun 31 Jan 2027', 'Mon 1 Feb 2027 (31 Jan 2027 is a Sunday)',
    ]));
    await eventually(async () => expect(await sideways(page)).toBeLessThanOrEqual(0), 3000, 100);
    await portal.screenshot(page, 'compliance-us-item-dialog-390');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // The calendar on a phone: the moved returns on Monday 1 Feb, the reason in their titles, nothing sideways.
    await showMonth(page, 'February 2027');
    const chip = page.locator('[data-day="2027-02-01"] .compliance-chip').first();
    await chip.waitFor();
    await expect(chip.getAttribute('title')).resolves.toContain('31 Jan 2027 is a Sunday');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'compliance-us-calendar-390');
    await page.close();
  });

  it('dates stay dates seen from browsers in Honolulu and Tokyo at the turn of a day', async () => {
    const q4 = await find('employer', /941/, '2027-01-31');
    const form1120s = await find('sCorp', /1120-S/, '2027-03-15');
    for (const zone of ['Pacific/Honolulu', 'Asia/Tokyo']) {
      const page = await portal.browser.newPage(portal.baseUrl);
      await (await page.context().newCDPSession(page)).send('Emulation.setTimezoneOverride', { timezoneId: zone });
      // 23:30 on the firm's day in New York: already the next day in Tokyo, still the day in Honolulu.
      await page.clock.setFixedTime(new Date('2026-11-30T04:30:00Z'));
      await page.setViewportSize({ width: 1440, height: 900 });
      await setLocalStorage(page, { token: admin.token, user: admin.user, ...(admin.tenant ? { currentTenant: admin.tenant } : {}) });
      await page.goto(`${portal.baseUrl}/${TENANT}/compliance`);
      await expect(page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).resolves.toBe(zone);
      // The firm's today is 29 Nov 2026 in New York, whatever day the browser's zone is on.
      await page.locator('[data-day="2026-11-29"].compliance-calendar__day--today').waitFor();
      await filterTracker(page, 'employer');
      const row = page.locator(`.compliance-row-${q4.id}`);
      await row.getByText('Feb 01, 2027').waitFor();
      await row.getByText('Due Mon 1 Feb 2027 — 31 Jan 2027 is a Sunday').waitFor();
      await row.getByRole('button', { name: `Update ${q4.reportTypeName} ${q4.period}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Update Compliance Status' });
      await dialog.getByText('Period Start').waitFor();
      await expect(dialog.getByRole('definition').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['Oct 01, 2026', 'Dec 31, 2026', 'Sun 31 Jan 2027']));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await filterTracker(page, 'sCorp');
      await page.locator(`.compliance-row-${form1120s.id}`).getByText('Extended to Sep 15, 2027').waitFor();
      await showMonth(page, 'September 2027');
      await page.locator('[data-day="2027-09-15"] .compliance-chip', { hasText: '1120-S' }).waitFor();
      await page.close();
    }
  });

  it('another firm cannot see these clients\' items', async () => {
    const other = { name: `Other Firm ${suffix}`, shortName: `other${suffix}` };
    expect((await call('POST', '/api/companies', portal.adminToken, other)).status).toBe(201);
    const outsider = (await addFirmUser(portal, other.shortName, { username: `out${suffix}`, fullName: 'Otto Outsider', roleId: 1, clientIds: null })).login;
    const r = await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${ids.employer}`, outsider.token);
    expect(r.status).toBeGreaterThanOrEqual(400);
    const own = await call<ComplianceItem[]>('GET', `/api/${other.shortName}/compliance-tracker`, outsider.token);
    expect(own.body).toEqual([]);
  });
});
