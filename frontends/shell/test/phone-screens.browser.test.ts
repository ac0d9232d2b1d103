// The everyday screens on a phone (390×844) and a desktop (1440×900): a wide table keeps its
// key column and its actions in view (Tasks, Compliance Tracker, Client Reports), tab bars
// show every tab, the Compliance calendar starts on the first screen, and the Messages
// composer is in view below the conversations.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

const suffix = uniqueSuffix();
const firm = { name: `Pier Tax ${suffix}`, shortName: `pier${suffix}` };
const TENANT = firm.shortName;
const YEAR = new Date().getFullYear();
const REPORT = 'pier-harbor-foods-annual-statement-2025.txt';
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

describe('everyday screens on a phone and a desktop', () => {
  let portal: PortalBrowser;
  let admin: FirmLogin;
  let client: FirmLogin;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'tasks', 'compliance', 'documents', 'chat', 'messaging']);
    const call = apiClient(portal.baseUrl);
    const token = portal.adminToken;
    expect((await call('POST', '/api/companies', token, firm)).status).toBe(201);
    const harbor = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, token, {
      name: 'Harbor Foods International Trading', address: '1 Quay Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: 'harbor@example.test',
    });
    const type = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, token, { name: 'Annual Statement' });
    const roles = await call<{ id: number; name: string }[]>('GET', `/api/${TENANT}/roles`, token);
    const roleId = (name: string) => roles.body.find((r) => r.name === name)!.id;
    const adminUser = await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: roleId('Admin'), clientIds: null });
    admin = { ...adminUser.login, tenant: { id: 0, ...firm, isActive: true } };
    const clientUser = await addFirmUser(portal, TENANT, { username: `hal${suffix}`, fullName: 'Hal Harbor', roleId: roleId('Client'), clientIds: [harbor.body.id] });
    client = { ...clientUser.login, tenant: { id: 0, ...firm, isActive: true } };

    await eventually(async () => {
      const task = await call('POST', `/api/${TENANT}/tasks`, admin.token, {
        title: 'Prepare the quarterly VAT return and reconcile the ledgers', description: 'Bank statements are in the shared folder', priority: 'high', assignedToId: adminUser.id, clientIds: [harbor.body.id],
      });
      expect(task.status).toBe(201);
    }, 30_000, 250);
    await eventually(async () => {
      const schedule = await call<{ id: number }>('POST', `/api/${TENANT}/compliance-schedules`, admin.token, { clientId: harbor.body.id, reportTypeId: type.body.id, frequency: 'monthly' });
      expect(schedule.status).toBe(201);
      expect((await call('POST', `/api/${TENANT}/compliance-schedules/${schedule.body.id}/generate/${YEAR}`, admin.token)).status).toBe(200);
    }, 30_000, 250);
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(harbor.body.id));
    form.append('reportTypeId', String(type.body.id));
    form.append('file', new Blob(['Annual statement\nTotal 4242'], { type: 'text/plain' }), REPORT);
    expect((await fetch(`${portal.baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: form })).status).toBe(201);
    await eventually(async () => {
      const r = await call('POST', `/api/${TENANT}/conversations`, admin.token, { title: 'Year-end documents', participantIds: [clientUser.id] });
      expect(r.status).toBe(201);
    }, 30_000, 300);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** Whether the element lies wholly within the screen's width (and, with `fold`, its height). */
  const inView = async (page: Page, locator: Locator, fold = false) => {
    const box = (await locator.boundingBox())!;
    const size = page.viewportSize()!;
    // Inside a table, also within the box it scrolls in (a cell scrolled out of it is hidden).
    const clip = await locator.evaluate((el) => {
      const r = el.closest('.p-datatable-wrapper')?.getBoundingClientRect();
      return r ? { left: r.left, right: r.right } : null;
    });
    const left = Math.max(0, clip?.left ?? 0);
    const right = Math.min(size.width, clip?.right ?? size.width);
    return box.x >= left - 0.5 && box.x + box.width <= right + 0.5 && (!fold || box.y + box.height <= size.height + 0.5);
  };
  const open = async (login: FirmLogin, path: string, viewport: (typeof VIEWPORTS)[number]) => {
    const page = await openAs(portal, portal.baseUrl, login, `/${TENANT}${path}`);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    return page;
  };

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name}: Tasks keeps its actions in view and shows every tab`, async () => {
      const page = await open(admin, '/tasks', viewport);
      const row = page.locator('.task-table .p-datatable-tbody tr').first();
      await row.getByRole('button', { name: 'Mark Complete' }).waitFor();
      for (const name of ['Mark Complete', 'Update Client Status', 'Edit task', 'Delete task']) {
        expect([name, await inView(page, row.getByRole('button', { name }))]).toEqual([name, true]);
      }
      const key = row.locator('td').first();
      expect(await inView(page, key)).toBe(true);
      // The key column stays readable: words, not a letter per line.
      expect((await key.boundingBox())!.width).toBeGreaterThan(110);
      expect((await row.boundingBox())!.height).toBeLessThan(220);
      for (const tab of ['List View', 'Calendar View', 'Notifications']) {
        expect([tab, await inView(page, page.getByRole('tab', { name: tab }))]).toEqual([tab, true]);
      }
      expect(await sideways(page)).toBe(0);
      await portal.screenshot(page, `phone-screens-tasks-${viewport.name}`);
      await page.close();
    }, 60_000);

    it(`${viewport.name}: Compliance starts its calendar on the first screen; the tracker keeps its actions in view`, async () => {
      const page = await open(admin, '/compliance', viewport);
      const calendar = page.locator('.compliance-calendar__grid');
      await calendar.waitFor();
      await portal.screenshot(page, `phone-screens-compliance-calendar-${viewport.name}`);
      // Its weekdays and first weeks are on the first screen.
      expect((await calendar.boundingBox())!.y).toBeLessThan(viewport.height - 200);
      await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
      const row = page.locator('.compliance-table .p-datatable-tbody tr').first();
      await row.getByRole('button', { name: /^Update Annual Statement/ }).waitFor();
      expect(await inView(page, row.getByRole('button', { name: /^Update Annual Statement/ }))).toBe(true);
      expect(await inView(page, row.locator('td').first())).toBe(true);
      expect(await sideways(page)).toBe(0);
      await portal.screenshot(page, `phone-screens-compliance-${viewport.name}`);
      await page.close();
    }, 60_000);

    it(`${viewport.name}: a Client user's reports keep View, Chat and Download in view; Messages keeps the composer in view`, async () => {
      const page = await open(client, '/client-reports', viewport);
      const row = page.locator('.files-table .p-datatable-tbody tr', { hasText: REPORT });
      await row.waitFor();
      for (const name of [`View ${REPORT}`, `Chat about ${REPORT}`, `Download ${REPORT}`]) {
        expect([name, await inView(page, row.getByRole('button', { name }))]).toEqual([name, true]);
      }
      expect(await sideways(page)).toBe(0);
      await portal.screenshot(page, `phone-screens-client-reports-${viewport.name}`);

      await page.goto(`${portal.baseUrl}/${TENANT}/messages`);
      await page.getByRole('button', { name: /Year-end documents/ }).click();
      const composer = page.getByRole('textbox', { name: 'Message', exact: true });
      await composer.waitFor();
      expect(await inView(page, composer, true)).toBe(true);
      expect(await sideways(page)).toBe(0);
      await portal.screenshot(page, `phone-screens-messages-${viewport.name}`);
      await page.close();
    }, 60_000);
  }
});
