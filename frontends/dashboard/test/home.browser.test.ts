import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page, Route } from 'playwright-core';
import type { ComplianceSchedule } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Conversation, Message } from '@ledgerline/contracts/messaging.contracts.ts';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { uploadBlankPdf } from '@ledgerline/kit/testing/upload-blank-pdf.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import { addFirmUser, openAs, startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

/*
 * The everyday screens of issue 24 at a phone's and a desktop's size: each person's home
 * (staff Admin, a CPA who serves one of the two clients, a Client user), the task list's
 * per-client progress and latest comment, and Sent turning Read for a message's sender.
 */
const BUS_WAIT_MS = 20_000;
const suffix = uniqueSuffix();
const TENANT = `home${suffix}`;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const clientDetails = (name: string) => ({ name, address: '4 Market Road', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: `${name.split(' ')[0]!.toLowerCase()}@example.com` });
/** A calendar date `days` from today. */
const inDays = (days: number) => { const d = new Date(); d.setDate(d.getDate() + days); return d; };

/**
 * A part's place and text. The heading's and subtitle's width is their text's (a Range), as the
 * app's heading shrinks to its text: the same text in the same type has the same width.
 */
function boxAndText(element: Element): { x: number; y: number; width: number; height: number; text: string } {
  const range = document.createRange();
  range.selectNodeContents(element);
  const box = element.getBoundingClientRect();
  const text = range.getBoundingClientRect();
  return { x: box.x, y: box.y, width: Math.round(text.width), height: box.height, text: element.textContent ?? '' };
}

/** Retries a set-up call until it answers (services learn of new firms, clients and users from events); its answer. */
async function once<T>(attempt: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  await eventually(async () => { result = await attempt(); }, BUS_WAIT_MS, 300);
  return result!;
}

