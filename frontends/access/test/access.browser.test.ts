import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiClient, TEST_ADMIN } from '@ledgerline/server/portal-harness.ts';
import { expectToast, navLinks, startPortalBrowser, submitLogin, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const suffix = uniqueSuffix();
const firm = { name: `Acme Tax ${suffix}`, shortName: `acme${suffix}` };
const cpa = { fullName: 'Carl Price', username: `carl${suffix}`, password: 'carl-secret-1', role: 'CPA' };
const client = { fullName: 'Cleo Client', username: `cleo${suffix}`, password: 'cleo-secret-1', role: 'Client', clientName: 'Cleo Holdings' };
const cleoHoldings = { name: 'Cleo Holdings', address: '1 Harbour Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'office@cleo.test' };

/** A CPA's navigation: staff pages without the firm's administration (Clients, Users, Roles, Report Types, Settings), which the server refuses them. */
const CPA_NAV = ['Dashboard', 'Reports', 'Tasks', 'Compliance', 'Requests', 'AI Insights', 'AI Assistant', 'Firm Documents', 'Billing', 'Signatures'];

describe('sign-in, users and roles in Chromium', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let page: Page;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'admin']);
    baseUrl = portal.baseUrl;
    const created = await apiClient(baseUrl)('POST', '/api/companies', portal.adminToken, { name: firm.name, shortName: firm.shortName });
    if (created.status !== 201) throw new Error(`tenant set-up failed: ${created.status}`);
    page = await portal.browser.newPage(baseUrl);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const row = (text: string) => page.locator('.p-datatable-tbody tr', { hasText: text });

  async function addUser(user: typeof cpa & { clientName?: string }): Promise<void> {
    await page.getByRole('button', { name: 'Add User' }).click();
    await dialog().locator('#user-full-name').fill(user.fullName);
    await dialog().locator('#user-username').fill(user.username);
    await dialog().locator('#user-password').fill(user.password);
    await dialog().locator('.p-dropdown', { has: page.locator('#user-role') }).click();
    await page.getByRole('option', { name: user.role, exact: true }).click();
    if (user.clientName) {
      await dialog().locator('.p-multiselect', { has: page.locator('#user-clients') }).click();
      await page.locator('.p-multiselect-panel .p-multiselect-item', { hasText: user.clientName }).click();
      await dialog().locator('.p-dialog-title').click();
      await page.locator('.p-multiselect-panel').waitFor({ state: 'detached' });
    }
    await dialog().getByRole('button', { name: 'Create User' }).click();
    await expectToast(page, 'Success', 'User created successfully.');
    await row(user.username).waitFor();
  }

  it('checks the generic login form and signs the platform administrator in at /login', async () => {
    await page.goto(`${baseUrl}/login`);
    await page.getByText('Secure Login').waitFor();
    await expect(page.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).resolves.toMatch(/^mailto:/);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.getByText('Username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await portal.screenshot(page, 'access-generic-login');

    await submitLogin(page, 'nobody-here', 'wrong-password');
    await expectToast(page, 'Login failed', 'Invalid username or password');
    await submitLogin(page, TEST_ADMIN.username, TEST_ADMIN.password);
    await page.waitForURL(`${baseUrl}/`);
    await page.locator('nav.side-nav').waitFor();
  });

  it('acts in the firm chosen in the tenant selector and adds its users on the Users page', async () => {
    await page.getByTestId('tenant-selector').locator('.p-dropdown').click();
    await page.locator('.tenant-selector__panel .p-dropdown-item', { hasText: firm.name }).click();
    await page.waitForFunction((shortName) => JSON.parse(localStorage.getItem('currentTenant') ?? 'null')?.shortName === shortName, firm.shortName);
    await page.locator('nav.side-nav').getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${baseUrl}/${firm.shortName}/users`);
    await page.getByText('No users found').waitFor();

    await page.getByRole('button', { name: 'Add User' }).click();
    await dialog().getByRole('button', { name: 'Create User' }).click();
    for (const message of ['Full name is required', 'Username must be at least 3 characters', 'Password must be at least 6 characters', 'Please select a role']) {
      await dialog().getByText(message).waitFor();
    }
    // The firm has no clients yet: an empty pick list, no invented entries.
    const clientsPicker = dialog().locator('.p-multiselect', { has: page.locator('#user-clients') });
    await clientsPicker.click();
    await page.locator('.p-multiselect-panel').getByText('No clients available').waitFor();
    await portal.screenshot(page, 'access-user-form');
    await clientsPicker.click();
    await page.locator('.p-multiselect-panel').waitFor({ state: 'detached' });
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });

    const created = await apiClient(baseUrl)('POST', `/api/${firm.shortName}/clients`, portal.adminToken, cleoHoldings);
    expect(created.status).toBe(201);
    // Lists are cached for the page's lifetime; a reload picks up the new client.
    await page.reload();
    await addUser(cpa);
    await addUser(client);
    await expect(row(client.username).locator('td').nth(3).textContent()).resolves.toBe('1 client(s)');
    const cells = await row(cpa.username).locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual([cpa.fullName, cpa.username, 'CPA', 'No clients']);
  });

  it('edits a user with a blank password and deletes one after the confirmation', async () => {
    await row(cpa.username).getByRole('button', { name: `Edit ${cpa.fullName}` }).click();
    await expect(dialog().locator('#user-username').inputValue()).resolves.toBe(cpa.username);
    await expect(dialog().locator('#user-password').inputValue()).resolves.toBe('');
    await dialog().locator('#user-full-name').fill('Carl Price Jr');
    await dialog().getByRole('button', { name: 'Update User' }).click();
    await expectToast(page, 'Success', 'User updated successfully.');
    await row('Carl Price Jr').waitFor();

    const extra = await apiClient(baseUrl)('POST', `/api/${firm.shortName}/users`, portal.adminToken, {
      username: `temp${suffix}`, password: 'temp-secret-1', fullName: 'Temp Worker', roleId: 3,
    });
    expect(extra.status).toBe(201);
    await page.reload();
    await row('Temp Worker').getByRole('button', { name: 'Delete Temp Worker' }).click();
    await page.getByText('Are you sure you want to delete this user?').waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Success', 'User deleted successfully.');
    await row('Temp Worker').waitFor({ state: 'detached' });
    await page.locator('.p-confirm-dialog').waitFor({ state: 'detached' });
    await portal.screenshot(page, 'access-users');
  });

  it('adds, renames and deletes a role on the Roles page', async () => {
    await page.locator('nav.side-nav').getByRole('link', { name: 'Roles' }).click();
    await page.waitForURL(`${baseUrl}/${firm.shortName}/roles`);
    await page.getByRole('heading', { name: 'Roles', level: 2 }).waitFor();
    await page.getByRole('cell', { name: 'Client', exact: true }).waitFor();
    await expect(page.locator('.p-datatable-tbody tr td:first-child').allTextContents()).resolves.toEqual(['Admin', 'DTA', 'CPA', 'Client']);

    await page.getByRole('button', { name: 'Add Role' }).click();
    await dialog().getByRole('button', { name: 'Create Role' }).click();
    await dialog().getByText('Role name is required').waitFor();
    await dialog().locator('#role-name').fill('Reviewer');
    await dialog().getByRole('button', { name: 'Create Role' }).click();
    await expectToast(page, 'Success', 'Role created successfully');

    await row('Reviewer').getByRole('button', { name: 'Edit Reviewer' }).click();
    await dialog().locator('#role-name').fill('Senior Reviewer');
    await dialog().getByRole('button', { name: 'Update Role' }).click();
    await expectToast(page, 'Success', 'Role updated successfully');
    await dialog().waitFor({ state: 'detached' });

    // Issue 40: the Admin role may reveal whole tax IDs by default; an Admin gives it to the CPA role.
    await expect(page.getByRole('checkbox', { name: 'Admin may reveal whole tax IDs' }).isChecked()).resolves.toBe(true);
    await expect(page.getByRole('checkbox', { name: 'CPA may reveal whole tax IDs' }).isChecked()).resolves.toBe(false);
    // Ticked once the server has answered (the list is read again), not on the click itself.
    await page.getByRole('checkbox', { name: 'CPA may reveal whole tax IDs' }).click();
    await expectToast(page, 'Success', 'CPA may now reveal whole tax IDs');
    await page.locator('#role-reveal-3:checked').waitFor({ state: 'attached' });
    await portal.screenshot(page, 'access-roles');

    await row('Senior Reviewer').getByRole('button', { name: 'Delete Senior Reviewer' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectToast(page, 'Success', 'Role deleted successfully');
    await row('Senior Reviewer').waitFor({ state: 'detached' });
  });

  it('signs a staff user in at /{tenant}/login: a wrong password shows the banner, success the staff navigation', async () => {
    await page.locator('.app-header').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/${firm.shortName}/login`);
    await page.getByRole('heading', { name: firm.name }).waitFor();

    await submitLogin(page, cpa.username, 'wrong-password');
    await page.locator('.login-form__banner', { hasText: 'Invalid username or password' }).waitFor();
    await portal.screenshot(page, 'access-tenant-login');

    await submitLogin(page, cpa.username, cpa.password);
    await page.waitForURL(`${baseUrl}/${firm.shortName}/dashboard`);
    await expectToast(page, 'Login Successful', `Welcome to ${firm.name}`);
    const links = await navLinks(page);
    expect(links.map(([label]) => label)).toEqual(CPA_NAV);
    expect(links[0]).toEqual(['Dashboard', `/${firm.shortName}/dashboard`]);
    await expect(page.evaluate(() => JSON.parse(localStorage.getItem('currentTenant') ?? 'null'))).resolves.toMatchObject({ shortName: firm.shortName, name: firm.name, isActive: true });
    // A CPA neither switches tenants nor has a client organisation to show.
    await expect(page.locator('.app-header__center').innerHTML()).resolves.toBe('');
    await page.getByText('Welcome, Carl Price Jr').waitFor();
  });

  it("shows a Client user only Dashboard, Reports, Compliance, their requests, their messages and their invoices, and their organisation's name in the header", async () => {
    await page.locator('.app-header').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/${firm.shortName}/login`);
    await submitLogin(page, client.username, client.password);
    await page.waitForURL(`${baseUrl}/${firm.shortName}/dashboard`);
    await page.locator('nav.side-nav').waitFor();
    await expect(navLinks(page)).resolves.toEqual([
      ['Dashboard', `/${firm.shortName}/dashboard`],
      ['Reports', `/${firm.shortName}/client-reports`],
      ['Compliance', `/${firm.shortName}/compliance`],
      ['Requests', `/${firm.shortName}/requests`],
      ['AI Assistant', `/${firm.shortName}/messages`],
      ['Invoices', `/${firm.shortName}/invoices`],
    ]);
    await page.locator('.client-org-name', { hasText: cleoHoldings.name }).waitFor();
    await portal.screenshot(page, 'access-client-dashboard');
  });
});
