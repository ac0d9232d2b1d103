import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * "Request documents" on a compliance tracker item (issue 27): an Admin asks the item's client
 * for its documents and lands on the request's page (built by the requests remote); the item
 * then shows the request's progress, its action opens that request instead of making another,
 * and once the client is done the item shows "Documents in" (pushed to the open page). A Client
 * user gets no action.
 */

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const TENANT = `trackreq${suffix}`;

describe('Request documents from the compliance tracker (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  const logins: Record<string, { token: string; user: Record<string, unknown>; tenant?: unknown }> = {};
  let item: ComplianceItem;

  async function openTracker(who: string, width = 1440): Promise<Page> {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    const login = logins[who]!;
    await setLocalStorage(page, { token: login.token, user: login.user, ...(login.tenant ? { currentTenant: login.tenant } : {}) });
    await page.goto(`${portal.baseUrl}/${TENANT}/compliance`);
    await page.getByRole('tab', { name: 'Compliance Tracker' }).click();
    await page.locator(`.compliance-row-${item.id}`).waitFor();
    return page;
  }
  const row = (page: Page) => page.locator(`.compliance-row-${item.id}`);
  const requestsFor = async () => (await call<DocumentRequest[]>('GET', `/api/${TENANT}/document-requests?limit=500`, logins.admin!.token)).body.filter((r) => r.trackerItemId === item.id);

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'compliance']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Kapoor Tax ${suffix}`, shortName: TENANT })).status).toBe(201);
    const client = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, testClient('Mehta Traders'));
    expect(client.status).toBe(201);
    for (const [who, roleId, clientIds] of [['admin', 1, null], ['client', 4, [client.body.id]]] as const) {
      const username = `${who}${suffix}`;
      const created = await call('POST', `/api/${TENANT}/users`, portal.adminToken, { username, password: 'password1', fullName: `${who} ${suffix}`, roleId, clientIds: clientIds ? [...clientIds] : null, reportTypeIds: [] });
      expect(created.status).toBe(201);
      const login = await call<{ token: string; user: Record<string, unknown>; tenant?: unknown }>('POST', `/api/${TENANT}/auth/login`, null, { username, password: 'password1' });
      expect(login.status).toBe(200);
      logins[who] = login.body;
    }
    expect((await call('POST', `/api/${TENANT}/compliance-presets/india/apply`, logins.admin!.token, { clientIds: [client.body.id], grantToUserIds: [] })).status).toBe(200);
    expect((await call('POST', `/api/${TENANT}/compliance-schedules/generate/${new Date().getUTCFullYear() + 1}?clientId=${client.body.id}`, logins.admin!.token)).status).toBeLessThan(300);
    // The tracker's first row: soonest due.
    item = (await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?limit=1&offset=0`, logins.admin!.token)).body[0]!;
    expect(item.documentRequest).toBeNull();
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('asks for the documents, opens the request, shows its progress and "Documents in"', async () => {
    const page = await openTracker('admin');
    await row(page).getByRole('button', { name: `Request documents: ${item.reportTypeName} ${item.period}` }).click();
    await page.waitForURL(new RegExp(`/${TENANT}/requests/\\d+$`));
    const [request] = await requestsFor();
    expect(request).toMatchObject({ trackerItemId: item.id, status: 'open' });
    expect(new URL(page.url()).pathname).toBe(`/${TENANT}/requests/${request!.id}`);

    // Back on the tracker: the item shows the request's progress, and its action opens it instead of making another.
    await eventually(async () => {
      const again = await openTracker('admin');
      try {
        await row(again).getByText(`Documents 0/${request!.progress.required}`).waitFor({ timeout: 2000 });
      } finally {
        await again.close();
      }
    }, BUS_WAIT_MS, 500);
    const tracker = await openTracker('admin');
    await row(tracker).getByRole('button', { name: `Open document request: ${item.reportTypeName} ${item.period}` }).click();
    await tracker.waitForURL(new RegExp(`/${TENANT}/requests/${request!.id}$`));
    expect(await requestsFor()).toHaveLength(1);

    // The client says nothing applies: the request completes, and the open tracker says the documents are in at once (the push), without a reload.
    const live = await openTracker('admin');
    await row(live).getByText(`Documents 0/${request!.progress.required}`).waitFor();
    const full = (await call<DocumentRequest>('GET', `/api/${TENANT}/document-requests/${request!.id}`, logins.client!.token)).body;
    for (const i of full.items) {
      expect((await call('PATCH', `/api/${TENANT}/document-requests/${request!.id}/items/${i.id}`, logins.client!.token, { status: 'not_applicable', comment: 'No sales this month' })).status).toBe(200);
    }
    await row(live).getByText('Documents in').waitFor({ timeout: BUS_WAIT_MS });
    await eventually(async () => expect((await call<ComplianceItem[]>('GET', `/api/${TENANT}/compliance-tracker?limit=1&offset=0`, logins.admin!.token)).body[0]!.documentRequest?.status).toBe('completed'), BUS_WAIT_MS, 300);
    const done = await openTracker('admin', 390);
    await row(done).getByText('Documents in').waitFor();
    await portal.screenshot(done, 'compliance-tracker-documents-in-phone');

    // The client's user reads the chip on their own tracker, with no action to take.
    const clientPage = await openTracker('client');
    await row(clientPage).getByText('Documents in').waitFor();
    expect(await row(clientPage).getByRole('button', { name: /Request documents|Open document request/ }).count()).toBe(0);
  }, 180_000); // six page loads and three waits on the bus: a minute is short on a loaded CI machine
});
