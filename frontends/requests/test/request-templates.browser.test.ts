import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { DocumentRequest, RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 44: request templates get a screen (Admin and DTA write them, other staff read them),
 * and staff ask for one more document on a request already sent. At 390 and 1440 px.
 */

const suffix = uniqueSuffix();
const FIRM = { name: `Hudson & Pine CPAs ${suffix}`, shortName: `hudson${suffix}` };
const OTHER_FIRM = { name: `Other Books ${suffix}`, shortName: `otherbooks${suffix}` };
const TENANT = FIRM.shortName;
const DUE_DATE = `${new Date().getFullYear() + 1}-04-15`;
const VIEWPORTS = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1440, height: 900 }] as const;
const templateRow = (page: Page, name: string) => page.locator('.template-table tbody tr', { hasText: name });

describe('request templates and added items in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let cpa: FirmLogin;
  let otherAdmin: FirmLogin;
  let client: Client;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'requests']);
    call = apiClient(portal.baseUrl);
    for (const firm of [FIRM, OTHER_FIRM]) expect((await call('POST', '/api/companies', portal.adminToken, firm)).status).toBe(201);
    client = (await call<Client>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient('Grace Lee'))).body;
    admin = (await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null })).login;
    cpa = (await addFirmUser(portal, TENANT, { username: `carl${suffix}`, fullName: 'Carl CPA', roleId: 3, clientIds: [client.id] })).login;
    otherAdmin = (await addFirmUser(portal, OTHER_FIRM.shortName, { username: `olga${suffix}`, fullName: 'Olga Other', roleId: 1, clientIds: null })).login;
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it.each(VIEWPORTS)('an Admin creates, edits and deletes a template on the Templates screen ($name)', async (viewport) => {
    const name = `Form 1040 checklist ${viewport.name}`;
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests`);
    await page.setViewportSize(viewport);
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.waitForURL(`**/${TENANT}/requests/templates`);
    // The header follows the route once its page renders, a moment after the address changes.
    await page.locator('.app-header__title').filter({ hasText: /^Request Templates$/ }).waitFor();

    await page.getByRole('button', { name: 'New Template' }).click();
    const dialog = page.getByRole('dialog');
    // The checklist needs a name and titled items, said on the form.
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.locator('#template-name').fill(name);
    await dialog.getByLabel('Item 1 title').fill('W-2s');
    await dialog.getByLabel('Item 1 description').fill('From every employer');
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await dialog.getByLabel('Item 2 title').fill('Prior-year return');
    await dialog.getByLabel('Required', { exact: true }).nth(1).uncheck();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, `request-template-form-${viewport.name}`);
    await dialog.getByRole('button', { name: 'Create Template' }).click();
    await expectToast(page, 'Template Created', name);
    await templateRow(page, name).getByText('W-2s · Prior-year return').waitFor();
    await expect(templateRow(page, name).textContent()).resolves.toContain('2 (1 required)');
    const saved = (await call<RequestTemplate[]>('GET', `/api/${TENANT}/request-templates`, admin.token)).body.find((t) => t.name === name)!;
    expect(saved.items).toEqual([{ title: 'W-2s', description: 'From every employer', required: true }, { title: 'Prior-year return', description: null, required: false }]);

    await templateRow(page, name).getByRole('button', { name: `Edit ${name}` }).click();
    await expect(dialog.locator('#template-name').inputValue()).resolves.toBe(name);
    await dialog.getByRole('button', { name: 'Add Item' }).click();
    await dialog.getByLabel('Item 3 title').fill('1099s');
    await dialog.getByRole('button', { name: 'Update Template' }).click();
    await expectToast(page, 'Template Updated', name);
    await templateRow(page, name).getByText('W-2s · Prior-year return · 1099s').waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, `request-templates-${viewport.name}`);

    await templateRow(page, name).getByRole('button', { name: `Delete ${name}` }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Template Deleted', name);
    await templateRow(page, name).waitFor({ state: 'detached' });
    expect((await call<RequestTemplate[]>('GET', `/api/${TENANT}/request-templates`, admin.token)).body.map((t) => t.name)).not.toContain(name);
    await page.close();
  });

  it('a CPA reads the templates without the means to change them; another firm sees none of them', async () => {
    expect((await call('POST', `/api/${TENANT}/request-templates`, admin.token, { name: 'Payroll', items: [{ title: 'Payroll register' }] })).status).toBe(201);
    const page = await openAs(portal, portal.baseUrl, cpa, `/${TENANT}/requests/templates`);
    await templateRow(page, 'Payroll').waitFor();
    await expect(page.getByRole('button', { name: 'New Template' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Edit Payroll' }).count()).resolves.toBe(0);
    await page.close();

    const other = await openAs(portal, 'http://localhost:' + new URL(portal.baseUrl).port, otherAdmin, `/${OTHER_FIRM.shortName}/requests/templates`);
    await other.getByText('No templates yet. Create one to start requests from it.').waitFor();
    await expect(templateRow(other, 'Payroll').count()).resolves.toBe(0);
    await other.close();
  });

  it.each(VIEWPORTS)('staff add an item to a sent request from its page ($name)', async (viewport) => {
    const created = await call<DocumentRequest>('POST', `/api/${TENANT}/document-requests`, admin.token, {
      clientId: client.id, title: `Form 1040 ${viewport.name}`, dueDate: DUE_DATE, items: [{ title: 'W-2s' }], sendNow: true,
    });
    expect(created.status).toBe(201);
    const page = await openAs(portal, portal.baseUrl, cpa, `/${TENANT}/requests/${created.body.id}`);
    await page.setViewportSize(viewport);
    const form = page.getByRole('form', { name: 'Ask for one more document' });
    await form.getByRole('button', { name: 'Add Item' }).click();
    await form.getByText('Title is required').waitFor();
    await form.getByLabel('New item title').fill('Form 1098 (mortgage interest)');
    await form.getByRole('button', { name: 'Add Item' }).click();
    await expectToast(page, 'Item Added');
    await page.locator('li.request-item', { hasText: 'Form 1098 (mortgage interest)' }).waitFor();
    await expect(page.locator('li.request-item').count()).resolves.toBe(2);
    await expect(form.getByLabel('New item title').inputValue()).resolves.toBe('');
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await portal.screenshot(page, `request-added-item-${viewport.name}`);
    const stored = (await call<DocumentRequest>('GET', `/api/${TENANT}/document-requests/${created.body.id}`, admin.token)).body;
    expect(stored.items.map((i) => i.title)).toEqual(['W-2s', 'Form 1098 (mortgage interest)']);
    await page.close();
  });
});
