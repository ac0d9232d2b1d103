import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '@ledgerline/kit/testing/openai-stand-in.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { CHAT_MESSAGES, CHAT_TITLE_MAX_CHARS, type PromptTemplate } from '@ledgerline/contracts/chat.contracts.ts';
import { startPortalBrowser, uniqueSuffix, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const SCANNED_PDF = path.resolve(import.meta.dirname, '../../../services/files/test/fixtures/scanned-invoice.pdf');
const suffix = uniqueSuffix();
const firm = { name: `Meridian Tax ${suffix}`, shortName: `meridian${suffix}` };
const TENANT = firm.shortName;
const clientDetails = (name: string) => ({ name, address: '1 Quay Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: `${name.split(' ')[0]!.toLowerCase()}@example.test` });
const SCAN = 'scanned-invoice.pdf';
const CLIENT_REPORT = 'meridian-annual.txt';
// Markdown the model might write, with HTML a document could smuggle into it.
const RISKY_ANSWER = '**Total:** 4242\n\n- first\n- second\n\n<img src="x" onerror="document.title=\'xss\'"><script>document.title="xss"</script>[open](javascript:document.title=\'xss\')';

interface Login { token: string; user: Record<string, unknown> }

describe('the AI Chat dialog in Chromium (model: the local stand-in)', () => {
  let standIn: OpenAiStandIn;
  let portal: PortalBrowser;
  let baseUrl: string;
  let page: Page;
  let call: ReturnType<typeof apiClient>;
  let tenant: { id: number; name: string; shortName: string; isActive: boolean };
  let cpaLogin: Login;
  let clientLogin: Login;
  let adminLogin: Login;

  const upload = async (token: string, clientId: number, reportTypeId: number, name: string, bytes: Buffer, type: string) => {
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(clientId));
    form.append('reportTypeId', String(reportTypeId));
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const reply = await fetch(`${baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(reply.status).toBe(201);
  };

  beforeAll(async () => {
    standIn = await startOpenAiStandIn();
    portal = await startPortalBrowser(['shell', 'documents', 'chat'], { AI_MODEL: 'stand-in', OPENAI_BASE_URL: standIn.url, AI_MAX_RETRIES: '0' });
    baseUrl = portal.baseUrl;
    call = apiClient(baseUrl);
    const admin = portal.adminToken;
    const created = await call<{ id: number }>('POST', '/api/companies', admin, firm);
    expect(created.status).toBe(201);
    tenant = { id: created.body.id, name: firm.name, shortName: TENANT, isActive: true };
    const client = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, admin, clientDetails('Harbor Foods'));
    const gst = await call<{ id: number }>('POST', `/api/${TENANT}/report-types`, admin, { name: 'GST Returns' });
    const roles = await call<{ id: number; name: string }[]>('GET', `/api/${TENANT}/roles`, admin);
    const roleId = (name: string) => roles.body.find((role) => role.name === name)!.id;
    const addUser = async (username: string, role: string, reportTypeIds: number[] | null) => {
      const user = { username: `${username}${suffix}`, password: `${username}-secret-1`, fullName: `${username} user` };
      const made = await call('POST', `/api/${TENANT}/users`, admin, { ...user, roleId: roleId(role), clientIds: [client.body.id], reportTypeIds });
      expect([made.status, made.body]).toEqual([201, expect.objectContaining({ username: user.username })]);
      const login = await call<Login>('POST', `/api/${TENANT}/auth/login`, null, { username: user.username, password: user.password });
      expect(login.status).toBe(200);
      return login.body;
    };
    cpaLogin = await addUser('cara', 'CPA', [gst.body.id]);
    clientLogin = await addUser('hank', 'Client', null);
    adminLogin = await addUser('ada', 'Admin', null);
    // The files service learns the CPA's lists from events: the first upload may need a moment.
    const scan = await readFile(SCANNED_PDF);
    await eventually(() => upload(cpaLogin.token, client.body.id, gst.body.id, SCAN, scan, 'application/pdf'), 30_000, 250);
    await upload(cpaLogin.token, client.body.id, gst.body.id, CLIENT_REPORT, Buffer.from('Meridian annual report\nTotal 4242\nSigned by the director'), 'text/plain');
    // OCR runs in the background after the upload.
    await eventually(async () => {
      const files = await call<PortalFile[]>('GET', `/api/${TENANT}/files`, admin);
      expect(files.body.filter((f) => f.processedAt !== null)).toHaveLength(2);
    }, 120_000, 500);
    page = await portal.browser.newPage(baseUrl);
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
    await standIn?.close();
  });

  const fileRow = (name: string) => page.locator('.files-table .p-datatable-tbody tr', { hasText: name });
  const dialog = () => page.getByRole('dialog', { name: `AI Chat - ${SCAN}` });
  const assistantBubbles = () => dialog().locator('.chat-message--assistant');

  it('a CPA opens Chat on a scanned PDF, asks with a Quick Prompt and sees the answer stream in', async () => {
    await setLocalStorage(page, { token: cpaLogin.token, user: cpaLogin.user, currentTenant: tenant });
    await page.goto(`${baseUrl}/${TENANT}/cpa-dashboard`);
    const chat = fileRow(SCAN).getByRole('button', { name: `Chat about ${SCAN}` });
    await chat.waitFor();
    await eventually(async () => expect(await chat.isDisabled()).toBe(false), 10_000, 100);
    await chat.click();
    await dialog().waitFor();
    await dialog().getByText(CHAT_MESSAGES.noSessions).waitFor();

    // Spec 001 §9: 5 rows, at most 200px.
    const input = dialog().getByRole('textbox', { name: 'Message' });
    await expect(input.getAttribute('rows')).resolves.toBe('5');
    await expect(input.evaluate((el) => getComputedStyle(el).maxHeight)).resolves.toBe('200px');

    // Quick Prompts by category: the firm's defaults.
    await dialog().getByRole('tab', { name: 'Compliance & Tax' }).click();
    await dialog().getByRole('button', { name: 'Tax amounts' }).click();
    const templates = await call<PromptTemplate[]>('GET', `/api/${TENANT}/prompt-templates?isActive=true`, cpaLogin.token);
    const prompt = templates.body.find((t) => t.title === 'Tax amounts')!.content;
    await expect(input.inputValue()).resolves.toBe(prompt);

    standIn.enqueue({ pieceDelayMs: 150 });
    await input.press('Enter');
    // Part of the answer is on screen while the rest is still being written.
    const bubble = assistantBubbles().last();
    await bubble.getByText(/Stand-in answer/).waitFor();
    expect(await bubble.textContent()).not.toContain('earlier messages.');
    await bubble.getByText(`Stand-in answer to "${prompt}" after 0 earlier messages.`).waitFor({ timeout: 20_000 });
    await expect(input.inputValue()).resolves.toBe('');

    // The model was given the scan's OCR text as data, and the question.
    const sent = standIn.requests.at(-1)!.messages.at(-1)!.content;
    expect(sent).toMatch(/Zephyrine/);
    expect(sent.endsWith(`Question: ${prompt}`)).toBe(true);
    await dialog().locator('.chat-session').first().waitFor();
    await portal.screenshot(page, 'chat-dialog-answer');
  }, 120_000);

  it('renders answers as sanitised Markdown; Shift+Enter breaks the line, Enter sends', async () => {
    const input = dialog().getByRole('textbox', { name: 'Message' });
    await input.fill('What is the total?');
    await input.press('Shift+Enter');
    await input.pressSequentially('In figures.');
    await expect(input.inputValue()).resolves.toBe('What is the total?\nIn figures.');
    standIn.enqueue({ reply: RISKY_ANSWER });
    await input.press('Enter');
    const answer = assistantBubbles().last();
    await answer.locator('strong', { hasText: 'Total:' }).waitFor();
    await expect(answer.locator('li').allTextContents()).resolves.toEqual(['first', 'second']);
    await expect(answer.locator('img, script').count()).resolves.toBe(0);
    await expect(answer.locator('a').getAttribute('href')).resolves.toBeNull();
    await expect(page.title()).resolves.not.toBe('xss');
    // A follow-up in the same session carries the conversation.
    expect(standIn.requests.at(-1)!.messages).toHaveLength(4);
    expect(standIn.requests.at(-1)!.messages.at(-1)!.content.endsWith('Question: What is the total?\nIn figures.')).toBe(true);
  }, 60_000);

  it('reopens the dialog empty, and picking the session from the sidebar loads its messages', async () => {
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'hidden' });
    await fileRow(SCAN).getByRole('button', { name: `Chat about ${SCAN}` }).click();
    await dialog().waitFor();
    await expect(dialog().locator('.chat-message').count()).resolves.toBe(0);
    const sessions = dialog().locator('.chat-session');
    await sessions.first().waitFor();
    await expect(sessions.count()).resolves.toBe(1);
    const title = await sessions.first().locator('.chat-session__title').textContent();
    expect(title!.length).toBeLessThanOrEqual(CHAT_TITLE_MAX_CHARS);
    await sessions.first().click();
    await expect(sessions.first().getAttribute('aria-current')).resolves.toBe('true');
    await eventually(async () => expect(await dialog().locator('.chat-message').count()).toBe(4), 10_000, 100);
    await expect(dialog().locator('.chat-message').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-role')))).resolves.toEqual(['user', 'assistant', 'user', 'assistant']);

    // 'New AI Chat' clears the selection; the next question starts a second session.
    await dialog().getByRole('button', { name: 'New AI Chat' }).click();
    await expect(dialog().locator('.chat-message').count()).resolves.toBe(0);
    standIn.enqueue({ status: 500 });
    const input = dialog().getByRole('textbox', { name: 'Message' });
    await input.fill('Who issued it?');
    await input.press('Enter');
    await page.locator('.p-toast-detail', { hasText: CHAT_MESSAGES.sendFailed }).waitFor();
    await dialog().getByRole('alert').getByText('The AI assistant could not answer right now. Please try again.').waitFor();
    await expect(input.inputValue()).resolves.toBe('Who issued it?');
    await expect(sessions.count()).resolves.toBe(1);
    await portal.screenshot(page, 'chat-dialog-sessions');
  }, 60_000);

  it('a Client user chats about their own report', async () => {
    const clientPage = await portal.browser.newPage(baseUrl);
    await setLocalStorage(clientPage, { token: clientLogin.token, user: clientLogin.user, currentTenant: tenant });
    await clientPage.goto(`${baseUrl}/${TENANT}/client-reports`);
    const chat = clientPage.locator('.files-table .p-datatable-tbody tr', { hasText: CLIENT_REPORT }).getByRole('button', { name: `Chat about ${CLIENT_REPORT}` });
    await chat.waitFor();
    await eventually(async () => expect(await chat.isDisabled()).toBe(false), 10_000, 100);
    await chat.click();
    const clientDialog = clientPage.getByRole('dialog', { name: `AI Chat - ${CLIENT_REPORT}` });
    await clientDialog.getByText(CHAT_MESSAGES.noSessions).waitFor();
    const input = clientDialog.getByRole('textbox', { name: 'Message' });
    await input.fill('Who signed the report?');
    await input.press('Enter');
    await clientDialog.locator('.chat-message--assistant').getByText('Stand-in answer to "Who signed the report?" after 0 earlier messages.').waitFor();
    await clientDialog.locator('.chat-session', { hasText: 'Who signed the report?' }).waitFor();
    expect(standIn.requests.at(-1)!.messages.at(-1)!.content).toContain('Signed by the director');
    await clientPage.close();
  }, 60_000);

  it('an Admin manages the templates, and the dialog offers the active ones by category', async () => {
    // Only Admins get the way to the templates page, from the Quick Prompts.
    await expect(dialog().getByRole('link', { name: 'Manage templates' }).count()).resolves.toBe(0);
    const adminPage = await portal.browser.newPage(baseUrl);
    await setLocalStorage(adminPage, { token: adminLogin.token, user: adminLogin.user, currentTenant: tenant });
    await adminPage.goto(`${baseUrl}/${TENANT}/cpa-dashboard`);
    const openChat = adminPage.locator('.files-table .p-datatable-tbody tr', { hasText: SCAN }).getByRole('button', { name: `Chat about ${SCAN}` });
    await eventually(async () => expect(await openChat.isEnabled()).toBe(true), 10_000, 100);
    await openChat.click();
    await adminPage.getByRole('dialog', { name: `AI Chat - ${SCAN}` }).getByRole('link', { name: 'Manage templates' }).click();
    await adminPage.waitForURL(`${baseUrl}/${TENANT}/prompt-templates`);
    await adminPage.getByRole('heading', { name: 'Prompt Templates', level: 2 }).waitFor();
    await expect(adminPage.locator('.app-header__title').textContent()).resolves.toBe('Prompt Templates');
    const row = (title: string) => adminPage.locator('.p-datatable-tbody tr', { hasText: title });
    await row('Deadlines').waitFor();

    await adminPage.getByRole('button', { name: 'Add Prompt Template' }).click();
    const form = adminPage.getByRole('dialog', { name: 'Add Prompt Template' });
    await form.locator('#template-title').fill('VAT check');
    await form.locator('.p-dropdown', { has: adminPage.locator('#template-category') }).click();
    await adminPage.getByRole('option', { name: 'Business Insights' }).click();
    await form.locator('#template-content').fill('Which VAT figures does this document state?');
    await form.getByRole('button', { name: 'Create Prompt Template' }).click();
    await form.waitFor({ state: 'hidden' });
    await row('VAT check').getByText('Active').waitFor();

    await adminPage.getByRole('switch', { name: 'Find amounts active' }).click();
    await row('Find amounts').getByText('Inactive').waitFor();
    // Every Compliance & Tax template off: the dialog says the category has none.
    const all = await call<PromptTemplate[]>('GET', `/api/${TENANT}/prompt-templates?category=compliance_tax`, adminLogin.token);
    for (const t of all.body) expect((await call('PUT', `/api/${TENANT}/prompt-templates/${t.id}`, adminLogin.token, { isActive: false })).status).toBe(200);

    await adminPage.goto(`${baseUrl}/${TENANT}/cpa-dashboard`);
    const chat = adminPage.locator('.files-table .p-datatable-tbody tr', { hasText: SCAN }).getByRole('button', { name: `Chat about ${SCAN}` });
    await eventually(async () => expect(await chat.isEnabled()).toBe(true), 10_000, 100);
    await chat.click();
    const adminDialog = adminPage.getByRole('dialog', { name: `AI Chat - ${SCAN}` });
    await adminDialog.getByRole('tab', { name: 'Business Insights' }).click();
    await adminDialog.getByRole('button', { name: 'VAT check' }).waitFor();
    await expect(adminDialog.getByRole('button', { name: 'Find amounts' }).count()).resolves.toBe(0);
    await adminDialog.getByRole('tab', { name: 'Compliance & Tax' }).click();
    await adminDialog.getByText(CHAT_MESSAGES.noTemplates).waitFor();
    // Sessions are per user: the CPA's conversation is not the Admin's.
    await adminDialog.getByText(CHAT_MESSAGES.noSessions).waitFor();
    await portal.screenshot(adminPage, 'chat-quick-prompts');

    // Other staff read the templates but do not manage them (the pages share one origin's storage).
    await adminPage.close();
    await setLocalStorage(page, { token: cpaLogin.token, user: cpaLogin.user, currentTenant: tenant });
    await page.goto(`${baseUrl}/${TENANT}/prompt-templates`);
    await page.getByRole('heading', { name: 'Prompt Templates', level: 2 }).waitFor();
    await page.locator('.p-datatable-tbody tr', { hasText: 'VAT check' }).waitFor();
    await expect(page.getByRole('button', { name: 'Add Prompt Template' }).count()).resolves.toBe(0);
    await expect(page.locator('.p-datatable-tbody tr', { hasText: 'Find amounts' }).count()).resolves.toBe(0);
  }, 60_000);
});
