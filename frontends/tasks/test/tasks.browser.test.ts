import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { dateIn, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { addFirmUser, expectToast, explained, openAs, recordFirmInfo, startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const FIRM = { name: `Harbor Accounting ${suffix}`, shortName: `harbor${suffix}` };
const TENANT = FIRM.shortName;
const clientDetails = (name: string, email: string) => ({ name, address: '12 Harbour Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email });

describe('tasks screen in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let cpa: FirmLogin;
  let firmZone: string;
  let cpaId: number;
  const clients: Record<string, number> = {};

  /** A PrimeReact list item (the hidden native select holds options of the same name). */
  const pick = (page: Page, name: string) => page.locator('li[role="option"]', { hasText: name });


  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'tasks']);
    call = apiClient(portal.baseUrl);
    const firm = await call<Company>('POST', '/api/companies', portal.adminToken, FIRM);
    expect(firm.status).toBe(201);
    firmZone = firm.body.timeZone;
    for (const name of ['Bayview Bakery', 'Coral Imports']) {
      const r = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, clientDetails(name, `${name.split(' ')[0]!.toLowerCase()}@example.com`));
      expect(r.status).toBe(201);
      clients[name] = r.body.id;
    }
    admin = (await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null })).login;
    const c = await addFirmUser(portal, TENANT, { username: `carl${suffix}`, fullName: 'Carl Pa', roleId: 3, clientIds: [clients['Bayview Bakery']!, clients['Coral Imports']!] });
    cpa = c.login;
    cpaId = c.id;
    // The tasks service knows the CPA (assignee list, access) once identity's events arrived.
    await eventually(async () => {
      const r = await call<Task[]>('GET', `/api/${TENANT}/tasks?assignedToId=${cpaId}`, cpa.token);
      expect(r.status).toBe(200);
    }, BUS_WAIT_MS, 300);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('an Admin creates a recurring task for two clients; the CPA\'s bell shows it live; the CPA updates a client; completing it brings the next occurrence', async () => {
    const cpaOrigin = portal.baseUrl.replace('127.0.0.1', 'localhost');
    const cpaPage = await openAs(portal, cpaOrigin, cpa, `/${TENANT}/tasks`);
    await cpaPage.getByText('Organize and track your important tasks and deadlines').waitFor();
    await expect(cpaPage.locator('.app-header__title').textContent()).resolves.toBe('Tasks');
    await expect(cpaPage.locator('.app-header [data-testid="notification-badge"]').count()).resolves.toBe(0);

    const adminPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/tasks`);
    await adminPage.getByRole('button', { name: 'New Task' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Create New Task' });
    await dialog.locator('#task-title').fill('Monthly bookkeeping');
    await dialog.locator('.p-dropdown', { has: adminPage.locator('#task-assignee') }).click();
    await adminPage.getByRole('option', { name: `Carl Pa (carl${suffix})` }).click();
    await dialog.locator('.p-multiselect', { has: adminPage.locator('#task-clients') }).click();
    await pick(adminPage, 'Bayview Bakery').click();
    await pick(adminPage, 'Coral Imports').click();
    // A click elsewhere closes the panel (Escape would close the dialog too).
    await dialog.locator('.p-dialog-title').click();
    // Due the 3rd of next month (a future day of a month the calendar pages to).
    const now = new Date();
    const due = new Date(now.getFullYear(), now.getMonth() + 1, 3);
    // Picked in the date picker (choosing a day closes it).
    await dialog.locator('#task-due').click();
    const picker = adminPage.locator('.p-datepicker');
    await picker.locator('.p-datepicker-next').click();
    await picker.locator('td:not(.p-datepicker-other-month) span', { hasText: /^3$/ }).click();
    await picker.waitFor({ state: 'hidden' });
    await expect(dialog.locator('#task-pattern').count()).resolves.toBe(0);
    await dialog.locator('label[for="task-recurring"]').click();
    await dialog.locator('.p-dropdown', { has: adminPage.locator('#task-pattern') }).click();
    await pick(adminPage, 'Monthly').click();
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await expectToast(adminPage, 'Task Created', 'Monthly bookkeeping');
    await adminPage.locator('.task-table').getByText('Monthly bookkeeping').waitFor();

    // Pushed over the socket: no reload on the CPA's side.
    const headerBadge = cpaPage.locator('.app-header [data-testid="notification-badge"]');
    await headerBadge.waitFor({ timeout: BUS_WAIT_MS });
    await expect(headerBadge.textContent()).resolves.toBe('1');
    // One bell: the header's; the page has none of its own.
    await expect(cpaPage.locator('.tasks-page [data-testid="notification-badge"]').count()).resolves.toBe(0);
    await cpaPage.locator('.task-table').getByText('Repeats monthly').waitFor();
    await cpaPage.locator('.app-header').getByRole('button', { name: 'Notifications' }).click();
    // The notification opens its task.
    await cpaPage.locator('.notification-popover').getByText('New task assigned').click();
    const opened = cpaPage.getByRole('dialog', { name: 'Edit Task' });
    await expect(opened.locator('#task-title').inputValue()).resolves.toBe('Monthly bookkeeping');
    expect(new URL(cpaPage.url()).search).toBe('');
    await opened.getByRole('button', { name: 'Cancel' }).click();
    await opened.waitFor({ state: 'hidden' });

    // The CPA updates one client's status.
    await cpaPage.locator('.task-table').getByText('Monthly bookkeeping').waitFor();
    await cpaPage.getByRole('button', { name: 'Update Client Status' }).first().click();
    const statusDialog = cpaPage.getByRole('dialog', { name: 'Update Client Status' });
    const bakery = statusDialog.locator(`li[data-client-id="${clients['Bayview Bakery']}"]`);
    await bakery.locator('.p-dropdown').click();
    await pick(cpaPage, 'Completed').click();
    await bakery.locator('textarea').fill('Books closed');
    await bakery.getByRole('button', { name: 'Update' }).click();
    await expectToast(cpaPage, 'Status Updated', 'Client status has been updated successfully.');
    const tasks = (await call<Task[]>('GET', `/api/${TENANT}/tasks`, admin.token)).body;
    const first = tasks.find((t) => t.title === 'Monthly bookkeeping')!;
    // The day picked is the day due, in the firm's zone.
    expect(dateIn(new Date(first.dueDate!), firmZone)).toBe(`${due.getFullYear()}-${String(due.getMonth() + 1).padStart(2, '0')}-03`);
    const statuses = (await call<{ clientId: number; status: string; comments: string }[]>('GET', `/api/${TENANT}/tasks/${first.id}/client-statuses`, admin.token)).body;
    expect(statuses.find((s) => s.clientId === clients['Bayview Bakery'])).toMatchObject({ status: 'completed', comments: 'Books closed' });

    // The Admin marks it complete; the next occurrence (3rd of the month after) shows in the calendar.
    await adminPage.locator(`.task-row-${first.id}`).getByRole('button', { name: 'Mark Complete' }).click();
    // One of its two clients is not done: asked first.
    const ask = adminPage.locator('.p-confirm-dialog', { hasText: 'Clients Not Done' });
    await ask.getByText(/^1 of 2 clients is not done yet: .+\. Mark the task complete anyway\?$/).waitFor();
    await ask.getByRole('button', { name: 'Mark Complete' }).click();
    await eventually(async () => expect((await call<Task[]>('GET', `/api/${TENANT}/tasks`, admin.token)).body.filter((t) => t.title === 'Monthly bookkeeping')).toHaveLength(2), BUS_WAIT_MS);
    await adminPage.getByRole('tab', { name: 'Calendar View' }).click();
    await adminPage.getByRole('button', { name: 'Next month' }).click();
    await adminPage.getByRole('button', { name: 'Next month' }).click();
    const next = new Date(now.getFullYear(), now.getMonth() + 2, 3);
    const key = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-03`;
    await adminPage.locator(`[data-day="${key}"]`).click();
    await adminPage.getByText(/Tasks for .* \(1 tasks\)/).waitFor();
    await adminPage.locator('.task-calendar__side').getByText('Monthly bookkeeping').waitFor();
    await expect(adminPage.locator(`[data-day="${key}"] .task-dot--medium`).count()).resolves.toBe(1);
    await portal.screenshot(adminPage, 'tasks-calendar');
  }, 120_000);

  /** The tasks page as `login` sees it in a browser whose clocks are in `timezoneId`, and what the firm's /info told it. */
  async function openInZone(timezoneId: string, login: FirmLogin): Promise<Page & { firmInfo: ReturnType<typeof recordFirmInfo> }> {
    const page = await portal.browser.newPage(portal.baseUrl);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setTimezoneOverride', { timezoneId });
    await setLocalStorage(page, { token: login.token, user: login.user, ...(login.tenant ? { currentTenant: login.tenant } : {}) });
    const firmInfo = recordFirmInfo(page);
    await page.goto(`${portal.baseUrl}/${TENANT}/tasks`);
    await page.getByText('Organize and track your important tasks and deadlines').waitFor();
    return Object.assign(page, { firmInfo });
  }

  it('a due date set in New York is the same date in Los Angeles and Kolkata; a typed past date shows the rule', async () => {
    const year = new Date().getFullYear() + 1;
    const ny = await openInZone('America/New_York', admin);
    await expect(ny.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).resolves.toBe('America/New_York');
    await ny.getByRole('button', { name: 'New Task' }).click();
    const dialog = ny.getByRole('dialog', { name: 'Create New Task' });
    await dialog.locator('#task-title').fill('Year-end review');
    // A date in the past, typed: the picker would drop it silently; the form says why instead.
    // Typed as a paste would (the picker's field parses whole dates).
    await dialog.locator('#task-due').fill('01/02/2020');
    await dialog.getByText('The due date cannot be in the past').waitFor();
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await dialog.getByRole('alert').getByText('The due date cannot be in the past').waitFor();
    await portal.screenshot(ny, 'task-past-due-date');
    await dialog.locator('#task-due').fill(`12/15/${year}`);
    await dialog.locator('#task-due').press('Tab');
    await ny.locator('.p-datepicker').waitFor({ state: 'hidden' });
    // The rule's message goes, beside the field and above the form.
    await expect(dialog.getByText('The due date cannot be in the past').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Create Task' }).click();
    await expectToast(ny, 'Task Created', 'Year-end review');
    const saved = (await call<Task[]>('GET', `/api/${TENANT}/tasks`, admin.token)).body.find((t) => t.title === 'Year-end review')!;
    expect(saved.dueDate).toBe(`${year}-12-15`);
    await ny.locator(`.task-row-${saved.id}`).getByText(`12/15/${year}`).waitFor();
    await ny.close();

    for (const zone of ['America/Los_Angeles', 'Asia/Kolkata']) {
      const adminPage = await openInZone(zone, admin);
      await adminPage.locator(`.task-row-${saved.id}`).getByText(`12/15/${year}`).waitFor();
      await adminPage.getByRole('tab', { name: 'Calendar View' }).click();
      const months = (year - new Date().getFullYear()) * 12 + 11 - new Date().getMonth();
      for (let i = 0; i < months; i++) await adminPage.getByRole('button', { name: 'Next month' }).click();
      await adminPage.locator(`[data-day="${year}-12-15"]`).click();
      await adminPage.locator('.task-calendar__side').getByText('Year-end review').waitFor();
      await portal.screenshot(adminPage, `task-due-date-${zone.replace('/', '-')}`);
      await adminPage.close();
    }
  }, 120_000);

  it("overdue and this week count by the firm's day: a firm in Kiritimati (UTC+14) seen from Pago Pago (UTC-11)", async () => {
    expect((await call('PUT', `/api/${TENANT}/firm-settings`, admin.token, { timeZone: 'Pacific/Kiritimati' })).status).toBe(200);
    // The browser's today is a day or two behind the firm's, whatever the hour.
    const browserToday = todayIn('Pacific/Pago_Pago');
    const firmToday = todayIn('Pacific/Kiritimati');
    expect(browserToday < firmToday).toBe(true);
    const due = async (title: string, dueDate: string) => {
      const r = await call<Task>('POST', `/api/${TENANT}/tasks`, admin.token, { title, priority: 'medium', dueDate, clientIds: [] });
      expect(r.status).toBe(201);
      return r.body.id;
    };
    const late = await due('Payroll filing', browserToday);
    const current = await due('Sales tax return', firmToday);
    const page = await openInZone('Pacific/Pago_Pago', admin);
    // Due on the browser's today, which the firm has left behind: overdue, not 'Today'.
    await explained(page.locator(`.task-row-${late}`).getByText('(Overdue)').waitFor(), page.firmInfo.describe);
    await page.locator(`.task-row-${current}`).getByText('(Today)').waitFor();
    const week = page.locator('.task-card', { has: page.getByRole('heading', { name: 'Due This Week' }) });
    await week.getByText('Sales tax return').waitFor();
    await expect(week.getByText('Payroll filing').count()).resolves.toBe(0);
    await page.close();
  }, 120_000);
});
