import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { expectToast, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 23's walk: an Indian firm with an Indian company and two US companies (one a C
 * corporation) onboards in the late autumn. The US calendar gives the C corporation Form 1120 and
 * no Form 1040, the CPA serving it is granted the new report types, generation starts on the day
 * the schedules were made (nothing already overdue is created), items name the period they cover,
 * and the CPA sees their work. At 1440 px and 390 px, with screenshots.
 */

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const FIRM = { name: `Mehta & Rao ${suffix}`, shortName: `mehta${suffix}` };
const TENANT = FIRM.shortName;
const TODAY = new Date().toISOString().slice(0, 10);
const YEAR = new Date().getFullYear();
const LATE_IN_YEAR = new Date().getMonth() >= 9;
const client = (name: string, extra: Record<string, unknown>) => ({
  name, address: '4 Market Road', phone: '+919876543210', federalId: 'ABCDE1234F', stateId: '27ABCDE1234F1Z5', email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, ...extra,
});
// An Indian firm: its country is India; its field rules take Indian and US numbers alike.
const SETTINGS = {
  phoneLabel: 'Phone', phoneCountry: 'IN', phonePattern: '^\\+?[0-9()\\- ]{7,20}$', phoneExample: '+919876543210',
  federalIdLabel: 'Tax ID', federalIdPattern: '^[A-Z0-9-]{5,15}$', federalIdExample: 'ABCDE1234F', stateIdLabel: 'State ID', stateIdPattern: '^.+$', stateIdExample: '27ABCDE1234F1Z5',
};
interface Login { token: string; user: Record<string, unknown>; tenant?: unknown }

