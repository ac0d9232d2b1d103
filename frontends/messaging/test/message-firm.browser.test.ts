import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { Conversation } from '@ledgerline/contracts/messaging.contracts.ts';
import { addFirmUser, expectToast, openAs, startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * "Message the firm" (issue 40) at 390 and 1440 px: a Client user writes with one button, no
 * title, no people to pick; the CPA who has the client finds it in their conversations, and an
 * Admin finds it in the client inbox and takes it.
 */

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const TENANT = `bay${suffix}`;

describe('message the firm in Chromium', () => {
  let portal: PortalBrowser;
  let admin: FirmLogin;
  let cpa: FirmLogin;
  let client: FirmLogin;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'messaging']);
    const call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Bay Accounting ${suffix}`, shortName: TENANT })).status).toBe(201);
    const c = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, {
      name: 'Bayview Bakery', address: '12 Harbour Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'bakery@example.com',
    });
    admin = (await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null })).login;
    const addedCpa = await addFirmUser(portal, TENANT, { username: `carl${suffix}`, fullName: 'Carl CPA', roleId: 3, clientIds: [c.body.id] });
    cpa = addedCpa.login;
    client = (await addFirmUser(portal, TENANT, { username: `cleo${suffix}`, fullName: 'Cleo Client', roleId: 4, clientIds: [c.body.id] })).login;
    // The messaging service knows the team once identity's events arrived.
    await eventually(async () => {
      expect((await call<Conversation>('POST', `/api/${TENANT}/conversations`, admin.token, { title: 'Warm-up', participantIds: [addedCpa.id] })).status).toBe(201);
    }, BUS_WAIT_MS, 300);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it.each([390, 1440])('at %i px: the client writes with one button; the CPA with the client and an Admin see it', async (width) => {
    const text = `Did my W-2 arrive? (${width})`;
    const clientPage = await openAs(portal, portal.baseUrl.replace('127.0.0.1', 'localhost'), client, `/${TENANT}/messages`);
    await clientPage.setViewportSize({ width, height: 844 });
    expect(await clientPage.getByRole('button', { name: 'New', exact: true }).count()).toBe(0);
    await clientPage.getByRole('button', { name: 'Message the Firm' }).click();
    const dialog = clientPage.getByRole('dialog', { name: 'Message the Firm' });
    await dialog.getByLabel('Your message').fill(text);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expectToast(clientPage, 'Sent', 'Your message is with your team at the firm.');
    await clientPage.locator('.conversation', { hasText: text }).waitFor();
    expect(await clientPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await clientPage.close();

    const cpaPage = await openAs(portal, portal.baseUrl, cpa, `/${TENANT}/messages`);
    await cpaPage.setViewportSize({ width, height: 844 });
    await cpaPage.locator('.conversation', { hasText: text }).click();
    await cpaPage.locator('.message', { hasText: text }).waitFor();
    await cpaPage.close();

    const adminPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/messages`);
    await adminPage.setViewportSize({ width, height: 844 });
    await adminPage.getByRole('button', { name: 'Client Inbox' }).click();
    const inbox = adminPage.getByRole('dialog', { name: 'Client Inbox' });
    const item = inbox.locator('.client-inbox__item', { hasText: text });
    await item.getByText('assigned to Nobody yet', { exact: false }).waitFor();
    const about = await item.locator('small').innerText();
    expect(about).toContain('Cleo Client');
    expect(about).toContain('Carl CPA');
    expect(about).not.toContain('Ada Admin');
    expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await item.getByRole('button', { name: 'Take it' }).click();
    await expectToast(adminPage, 'Assigned', 'Assigned to Ada Admin.');
    await adminPage.locator('.message', { hasText: text }).waitFor();
    await adminPage.close();
  });
});
