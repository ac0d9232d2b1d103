import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import type { TaxId } from '@ledgerline/contracts/tax-ids.ts';
import { addFirmUser, expectToast, openAs, startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * Typed tax IDs in the client form (issue 40): the Admin picks a type of the client's
 * jurisdiction, the value is checked by its type as typed, and a saved client's numbers stay
 * masked in the form until revealed (the reveal call), after which they can be changed.
 */
const suffix = uniqueSuffix();
const firm = `taxform${suffix}`;

describe('tax IDs in the client form', () => {
  let portal: PortalBrowser;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'directory']);
    const call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Tax Form ${suffix}`, shortName: firm })).status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('adds an SSN checked by its format, then reveals it in the edit form and adds an EIN', async () => {
    const call = apiClient(portal.baseUrl);
    const { login } = await addFirmUser(portal, firm, { username: `admin_${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null });
    const page = await openAs(portal, portal.baseUrl, login, `/${firm}/clients`);
    await page.getByRole('button', { name: 'Add Client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Client' });
    await dialog.waitFor();
    await page.locator('#client-name').fill('Rivera Household');
    await page.locator('#client-address').fill('12 Elm Street, Albany NY');
    await page.locator('#client-phone').fill('(555)-123-4567');
    await page.locator('#client-federalId').fill('12-3456789');
    await page.locator('#client-stateId').fill('NY-2');
    await page.locator('#client-email').fill('rivera@example.com');

    await dialog.getByRole('button', { name: 'Add tax ID' }).click();
    // A US client is offered its own country's types only.
    await dialog.locator('.p-dropdown:has(#client-tax-id-type-0)').click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['SSN', 'ITIN', 'EIN']);
    await page.getByRole('option', { name: 'SSN' }).click();
    const ssn = dialog.getByLabel('SSN', { exact: true });
    await ssn.fill('666-12-3456');
    await ssn.blur();
    await dialog.getByText(/^SSN must be 9 digits \(XXX-XX-XXXX\) in an assigned range/).waitFor();
    // Nothing is sent while a number is wrong.
    await dialog.getByRole('button', { name: 'Save Client' }).click();
    expect((await call<Client[]>('GET', `/api/${firm}/clients`, login.token)).body).toEqual([]);

    await ssn.fill('123-45-6789');
    await expect(dialog.locator('.client-tax-ids .form-field__error').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Save Client' }).click();
    await expectToast(page, 'Success', 'Client created successfully');
    const [client] = (await call<Client[]>('GET', `/api/${firm}/clients`, login.token)).body;
    expect(client!.taxIds).toEqual([{ type: 'ssn', last4: '6789', masked: '•••••6789' }]);
    // The list shows the last four only.
    await page.getByRole('cell', { name: 'SSN •••••6789' }).waitFor();

    await page.getByRole('button', { name: /^Edit/ }).first().click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    await edit.waitFor();
    await edit.getByRole('list', { name: 'Tax IDs (masked)' }).getByText('•••••6789').waitFor();
    expect(await edit.getByText('123456789').count()).toBe(0);
    await portal.screenshot(page, 'client-tax-ids-masked');
    await edit.getByRole('button', { name: 'Reveal to edit' }).click();
    await expect(edit.getByLabel('SSN', { exact: true }).inputValue()).resolves.toBe('123456789');
    await edit.getByRole('button', { name: 'Add tax ID' }).click();
    // The next free type of the jurisdiction is offered first.
    const itin = edit.getByLabel('ITIN', { exact: true });
    await edit.locator('.p-dropdown:has(#client-tax-id-type-1)').click();
    await page.getByRole('option', { name: 'EIN' }).click();
    await expect(itin.count()).resolves.toBe(0);
    await edit.getByLabel('EIN', { exact: true }).fill('98-7654321');
    await edit.getByRole('button', { name: 'Save Client' }).click();
    await expectToast(page, 'Success', 'Client updated successfully');

    const whole = await call<TaxId[]>('GET', `/api/${firm}/clients/${client!.id}/tax-ids`, login.token);
    expect(whole.body).toEqual([{ type: 'ein', value: '987654321' }, { type: 'ssn', value: '123456789' }]);
    await page.close();
  }, 240_000);

  it('an edit that leaves the masked numbers unrevealed keeps them', async () => {
    const call = apiClient(portal.baseUrl);
    const { login } = await addFirmUser(portal, firm, { username: `admin2_${suffix}`, fullName: 'Bo Admin', roleId: 1, clientIds: null });
    const made = await call<Client>('POST', `/api/${firm}/clients`, login.token, {
      name: 'Keep Numbers LLC', address: '1 Keep Street', phone: '(555)-123-4567', federalId: '12-3456780', stateId: 'NY-1', email: 'keep@example.com',
      taxIds: [{ type: 'ein', value: '11-2233445' }],
    });
    expect(made.status).toBe(201);
    const page = await openAs(portal, portal.baseUrl, login, `/${firm}/clients`);
    await page.getByRole('row').filter({ hasText: 'Keep Numbers LLC' }).getByRole('button', { name: /^Edit/ }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Client' });
    await edit.getByText('•••••3445').waitFor();
    await page.locator('#client-address').fill('2 Keep Street');
    await edit.getByRole('button', { name: 'Save Client' }).click();
    await expectToast(page, 'Success', 'Client updated successfully');
    const whole = await call<TaxId[]>('GET', `/api/${firm}/clients/${made.body.id}/tax-ids`, login.token);
    expect(whole.body).toEqual([{ type: 'ein', value: '112233445' }]);
    await page.close();
  }, 240_000);
});