describe('home panels, task progress and read status in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let cpa: FirmLogin;
  let clientUser: FirmLogin;
  let clientUserId: number;
  const clients: Record<string, number> = {};
  const tasks = {} as Record<'admin' | 'cpa', Task>;
  const requests = {} as Record<'bayview' | 'coral', DocumentRequest>;
  let signatureRequestId: number;

  const panel = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
  const entries = (page: Page, title: string) => panel(page, title).locator('.my-work__entry');
  const entryTexts = (page: Page, title: string) => entries(page, title).allInnerTexts();
  const hrefs = (page: Page, title: string) => entries(page, title).evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  /** The page never scrolls sideways. */
  const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  async function upload(requestId: number, itemId: number, token: string, name: string): Promise<void> {
    const form = new FormData();
    form.append('file', new Blob([`${name} contents`], { type: 'text/plain' }), name);
    const r = await fetch(`${portal.baseUrl}/api/${TENANT}/document-requests/${requestId}/items/${itemId}/files`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(201);
  }

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'dashboard', 'tasks', 'messaging']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Harbor Accounts ${suffix}`, shortName: TENANT })).status).toBe(201);
    for (const name of ['Bayview Bakery', 'Coral Imports']) {
      const r = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, clientDetails(name));
      expect(r.status).toBe(201);
      clients[name] = r.body.id;
    }
    const type = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, portal.adminToken, { name: 'Sales Tax' });
    expect(type.status).toBe(201);
    const adminUser = await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null });
    admin = adminUser.login;
    // A CPA who serves Bayview only, with the Sales Tax report type.
    const cpaCreated = await call<{ id: number }>('POST', `/api/${TENANT}/users`, portal.adminToken, {
      username: `carl${suffix}`, password: 'password1', fullName: 'Carl CPA', roleId: 3, clientIds: [clients['Bayview Bakery']], reportTypeIds: [type.body.id],
    });
    expect(cpaCreated.status).toBe(201);
    cpa = (await call<FirmLogin>('POST', `/api/${TENANT}/auth/login`, null, { username: `carl${suffix}`, password: 'password1' })).body;
    const added = await addFirmUser(portal, TENANT, { username: `bea${suffix}`, fullName: 'Bea Baker', roleId: 4, clientIds: [clients['Bayview Bakery']!], email: `bea.${suffix}@example.com` });
    clientUser = added.login;
    clientUserId = added.id;

    // Monthly sales tax for both clients, due five days from now: one item each in the next 14 days.
    const due = inDays(5);
    for (const name of ['Bayview Bakery', 'Coral Imports']) {
      const schedule = await once(async () => {
        const r = await call<ComplianceSchedule>('POST', `/api/${TENANT}/compliance-schedules`, admin.token, { clientId: clients[name], reportTypeId: type.body.id, frequency: 'monthly', dueDayOfMonth: due.getDate() });
        expect(r.status).toBe(201);
        return r.body;
      });
      for (const year of new Set([new Date().getFullYear(), due.getFullYear()])) {
        expect((await call('POST', `/api/${TENANT}/compliance-schedules/${schedule.id}/generate/${year}`, admin.token)).status).toBe(200);
      }
    }

    // Tasks: one for the Admin across both clients (Bayview done, with a comment), one for the CPA.
    const week = toCalendarDate(inDays(2));
    tasks.admin = await once(async () => {
      const r = await call<Task>('POST', `/api/${TENANT}/tasks`, admin.token, { title: 'Quarterly sales tax', dueDate: week, assignedToId: adminUser.id, clientIds: [clients['Bayview Bakery'], clients['Coral Imports']] });
      expect(r.status).toBe(201);
      return r.body;
    });
    expect((await call('PATCH', `/api/${TENANT}/tasks/${tasks.admin.id}/client-status/${clients['Bayview Bakery']}`, admin.token, { status: 'completed', comments: 'Filed, receipt in Reports' })).status).toBe(200);
    const cpaId = (cpa.user as { id: number }).id;
    tasks.cpa = (await call<Task>('POST', `/api/${TENANT}/tasks`, admin.token, { title: 'Bayview payroll check', dueDate: week, assignedToId: cpaId, clientIds: [clients['Bayview Bakery']] })).body;

    // Document requests: Bayview's is the CPA's to review, Coral's the Admin's; each has an upload waiting.
    const ask = (name: string, reviewer: number, title: string) => once(async () => {
      const r = await call<DocumentRequest>('POST', `/api/${TENANT}/document-requests`, admin.token, {
        clientId: clients[name], title, dueDate: toCalendarDate(inDays(10)), assignedToId: reviewer, items: [{ title: 'Sales register' }, { title: 'Bank statements' }],
      });
      expect(r.status).toBe(201);
      return r.body;
    });
    requests.bayview = await ask('Bayview Bakery', cpaId, 'November books');
    requests.coral = await ask('Coral Imports', adminUser.id, 'Coral year-end');
    await upload(requests.bayview.id, requests.bayview.items[0]!.id, clientUser.token, 'sales-register.txt');
    await upload(requests.coral.id, requests.coral.items[1]!.id, admin.token, 'coral-bank.txt');

    // An engagement letter for Bea to sign (issue 41): her home lists it under "To Sign".
    const pdfId = await uploadBlankPdf(portal.baseUrl, TENANT, admin.token, { clientId: clients['Bayview Bakery']!, reportTypeId: type.body.id, name: 'engagement-letter.pdf' });
    signatureRequestId = await once(async () => {
      const r = await call<{ id: number }>('POST', `/api/${TENANT}/signature-requests`, admin.token, {
        clientId: clients['Bayview Bakery'], reportTypeId: type.body.id, title: 'Engagement letter 2027', identity: 'sign_in_second_factor',
        dueDate: toCalendarDate(inDays(3)), documents: [{ fileId: pdfId }], signers: [{ userId: clientUserId, role: 'owner' }],
        fields: [{ documentIndex: 0, page: 1, x: 50, y: 650, width: 200, height: 40, type: 'signature', signerIndex: 0 }], sendNow: true,
      });
      expect(r.status).toBe(201);
      return r.body.id;
    });
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    it(`an Admin's home (${size}): their tasks, compliance of every client due soon, and every upload to review; each entry opens its item`, async () => {
      const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/dashboard`);
      await page.setViewportSize(viewport);
      await panel(page, 'My Tasks').getByText('Quarterly sales tax').waitFor();
      expect(await entryTexts(page, 'My Tasks')).toEqual([expect.stringMatching(/^Quarterly sales tax\s+Bayview Bakery, Coral Imports\s+Due /)]);
      await panel(page, 'Compliance Due Soon').getByText('Coral Imports').waitFor();
      const compliance = await entryTexts(page, 'Compliance Due Soon');
      expect(compliance).toHaveLength(2);
      expect(compliance.join('\n')).toMatch(/Sales Tax · .*\s+Bayview Bakery/);
      expect((await hrefs(page, 'Compliance Due Soon')).every((h) => /^\/compliance\?item=\d+$/.test(h!))).toBe(true);
      await panel(page, 'Uploads to Review').getByText('Coral Imports · 1 to review').waitFor();
      expect(await entryTexts(page, 'Uploads to Review')).toEqual(expect.arrayContaining([
        expect.stringMatching(/^November books\s+Bayview Bakery · 1 to review/),
        expect.stringMatching(/^Coral year-end\s+Coral Imports · 1 to review/),
      ]));
      expect(await hrefs(page, 'Uploads to Review')).toEqual(expect.arrayContaining([`/requests/${requests.bayview.id}`, `/requests/${requests.coral.id}`]));
      // The document charts still follow below the panels (on a phone, drawn as the viewer scrolls
      // near them). Drawing them does not move the page: TabView scrolls its selected tab into view
      // when it mounts, which opened the home at its tabs (PageTabView keeps the page where it was).
      const tabsPlace = page.locator('.when-near-viewport');
      if (await tabsPlace.count()) await tabsPlace.scrollIntoViewIfNeeded();
      const scrolledTo = await page.evaluate(() => window.scrollY);
      await page.getByRole('tab', { name: 'Overview' }).waitFor();
      await expect(page.evaluate(() => window.scrollY)).resolves.toBe(scrolledTo);
      // The home loads no validation library (zod, which marks its global on load: 90 KB compressed,
      // and building the schemas held a phone's processor): its screens take the values they need
      // from the contracts' *.constants.ts, which import no schema.
      await expect(page.evaluate(() => '__zod_globalConfig' in globalThis)).resolves.toBe(false);
      expect(await overflowsSideways(page)).toBe(false);
      await portal.screenshot(page, `home-admin-${size}`);
      // A task entry opens the task itself.
      await entries(page, 'My Tasks').first().click();
      const form = page.getByRole('dialog', { name: 'Edit Task' });
      await form.waitFor();
      await expect(form.getByLabel('Title *').inputValue()).resolves.toBe('Quarterly sales tax');
      await page.close();
    });
  }

  for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    it(`a CPA with one of the two clients (${size}) sees only that client's compliance and only the uploads they review`, async () => {
      const page = await openAs(portal, portal.baseUrl, cpa, `/${TENANT}/dashboard`);
      await page.setViewportSize(viewport);
      await panel(page, 'My Tasks').getByText('Bayview payroll check').waitFor();
      expect(await entryTexts(page, 'My Tasks')).toEqual([expect.stringMatching(/^Bayview payroll check\s+Bayview Bakery/)]);
      await panel(page, 'Compliance Due Soon').getByText('Bayview Bakery').waitFor();
      expect(await entryTexts(page, 'Compliance Due Soon')).toEqual([expect.stringMatching(/Bayview Bakery/)]);
      await panel(page, 'Uploads to Review').getByText('Bayview Bakery · 1 to review').waitFor();
      expect(await entryTexts(page, 'Uploads to Review')).toEqual([expect.stringMatching(/^November books\s+Bayview Bakery · 1 to review/)]);
      expect(await page.locator('.my-work').innerText()).not.toContain('Coral');
      await portal.screenshot(page, `home-cpa-${size}`);
      await page.close();
    });
  }

  for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    it(`a Client user's home (${size}) says what the firm needs from them: the open request with its progress and their compliance due`, async () => {
      const page = await openAs(portal, portal.baseUrl.replace('127.0.0.1', 'localhost'), clientUser, `/${TENANT}/dashboard`);
      await page.setViewportSize(viewport);
      await page.getByRole('heading', { name: 'What we need from you' }).waitFor();
      await panel(page, 'Document Requests').getByText('November books').waitFor();
      expect(await entryTexts(page, 'Document Requests')).toEqual([expect.stringMatching(/^November books\s+0 of 2 required items done/)]);
      expect(await hrefs(page, 'Document Requests')).toEqual([`/requests/${requests.bayview.id}`]);
      await expect(panel(page, 'Document Requests').locator('.p-progressbar').count()).resolves.toBe(1);
      await panel(page, 'Compliance Due Soon').getByText('Bayview Bakery').waitFor();
      expect(await entryTexts(page, 'Compliance Due Soon')).toHaveLength(1);
      // Staff's panels are not offered to a client.
      await expect(page.getByRole('region', { name: 'My Tasks' }).count()).resolves.toBe(0);
      await expect(page.getByRole('region', { name: 'Uploads to Review' }).count()).resolves.toBe(0);
      // What she has to sign opens the signing page on her own sign-in.
      await panel(page, 'To Sign').getByText('Engagement letter 2027').waitFor();
      expect(await entryTexts(page, 'To Sign')).toEqual([expect.stringMatching(/^Engagement letter 2027\s+Waiting for your signature\s+Due /)]);
      expect(await hrefs(page, 'To Sign')).toEqual([`/sign/portal/${TENANT}/${signatureRequestId}`]);
      // Nothing to pay: on a phone that panel is its title and one line, on a desktop as tall as its row.
      await panel(page, 'Invoices to Pay').getByText('Nothing to pay.').waitFor();
      const heights = await Promise.all(['Invoices to Pay', 'Document Requests'].map(async (title) => (await panel(page, title).boundingBox())!.height));
      if (size === 'phone') expect(heights[0]).toBeLessThan(150);
      else expect(heights[0]).toBe(heights[1]);
      expect(await overflowsSideways(page)).toBe(false);
      await portal.screenshot(page, `home-client-${size}`);
      if (size === 'phone') {
        await entries(page, 'To Sign').first().click();
        await page.getByText('Signing as Bea Baker (owner)').waitFor();
      }
      await page.close();
    });
  }

  it('the task list shows "1 of 2 clients done" and the latest client comment; the form offers the report types the user may use', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/tasks`);
      await page.setViewportSize(viewport);
      const row = page.locator(`.task-row-${tasks.admin.id}`);
      await row.getByText('1 of 2 clients done').waitFor();
      await expect(row.locator('.task-clients__comment').innerText()).resolves.toBe('Bayview Bakery: “Filed, receipt in Reports”');
      // The comment never pushes the row's last action out of view.
      const remove = await row.getByRole('button', { name: 'Delete task' }).boundingBox();
      expect(remove!.x + remove!.width).toBeLessThanOrEqual(viewport.width);
      await portal.screenshot(page, `tasks-progress-${viewport.width}`);
      await page.close();
    }
    const page = await openAs(portal, portal.baseUrl, cpa, `/${TENANT}/tasks?task=${tasks.cpa.id}`);
    const form = page.getByRole('dialog', { name: 'Edit Task' });
    await form.waitFor();
    await form.locator('.p-dropdown', { has: page.locator('#task-report-type') }).click();
    await expect(page.locator('li[role="option"]').allInnerTexts()).resolves.toEqual(['Sales Tax']);
    await page.locator('li[role="option"]', { hasText: 'Sales Tax' }).click();
    await form.getByRole('button', { name: 'Update Task' }).click();
    await form.waitFor({ state: 'hidden' });
    await eventually(async () => {
      const saved = (await call<Task[]>('GET', `/api/${TENANT}/tasks`, cpa.token)).body.find((t) => t.id === tasks.cpa.id)!;
      expect(saved.reportTypeId).not.toBeNull();
    }, 5_000);
    await page.close();
  });

  /*
   * The home's first screen in the gateway's first HTML (gateway/src/home-page.ts): painted
   * before any script of the app's, and replaced by the app's own on the same boxes. Each pair
   * is [what, the copy's selector, the app's selector].
   */
  const HOME_PARTS = [
    ['header title', '#first-paint-home .fp-title', '.app-header__title'],
    ['heading', '#first-paint-home .fp-heading-title', '.page-heading__title'],
    ['subtitle', '#first-paint-home .fp-heading-subtitle', '.page-heading__subtitle'],
  ] as const;
  /** The header's box: its buttons and names come with the app, its place comes first. */
  const HEADER = ['#first-paint-home .fp-header', '.app-header'] as const;
  for (const who of ['an Admin', 'a CPA', 'a Client user'] as const) {
    it(`${who}'s home on a phone paints its header and heading from the first HTML, and the app's take their places exactly`, async () => {
      const login = who === 'an Admin' ? admin : who === 'a CPA' ? cpa : clientUser;
      const page = await portal.browser.newPage(portal.baseUrl);
      await page.setViewportSize(PHONE);
      await setLocalStorage(page, { token: login.token, user: login.user, currentTenant: login.tenant });
      // The app's script is held: what shows is the gateway's copy alone.
      const held: Route[] = [];
      let holding = true;
      await page.route('**/main.js', (route) => (holding ? held.push(route) : route.continue()));
      await page.goto(`${portal.baseUrl}/${TENANT}/dashboard`, { waitUntil: 'commit' });
      await page.locator('#first-paint-home').waitFor();
      const copy = await Promise.all(HOME_PARTS.map(([, selector]) => page.locator(selector).evaluate(boxAndText)));
      const copyHeader = await page.locator(HEADER[0]).boundingBox();
      await portal.screenshot(page, `home-first-paint-${who.split(' ').pop()!.toLowerCase()}-phone`);
      holding = false;
      await Promise.all(held.map((route) => route.continue()));
      await page.locator('.page-heading__subtitle').waitFor();
      await expect(page.locator('#first-paint-home').count()).resolves.toBe(0);
      const app = await Promise.all(HOME_PARTS.map(([, , selector]) => page.locator(selector).evaluate(boxAndText)));
      HOME_PARTS.forEach(([part], index) => expect({ part, ...copy[index] }).toEqual({ part, ...app[index] }));
      expect(copyHeader).toEqual(await page.locator(HEADER[1]).boundingBox());
      await page.close();
    });
  }

  it('on a phone the tabs below the work panels are drawn as the viewer scrolls near them; on a desktop, at once', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await portal.browser.newPage(portal.baseUrl);
      await page.setViewportSize(viewport);
      await setLocalStorage(page, { token: admin.token, user: admin.user, currentTenant: admin.tenant });
      await page.goto(`${portal.baseUrl}/${TENANT}/dashboard`);
      await panel(page, 'My Tasks').getByText('Quarterly sales tax').waitFor();
      await page.locator('.stat-grid').waitFor();
      if (viewport === PHONE) {
        // The panels fill the phone's first screen: the tabs, their tables and charts (a third of a
        // second of a phone's processor) wait, and their place is kept.
        await expect(page.getByRole('tab').count()).resolves.toBe(0);
        await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
        // Their scripts are a chunk of their own, which the browser fetches while idle but which
        // does not run before it is needed.
        await page.locator('link[rel="prefetch"][href*="dashboard-tabs"]').waitFor({ state: 'attached' });
        await eventually(() => expect(page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/dashboard-tabs.')))).resolves.toBe(true));
        await expect(tabsChunkRan(page)).resolves.toBe(false);
        await page.locator('.when-near-viewport').scrollIntoViewIfNeeded();
      }
      await page.getByRole('tab', { name: 'Overview' }).waitFor();
      await expect(tabsChunkRan(page)).resolves.toBe(true);
      await page.close();
    }
  });

  /** Whether the chunk of the Dashboard's tabs (dashboard.page.tsx loads it) has pushed its ids onto the dashboard remote's chunk list. */
  async function tabsChunkRan(page: Page): Promise<boolean> {
    const href = await page.evaluate(() => performance.getEntriesByType('resource').find((entry) => /\/dashboard-tabs\.\w+\.js$/.test(entry.name))?.name);
    expect(href).toBeDefined();
    const ids = /\.push\(\[\[([\d,]+)\]/.exec(await (await fetch(href!)).text())?.[1]?.split(',').map(Number) ?? [];
    expect(ids.length).toBeGreaterThan(0);
    const ran = await page.evaluate(() => ((self as unknown as { webpackChunkdashboard?: [number[]][] }).webpackChunkdashboard ?? []).flatMap(([chunkIds]) => chunkIds));
    return ids.every((id) => ran.includes(id));
  }

  it('a desktop gets no copy of the home (its own first screen comes within a second)', async () => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize(DESKTOP);
    await setLocalStorage(page, { token: admin.token, user: admin.user, currentTenant: admin.tenant });
    await page.route('**/main.js', (route) => route.abort());
    await page.goto(`${portal.baseUrl}/${TENANT}/dashboard`, { waitUntil: 'domcontentloaded' });
    await expect(page.locator('#first-paint-home').count()).resolves.toBe(0);
    await page.close();
  });

  it('a visitor who is not signed in gets no copy of the home', async () => {
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.goto(`${portal.baseUrl}/${TENANT}/dashboard`);
    await page.waitForURL((url) => url.pathname.endsWith('/login'));
    await expect(page.locator('#first-paint-home').count()).resolves.toBe(0);
    await page.close();
  });

  it("the shell's page preloads, after main.js, the libraries the home runs on, and the home runs every preloaded script", async () => {
    // ui/webpack/preload-libraries.plugin.mjs finds these chunks through the federation plugin's
    // provide modules: a change there would leave the page without preloads, or preloading files it never runs.
    const html = await (await fetch(`${portal.baseUrl}/${TENANT}/dashboard`)).text();
    const preloadTags = [...html.matchAll(/<link rel="?preload"? as="?script"?[^>]*>/g)].map((match) => match[0]);
    // At low priority: the first paint waits for the page's style sheets, which should come first.
    expect(preloadTags.every((tag) => /fetchpriority="?low"?/.test(tag))).toBe(true);
    const preloads = preloadTags.map((tag) => /href="?([^" >]+)"?/.exec(tag)![1]!);
    // React, React DOM, the router, the query cache and PrimeReact: a script each at least.
    expect(preloads.length).toBeGreaterThanOrEqual(5);
    expect(html.indexOf('/main.js')).toBeLessThan(html.indexOf(preloads[0]!));
    const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/dashboard`);
    await page.getByRole('tab', { name: 'Overview' }).waitFor();
    // A chunk that ran has pushed its ids onto the shell's chunk list.
    const ran = new Set(await page.evaluate(() => (self as unknown as { webpackChunkshell: [number[]][] }).webpackChunkshell.flatMap(([ids]) => ids)));
    const notRun: string[] = [];
    for (const href of preloads) {
      const script = await (await fetch(`${portal.baseUrl}${href}`)).text();
      const ids = /\.push\(\[\[([\d,]+)\]/.exec(script)?.[1]?.split(',').map(Number) ?? [];
      if (!ids.length || !ids.every((id) => ran.has(id))) notRun.push(href);
    }
    expect(notRun).toEqual([]);
    await page.close();
  });

  it("the shell's main.js carries one copy of the federation runtime", async () => {
    // ui/webpack/federated-app.config.mjs: the runtime-provider plugin's CommonJS file brought the
    // runtime's CommonJS build beside the ES one the shell runs, 220 KB in all, parsed and run
    // before anything else on every page. With one copy it is 135 KB.
    const main = await (await fetch(`${portal.baseUrl}/main.js`)).text();
    expect(main.length).toBeGreaterThan(50_000);
    expect(main.length).toBeLessThan(170_000);
  });

  it("the shell's page lists the app's style sheets after its content, and the app does not request them again", async () => {
    // ui/webpack/app-stylesheets.plugin.mjs: requested by the app's start, the theme cost that task
    // 15-20 ms. The theme comes first, the app's own rules after it, as the style loader applies them.
    const html = await (await fetch(`${portal.baseUrl}/${TENANT}/dashboard`)).text();
    const sheets = [...html.matchAll(/<link rel="?stylesheet"? href="?([^" >]+)"?>/g)].map((match) => ({ href: match[1]!, at: match.index }));
    expect(sheets.length).toBeGreaterThanOrEqual(2);
    expect(sheets.every(({ at }) => at > html.indexOf('id="root"'))).toBe(true);
    const themeCss = await (await fetch(`${portal.baseUrl}${sheets[0]!.href}`)).text();
    expect(themeCss).toContain('.p-datatable');
    // ui/webpack/unused-theme-rules.plugin.mjs: without the rules of components no app shows (a MegaMenu, a TreeTable).
    expect(themeCss).not.toContain('.p-megamenu');
    expect(themeCss).not.toContain('.p-treetable');
    const requested: string[] = [];
    const page = await portal.browser.newPage(portal.baseUrl);
    page.on('request', (request) => { if (request.resourceType() === 'stylesheet') requested.push(new URL(request.url()).pathname); });
    await setLocalStorage(page, { token: admin.token, user: admin.user, currentTenant: admin.tenant });
    await page.goto(`${portal.baseUrl}/${TENANT}/dashboard`);
    await panel(page, 'My Tasks').waitFor();
    // Each sheet once on the page, fetched once: the style loader found the listed ones.
    const onPage = await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const { href } of sheets) {
      expect(onPage.filter((h) => h === href)).toHaveLength(1);
      expect(requested.filter((path) => path === href)).toHaveLength(1);
    }
    await page.close();
  });

  it('the sender sees Sent, then Read the moment the recipient opens the conversation', async () => {
    const conversation = await once(async () => {
      const r = await call<Conversation>('POST', `/api/${TENANT}/conversations`, admin.token, { title: 'Receipts', participantIds: [clientUserId] });
      expect(r.status).toBe(201);
      return r.body;
    });
    const sent = await call<Message>('POST', `/api/${TENANT}/conversations/${conversation.id}/messages`, admin.token, { content: 'Your receipt is in Reports.', messageType: 'text' });
    expect(sent.status).toBe(201);
    for (const viewport of [PHONE, DESKTOP]) {
      const adminPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/messages`);
      await adminPage.setViewportSize(viewport);
      const own = adminPage.locator(`.message[data-message-id="${sent.body.id}"]`);
      if (viewport === PHONE) {
        await own.locator('.message__status', { hasText: 'Sent' }).waitFor();
        await portal.screenshot(adminPage, 'message-sent-phone');
        // The recipient opens the conversation: the sender's page turns it Read without a reload.
        const clientPage = await openAs(portal, portal.baseUrl.replace('127.0.0.1', 'localhost'), clientUser, `/${TENANT}/messages`);
        await clientPage.locator('.thread__head', { hasText: 'Receipts' }).waitFor();
        await own.locator('.message__status', { hasText: 'Read' }).waitFor();
        await portal.screenshot(adminPage, 'message-read-phone');
        await clientPage.close();
      } else {
        // Read status also comes with the page, not only live.
        await own.locator('.message__status', { hasText: 'Read' }).waitFor();
      }
      // Only the sender's own messages carry a status.
      await expect(adminPage.locator('.message:not(.message--own) .message__status').count()).resolves.toBe(0);
      await adminPage.close();
    }
  });
});
