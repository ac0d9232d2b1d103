// The AI Chat dialog without a model, on a phone (390×844) and a desktop (1440×900): it says
// before the first question that no model answers, the conversation takes the width (the
// sessions behind a menu on the phone), the input and Send stay in view, quoted passages
// carry no blank lines, a summary request gets the labelled extractive summary and a
// follow-up matching nothing says so.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { SUMMARY_LABEL, noMatch } from '@ledgerline/kit/ai/excerpt-assistant.ts';
import { apiClient, createSignedInUser } from '@ledgerline/server/portal-harness.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { CHAT_MESSAGES } from '@ledgerline/contracts/chat.contracts.ts';
import { type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

const suffix = uniqueSuffix();
const firm = { name: `Quay Tax ${suffix}`, shortName: `quay${suffix}` };
const FILE = 'quay-annual-letter.txt';
const LETTER = [
  'Quay Tax Partners',
  'Annual letter to Harbor Foods',
  'Prepared on 3 March 2026',
  '',
  'REVENUE',
  'Consulting revenue rose to 120,000 EUR because new clients signed consulting contracts.',
  'TAX POSITION',
  'The corporate tax on the consulting revenue is 24,000 EUR, due with the tax return.',
  'The tax return for the year is due by 31 July 2026.',
  'Total 4242',
  'Please send the signed tax return and the revenue ledger for consulting clients before July.',
].join('\n');
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

describe('the AI Chat dialog without a model, on a phone and a desktop', () => {
  let portal: PortalBrowser;
  let baseUrl: string;
  let session: { token: string; user: object; currentTenant: object };

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'documents', 'chat']);
    baseUrl = portal.baseUrl;
    const call = apiClient(baseUrl);
    const created = await call<{ id: number }>('POST', '/api/companies', portal.adminToken, firm);
    expect(created.status).toBe(201);
    const client = await call<{ id: number }>('POST', `/api/${firm.shortName}/clients`, portal.adminToken, {
      name: 'Harbor Foods', address: '1 Quay Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: 'harbor@example.test',
    });
    const type = await call<{ id: number }>('POST', `/api/${firm.shortName}/report-types`, portal.adminToken, { name: 'Annual' });
    const roles = await call<{ id: number; name: string }[]>('GET', `/api/${firm.shortName}/roles`, portal.adminToken);
    const user = { username: `cora${suffix}`, fullName: 'Cora CPA', roleId: roles.body.find((r) => r.name === 'CPA')!.id, clientIds: [client.body.id], reportTypeIds: [type.body.id] };
    const { id, token } = await createSignedInUser(call, portal.adminToken, firm.shortName, user);
    session = {
      token, user: { id, role: 'CPA', username: user.username, fullName: user.fullName, commonRouting: true },
      currentTenant: { id: created.body.id, name: firm.name, shortName: firm.shortName, isActive: true },
    };
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(client.body.id));
    form.append('reportTypeId', String(type.body.id));
    form.append('file', new Blob([LETTER], { type: 'text/plain' }), FILE);
    // The files service learns the CPA's client list from events: the first upload may need a moment.
    await eventually(async () => {
      const r = await fetch(`${baseUrl}/api/${firm.shortName}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(r.status).toBe(201);
    }, 30_000, 250);
    await eventually(async () => {
      const files = await call<PortalFile[]>('GET', `/api/${firm.shortName}/files`, token);
      expect(files.body.filter((f) => f.processedAt !== null)).toHaveLength(1);
    }, 60_000, 250);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  const inView = async (page: Page, locator: Locator) => {
    const box = (await locator.boundingBox())!;
    const size = page.viewportSize()!;
    return box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height;
  };

  for (const viewport of VIEWPORTS) {
    it(`${viewport.name} ${viewport.width}×${viewport.height}: usable, honest about having no model`, async () => {
      const page = await portal.browser.newPage(baseUrl);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await setLocalStorage(page, session);
      await page.goto(`${baseUrl}/${firm.shortName}/cpa-dashboard`);
      const chat = page.getByRole('button', { name: `Chat about ${FILE}` }).first();
      await eventually(async () => expect(await chat.isEnabled()).toBe(true), 10_000, 100);
      await chat.click();
      const dialog = page.getByRole('dialog', { name: `AI Chat - ${FILE}` });
      // Before the first question: no model answers here.
      await dialog.getByRole('note').getByText(CHAT_MESSAGES.noModel).waitFor();

      const input = dialog.getByRole('textbox', { name: 'Message' });
      const send = dialog.getByRole('button', { name: 'Send' });
      await input.fill('x');
      expect(await inView(page, input)).toBe(true);
      expect(await inView(page, send)).toBe(true);
      const sessions = dialog.locator('#chat-sessions');
      if (viewport.name === 'phone') {
        // The sessions wait behind their menu; the input takes the width left by Send.
        await expect(sessions.isVisible()).resolves.toBe(false);
        expect((await input.boundingBox())!.width).toBeGreaterThan(200);
      } else {
        await expect(sessions.isVisible()).resolves.toBe(true);
      }

      // The Summarise prompt is marked as answered by an extractive summary.
      const summarise = dialog.getByRole('button', { name: 'Summarise', exact: true });
      await expect(summarise.getAttribute('aria-description')).resolves.toBe(CHAT_MESSAGES.promptAsSummary);
      await summarise.click();
      await input.press('Enter');
      const answer = dialog.locator('.chat-message--assistant').last();
      await answer.getByText(SUMMARY_LABEL).waitFor({ timeout: 20_000 });
      await answer.getByRole('heading', { name: 'Most central sentences' }).waitFor();
      await answer.getByText(`${FILE}, lines 1–3:`).waitFor();
      // A quote's lines follow each other: no blank line between them.
      const quote = answer.locator('blockquote').first();
      await expect(quote.evaluate((el) => getComputedStyle(el).whiteSpace)).resolves.toBe('normal');
      await expect(quote.evaluate((el) => el.querySelectorAll('br').length)).resolves.toBe(2);

      // A follow-up matching no word of the letter says so, quoting nothing from before.
      await input.fill('And the photosynthesis?');
      await send.click();
      await dialog.locator('.chat-message--assistant').nth(1).getByText(noMatch(FILE)).waitFor({ timeout: 20_000 });
      await expect(dialog.locator('.chat-message--assistant').nth(1).locator('blockquote').count()).resolves.toBe(0);

      // The conversation, not the prompts and the input, has most of the dialog.
      const messagesBox = (await dialog.locator('.chat-messages').boundingBox())!;
      const dialogBox = (await dialog.boundingBox())!;
      expect(messagesBox.height / dialogBox.height).toBeGreaterThan(viewport.name === 'phone' ? 0.45 : 0.55);
      const bubble = (await answer.boundingBox())!;
      expect(bubble.width).toBeGreaterThan(viewport.name === 'phone' ? 300 : 500);
      expect(await sideways(page)).toBe(0);
      await portal.screenshot(page, `chat-dialog-no-model-${viewport.name}`);

      if (viewport.name === 'phone') {
        const menu = dialog.getByRole('button', { name: 'Summarise this document', exact: false }).first();
        await menu.click();
        await sessions.waitFor();
        await sessions.getByRole('button', { name: 'New AI Chat' }).click();
        await sessions.waitFor({ state: 'hidden' });
        await expect(dialog.locator('.chat-message').count()).resolves.toBe(0);
      }
      await page.close();
    }, 120_000);
  }
});
