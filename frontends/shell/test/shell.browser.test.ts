import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import express from 'express';
import type { Page } from 'playwright-core';
import { createFrontendsRouter } from '@ledgerline/gateway/frontends.router.ts';
import { ensureFrontendsBuilt, launchBrowser, setLocalStorage, type TestBrowser } from '@ledgerline/kit/testing/browser.ts';

const frontendsDir = path.resolve(import.meta.dirname, '../..');
const screenshotDir = path.resolve(frontendsDir, '../test-results');

const acme = { id: 3, name: 'Acme Tax', shortName: 'acme', isActive: true };
const admin = { id: 1, role: 'Admin', username: 'ann', fullName: 'Ann Smith' };
const clientUser = { id: 9, role: 'Client', username: 'cleo', fullName: null };
// The shell only checks that a token is stored; the gateway verifies it.
const jwtShaped = `${'e'.repeat(20)}.${'p'.repeat(40)}.${'s'.repeat(30)}`;

const STAFF_NAV = ['Dashboard', 'Reports', 'Tasks', 'Compliance', 'Requests', 'AI Insights', 'AI Assistant', 'Clients', 'Users', 'Roles', 'Report Types', 'Firm Documents', 'Settings'];

describe('shell in Chromium', () => {
  let server: Server;
  let baseUrl: string;
  let browser: TestBrowser;

  beforeAll(async () => {
    await ensureFrontendsBuilt(frontendsDir, ['shell', 'account']);
    const app = express();
    // 'unbuilt' has no dist: the shell must log it and carry on with the rest.
    app.use(createFrontendsRouter({ frontendsDir, remotes: ['account', 'unbuilt'] }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function signedInPage(user: object, tenant?: object): Promise<Page> {
    const page = await browser.newPage(baseUrl);
    await setLocalStorage(page, { token: jwtShaped, user, ...(tenant ? { currentTenant: tenant } : {}) });
    return page;
  }

  const navLinks = (page: Page) =>
    page.locator('nav.side-nav .side-nav__link').evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));

  it('shows the not-found page for an unknown path', async () => {
    const page = await browser.newPage(baseUrl);
    await page.goto(`${baseUrl}/no/such/page`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await expect(page.getByText('Did you forget to add the page to the router?').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('renders Account Settings from the account remote loaded through its manifest', async () => {
    const page = await signedInPage(admin, acme);
    const requested: string[] = [];
    const errors: string[] = [];
    page.on('request', (req) => requested.push(new URL(req.url()).pathname));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    await page.goto(`${baseUrl}/account-settings`);
    await page.getByText('Your account details are managed by your firm administrator.').waitFor();
    const details = await page.locator('.details-list dd').allTextContents();
    expect(details).toEqual(['Ann Smith', 'ann', 'Admin', 'Acme Tax (acme)']);
    expect(requested).toContain('/frontends.json');
    expect(requested).toContain('/remotes/account/mf-manifest.json');
    expect(requested).toContain('/remotes/account/remoteEntry.js');
    // The unbuilt remote failed, was logged, and broke nothing.
    expect(errors.some((text) => text.includes("Remote 'unbuilt' failed to load"))).toBe(true);

    await page.goto(`${baseUrl}/acme/account-settings`);
    await page.locator('.details-list').waitFor();
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('Account Settings');
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: path.join(screenshotDir, 'shell-account-settings.png') });
    await page.close();
  });

  it('shows staff the full navigation, tenant-prefixed, with the header greeting', async () => {
    const page = await signedInPage(admin, acme);
    await page.goto(`${baseUrl}/acme/dashboard`);
    await page.locator('nav.side-nav').waitFor();
    expect(await navLinks(page)).toEqual(
      STAFF_NAV.map((label, index) => [label, index === 0 ? '/acme/dashboard' : `/acme${['', '/cpa-dashboard', '/tasks', '/compliance', '/requests', '/compliance-insights', '/messages', '/clients', '/users', '/roles', '/report-types', '/firm-documents', '/settings'][index]}`]),
    );
    await expect(page.locator('.app-header__title').textContent()).resolves.toBe('Dashboard');
    await expect(page.getByText('Welcome, Ann Smith').isVisible()).resolves.toBe(true);
    await expect(page.locator('.app-header__avatar').textContent()).resolves.toBe('AS');
    const navWidth = await page.locator('nav.side-nav').evaluate((nav) => nav.getBoundingClientRect().width);
    expect(navWidth).toBe(256);
    await page.close();
  });

  it('shows a Client user only Dashboard, Reports, Compliance, their requests and their messages, unprefixed without a tenant', async () => {
    const page = await signedInPage(clientUser);
    await page.goto(`${baseUrl}/`);
    await page.locator('nav.side-nav').waitFor();
    expect(await navLinks(page)).toEqual([
      ['Dashboard', '/'],
      ['Reports', '/client-reports'],
      ['Compliance', '/compliance'],
      ['Requests', '/requests'],
      ['AI Assistant', '/messages'],
    ]);
    await expect(page.getByText('Welcome, cleo').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('logs out: clears token, user and tenant and goes to /login, or the tenant login', async () => {
    const page = await signedInPage(admin);
    await page.goto(`${baseUrl}/account-settings`);
    await page.locator('.details-list').waitFor();
    await page.locator('nav.side-nav').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/login`);
    await expect(page.evaluate(() => localStorage.length)).resolves.toBe(0);

    await setLocalStorage(page, { token: jwtShaped, user: admin, currentTenant: acme });
    await page.goto(`${baseUrl}/acme/dashboard`);
    await page.locator('.app-header').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/acme/login`);
    await expect(page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user'), localStorage.getItem('currentTenant')])).resolves.toEqual([null, null, null]);
    await page.close();
  });

  it('sends unauthenticated users to the tenant login from /{tenant}/dashboard, else to /login', async () => {
    const page = await browser.newPage(baseUrl);
    await page.goto(`${baseUrl}/acme/dashboard`);
    await page.waitForURL(`${baseUrl}/acme/login`);
    await page.goto(`${baseUrl}/tasks`);
    await page.waitForURL(`${baseUrl}/login`);
    await page.goto(`${baseUrl}/acme/account-settings`);
    await page.waitForURL(`${baseUrl}/login`);
    await page.close();
  });
});