describe('a firm onboarding in November (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: Login;
  let cpa: Login;
  const ids: Record<string, number> = {};

  async function addUser(username: string, fullName: string, roleId: number, clientIds: number[] | null): Promise<Login & { id: number }> {
    const created = await call<{ id: number }>('POST', `/api/${TENANT}/users`, portal.adminToken, { username, password: 'password1', fullName, roleId, clientIds, reportTypeIds: [] });
    expect(created.status).toBe(201);
    const login = await call<Login>('POST', `/api/${TENANT}/auth/login`, null, { username, password: 'password1' });
    expect(login.status).toBe(200);
    return { ...login.body, id: created.body.id };
  }
  async function openAs(login: Login, width: number): Promise<Page> {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    await setLocalStorage(page, { token: login.token, user: login.user, ...(login.tenant ? { currentTenant: login.tenant } : {}) });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance`);
    await page.getByRole('tab', { name: 'Calendar View' }).waitFor();
    return page;
  }
  const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'compliance']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    expect((await call('POST', `/api/${TENANT}/client-field-settings`, portal.adminToken, SETTINGS)).status).toBe(201);
    const make = async (name: string, extra: Record<string, unknown>) => {
      const r = await call<{ id: number; jurisdiction: string }>('POST', `/api/${TENANT}/clients`, portal.adminToken, client(name, extra));
      expect(r.status).toBe(201);
      ids[name] = r.body.id;
      return r.body;
    };
    // The firm's country by default; the US companies say theirs.
    expect((await make('Mumbai Textiles Pvt Ltd', { entityType: 'company' })).jurisdiction).toBe('IN');
    await make('Delaware Robotics Inc', { jurisdiction: 'US', entityType: 'c_corp' });
    await make('Austin Design LLC', { jurisdiction: 'US', entityType: 's_corp' });
    admin = await addUser(`admin${suffix}`, 'Anita Mehta', 1, null);
    cpa = await addUser(`cpa${suffix}`, 'Priya Shah', 3, [ids['Delaware Robotics Inc']!, ids['Mumbai Textiles Pvt Ltd']!]);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('applies the US calendar by entity type and grants the CPA; applies India; generates from the day the schedules were made', async () => {
    const page = await openAs(admin, 1440);
    await page.getByRole('button', { name: 'Statutory Calendars' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply Statutory Calendar' });
    await dialog.locator('.p-dropdown', { has: page.locator('#preset-jurisdiction') }).click();
    await pick(page, 'United States').click();
    await dialog.locator('.p-multiselect', { has: page.locator('#preset-clients') }).click();
    await pick(page, 'Delaware Robotics Inc').click();
    await pick(page, 'Austin Design LLC').click();
    await dialog.locator('.p-dialog-title').click();
    const corp = ids['Delaware Robotics Inc']!;
    const checked = (clientId: number, entry: string) => dialog.locator(`#preset-${clientId}-${entry}`).isChecked();
    // The C corporation: Form 1120 and its estimates, employer returns; no Form 1040, no 1120-S.
    await expect(checked(corp, 'form-1120')).resolves.toBe(true);
    await expect(checked(corp, 'form-1120-w')).resolves.toBe(true);
    await expect(checked(corp, 'form-1040')).resolves.toBe(false);
    await expect(checked(corp, 'form-1120-s')).resolves.toBe(false);
    await expect(checked(ids['Austin Design LLC']!, 'form-1120-s')).resolves.toBe(true);
    // Priya serves the C corporation: she is pre-chosen to be granted its report types.
    await dialog.locator('.p-multiselect', { has: page.locator('#preset-grantees') }).getByText('Priya Shah').waitFor();
    await portal.screenshot(page, 'compliance-onboarding-apply-1440');
    // This walk generates from the Schedules tab: the calendar makes only the schedules.
    await dialog.getByLabel('Create the items due from').uncheck();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    // 7 for the C corporation, 6 for the S corporation (their registrations unsaid: a business's employer and 1099 returns too).
    await expectToast(page, 'Statutory Calendar Applied', '13 schedules created');
    await dialog.getByText(/^Priya Shah now sees /).waitFor();
    const granted = (await dialog.getByText(/^Priya Shah now sees /).textContent())!;
    expect(granted).toContain('Form 1120');
    expect(granted).not.toContain('Form 1120-S');
    await portal.screenshot(page, 'compliance-onboarding-granted-1440');
    await dialog.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Statutory Calendars' }).click();
    await dialog.locator('.p-dropdown', { has: page.locator('#preset-jurisdiction') }).click();
    await pick(page, 'India').click();
    await dialog.locator('.p-multiselect', { has: page.locator('#preset-clients') }).click();
    await pick(page, 'Mumbai Textiles Pvt Ltd').click();
    await dialog.locator('.p-dialog-title').click();
    // On a phone the dialog's per-client entries and grantees fit without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.locator('.p-multiselect', { has: page.locator('#preset-grantees') }).getByText('Priya Shah').waitFor();
    await expect(dialog.locator(`#preset-${ids['Mumbai Textiles Pvt Ltd']}-gstr-3b-qrmp`).isChecked()).resolves.toBe(false);
    // Measured once the dialog has settled (its opening transition overflows for a moment).
    await eventually(async () => expect(await sideways(page)).toBeLessThanOrEqual(0), 3000, 100);
    expect(await dialog.evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'compliance-onboarding-apply-390');
    await page.setViewportSize({ width: 1440, height: 900 });
    // This walk generates from the Schedules tab: the calendar makes only the schedules.
    await dialog.getByLabel('Create the items due from').uncheck();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expectToast(page, 'Statutory Calendar Applied', '9 schedules created');
    await dialog.getByRole('button', { name: 'Done' }).click();

    // Generate this year with the default start: the day the schedules were made.
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await page.getByRole('button', { name: `Generate ${YEAR} for all schedules shown` }).click();
    await expectToast(page, 'Trackers Generated', new RegExp(`^\\d+ items created for 22 schedules, ${YEAR}$`));
    const items = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker`, admin.token)).body;
    // Nothing due before onboarding (issue 39: what is due from then on, whatever period it covers); so nothing overdue.
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((i) => i.dueDate >= TODAY)).toBe(true);
    // One client's earlier GSTR-3B returns were filed by its former accountant: made as filed, none overdue.
    await page.getByLabel('Add the periods before it as filed').check();
    await page.getByRole('article', { name: 'Mumbai Textiles Pvt Ltd GSTR-3B' }).getByRole('button', { name: `Generate ${YEAR}` }).click();
    await expectToast(page, 'Trackers Generated', new RegExp(`^\\d+ items created for GSTR-3B ${YEAR} \\(\\d+ earlier periods as filed\\)$`));
    const mumbai3b = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${ids['Mumbai Textiles Pvt Ltd']}`, admin.token)).body
      .filter((i) => i.reportTypeName === 'GSTR-3B' && i.dueDate.startsWith(String(YEAR)));
    expect(mumbai3b).toHaveLength(12);
    expect(mumbai3b.filter((i) => i.periodEnd < TODAY).every((i) => i.status === 'filed')).toBe(true);
    const overdue = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker/overdue`, admin.token)).body;
    expect(overdue.filter((i) => i.reportTypeName === 'GSTR-3B' && i.clientId === ids['Mumbai Textiles Pvt Ltd'])).toEqual([]);
    await page.getByLabel('Add the periods before it as filed').uncheck();
    const gstr3b = items.find((i) => i.reportTypeName === 'GSTR-3B');
    expect(gstr3b?.period).toBe(new Date(`${gstr3b!.periodStart}T00:00:00Z`).toLocaleString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).replace(',', ''));
    if (LATE_IN_YEAR) {
      await page.getByRole('button', { name: `Generate ${YEAR + 1} for all schedules shown` }).click();
      await expectToast(page, 'Trackers Generated', new RegExp(`^\\d+ items created for 22 schedules, ${YEAR + 1}$`));
      const next = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${corp}`, admin.token)).body;
      expect(next.find((i) => i.reportTypeName === 'Form 1120')).toMatchObject({ period: String(YEAR), dueDate: `${YEAR + 1}-04-15` });
      expect(next.find((i) => i.reportTypeName === 'Form 941' && i.statutoryDueDate === `${YEAR + 1}-01-31`)).toMatchObject({ period: `Q4 ${YEAR}` });
    }
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await page.locator('.compliance-table tbody tr').first().waitFor();
    await portal.screenshot(page, 'compliance-onboarding-tracker-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'compliance-onboarding-tracker-390');
    await page.close();
  });

  it('the CPA sees their clients\' work and can assign it and file it with a past date, on a phone', async () => {
    await eventually(async () => {
      const r = await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${ids['Delaware Robotics Inc']}`, cpa.token);
      expect(r.body.map((i) => i.reportTypeName)).toContain('Corporate estimated tax (Form 1120-W)');
    }, BUS_WAIT_MS);
    const page = await openAs(cpa, 390);
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    const row = page.locator('.compliance-table tbody tr', { hasText: 'Corporate estimated tax (Form 1120-W)' }).first();
    await row.waitFor();
    await expect(page.locator('.compliance-table').getByText('Austin Design LLC').count()).resolves.toBe(0);
    await row.getByRole('button', { name: /^Update / }).click();
    const dialog = page.getByRole('dialog', { name: 'Update Compliance Status' });
    await dialog.locator('.p-dropdown', { has: page.locator('#tracker-assignee') }).click();
    await pick(page, 'Priya Shah').click();
    await dialog.locator('.p-dropdown', { has: page.locator('#tracker-status') }).click();
    await pick(page, 'Filed').click();
    await dialog.locator('#tracker-filed').fill(`01/05/${YEAR}`);
    await dialog.locator('#tracker-filed').press('Escape');
    await portal.screenshot(page, 'compliance-onboarding-cpa-dialog-390');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Status Updated', /^Corporate estimated tax \(Form 1120-W\) Q\d /);
    await row.getByText('Filed', { exact: true }).waitFor();
    await row.getByText('Priya Shah').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, 'compliance-onboarding-cpa-tracker-390');
    const filed = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?clientId=${ids['Delaware Robotics Inc']}&status=filed`, cpa.token)).body;
    expect(filed[0]).toMatchObject({ status: 'filed', assignedToName: 'Priya Shah' });
    expect(filed[0]!.filedDate!.slice(0, 10)).toBe(`${YEAR}-01-05`);
    await page.close();
  });

  it.each([390, 1440])("once the firm's country is India, its calendar comes first and is chosen to begin with (%i px)", async (width) => {
    const firm = (await call<{ id: number; shortName: string }[]>('GET', '/api/companies', portal.adminToken)).body.find((c) => c.shortName === TENANT)!;
    expect((await call('PUT', `/api/companies/${firm.id}`, portal.adminToken, { ...FIRM, country: 'IN' })).status).toBe(200);
    const page = await openAs(admin, width);
    await page.getByRole('button', { name: 'Statutory Calendars' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply Statutory Calendar' });
    const jurisdiction = dialog.locator('.p-dropdown', { has: page.locator('#preset-jurisdiction') });
    await jurisdiction.locator('.p-dropdown-label', { hasText: 'India' }).waitFor();
    await jurisdiction.click();
    const options = await page.locator('li[role="option"]').allTextContents();
    expect(options[0]).toContain('India');
    expect(options.some((o) => o.includes('United States'))).toBe(true);
    await page.keyboard.press('Escape');
    await portal.screenshot(page, `compliance-presets-firm-country-${width}`);
    await page.close();
  });
});
