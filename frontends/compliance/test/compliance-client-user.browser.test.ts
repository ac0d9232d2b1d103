import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem, ComplianceSchedule } from '@ledgerline/contracts/compliance.contracts.ts';
import { SCREENSHOT_DIR, startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * A Client user's compliance page is about their company: its name in the heading, no client
 * filter, and the calendar leads somewhere for them as for staff: an entry opens the item (to
 * read), "+N more" the day's list.
 */

const suffix = uniqueSuffix();
const FIRM = { name: `Client View ${suffix}`, shortName: `cview${suffix}` };
const TENANT = FIRM.shortName;
const YEAR = new Date().getFullYear();
const MONTH = String(new Date().getMonth() + 1).padStart(2, '0');
const DUE_DAY = 15;
interface Login { token: string; user: Record<string, unknown> }

describe('a Client user\'s compliance page in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let owner: Login;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'compliance']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    const client = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, {
      name: 'Harbourside Kitchens Pvt Ltd', address: '4 Market Road', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'harbour@example.com',
    });
    // Four returns due on the same day of every month: a day of the calendar shows three and "+1 more".
    for (const name of ['GSTR-1', 'GSTR-3B', 'TDS Payment', 'PF Return']) {
      const type = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name });
      const s = await call<ComplianceSchedule>('POST', `/api/${TENANT}/compliance-schedules`, portal.adminToken, { clientId: client.body.id, reportTypeId: type.body.id, frequency: 'monthly', dueDayOfMonth: DUE_DAY });
      expect(s.status).toBe(201);
      expect((await call('POST', `/api/${TENANT}/compliance-schedules/${s.body.id}/generate/${YEAR}?from=${YEAR}-01-01`, portal.adminToken)).status).toBe(200);
    }
    expect((await call('POST', `/api/${TENANT}/users`, portal.adminToken, { username: `harbour${suffix}`, password: 'password1', fullName: 'Hana Harbour', roleId: 4, clientIds: [client.body.id] })).status).toBe(201);
    owner = (await call<Login>('POST', `/api/${TENANT}/auth/login`, null, { username: `harbour${suffix}`, password: 'password1' })).body;
    await eventually(async () => expect((await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker`, owner.token)).body.length).toBeGreaterThan(0), 15_000, 200);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it.each([[1440, 900], [390, 844]])('at %i px: the page names their company, has no client filter, and entries and "+N more" open for them read-only', async (width, height) => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height });
    await setLocalStorage(page, { token: owner.token, user: owner.user });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance`);
    await page.getByRole('heading', { name: 'Compliance · Harbourside Kitchens Pvt Ltd' }).waitFor();
    await expect(page.getByText('All Clients').count()).resolves.toBe(0);
    await expect(page.getByRole('combobox', { name: 'Client' }).count()).resolves.toBe(0);

    const day = page.locator(`[data-day="${YEAR}-${MONTH}-${DUE_DAY}"]`);
    await day.locator('.compliance-chip').first().waitFor();
    await expect(day.locator('.compliance-chip').count()).resolves.toBe(3);
    await portal.screenshot(page, `compliance-client-user-${width}`);

    // An entry opens the item to read: no status to change, nothing to save.
    await day.locator('.compliance-chip').first().click();
    const details = page.getByRole('dialog', { name: 'Compliance Item' });
    await details.getByText('Harbourside Kitchens Pvt Ltd').waitFor();
    await details.getByText('Due Date').waitFor();
    await expect(details.getByRole('button', { name: 'Save Changes' }).count()).resolves.toBe(0);
    await expect(details.getByRole('combobox').count()).resolves.toBe(0);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/compliance-client-item-${width}.png` });
    await details.getByRole('button', { name: 'Close' }).first().click();
    await details.waitFor({ state: 'hidden' });

    // "+1 more" lists the whole day; a line of it opens that item.
    await day.getByRole('button', { name: '+1 more' }).click();
    const list = page.getByRole('dialog', { name: /^Due / });
    // The day's list is read when the dialog opens: counted once it has come.
    await eventually(async () => expect(await list.locator('li').count()).toBe(4), 10_000);
    await list.getByRole('button', { name: /PF Return/ }).click();
    await page.getByRole('dialog', { name: 'Compliance Item' }).getByText('PF Return').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.close();
  }, 120_000);
});
