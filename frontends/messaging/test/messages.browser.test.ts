import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { Conversation } from '@ledgerline/contracts/messaging.contracts.ts';
import { addFirmUser, expectToast, openAs, startPortalBrowser, uniqueSuffix, type FirmLogin, type PortalBrowser } from '../../ui/test/portal-browser.ts';

const BUS_WAIT_MS = 15_000;
const suffix = uniqueSuffix();
const FIRM = { name: `Harbor Accounting ${suffix}`, shortName: `harbor${suffix}` };
const TENANT = FIRM.shortName;
const W2_FILE = 'Bayview W-2 2026.txt';
const OTHER_FILE = 'Other Mill ledger.txt';

describe('Messages screen in Chromium, an Admin and a Client user side by side', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let client: FirmLogin;
  let clientId: number;

  const navBadge = (page: Page) => page.locator('[data-nav-id="messages"] .side-nav__badge');
  const message = (page: Page, text: string) => page.locator('.message', { hasText: text });

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'messaging']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, FIRM)).status).toBe(201);
    const c = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, {
      name: 'Bayview Bakery', address: '12 Harbour Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'bakery@example.com',
    });
    const other = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, portal.adminToken, {
      name: 'Other Mill', address: '3 Quay Road', phone: '(555)-123-4568', federalId: '12-3456780', stateId: 'ST-4412', email: 'mill@example.com',
    });
    // Files for the attachment picker: one of the client's, one of another client the client user may not open.
    for (const [owner, name] of [[c.body.id, W2_FILE], [other.body.id, OTHER_FILE]] as const) {
      const form = new FormData();
      form.append('fileType', 'company_document');
      form.append('clientId', String(owner));
      form.append('file', new Blob([`${name}\nWages 52,000\n`], { type: 'text/plain' }), name);
      const uploaded = await fetch(`${portal.baseUrl}/api/${TENANT}/files`, { method: 'POST', headers: { authorization: `Bearer ${portal.adminToken}` }, body: form });
      expect(uploaded.status).toBe(201);
    }
    admin = (await addFirmUser(portal, TENANT, { username: `ada${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null })).login;
    const added = await addFirmUser(portal, TENANT, { username: `cleo${suffix}`, fullName: 'Cleo Client', roleId: 4, clientIds: [c.body.id] });
    client = added.login;
    clientId = added.id;
    // The messaging service knows the client user once identity's events arrived.
    await eventually(async () => {
      const r = await call<Conversation>('POST', `/api/${TENANT}/conversations`, admin.token, { title: 'Welcome', participantIds: [clientId] });
      expect(r.status).toBe(201);
    }, BUS_WAIT_MS, 300);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  it('starts a conversation, delivers, replies, edits and deletes live in both views; unread badges rise and fall', async () => {
    const clientOrigin = portal.baseUrl.replace('127.0.0.1', 'localhost');
    const clientPage = await openAs(portal, clientOrigin, client, `/${TENANT}/messages`);
    // The first conversation is selected on arrival.
    await clientPage.locator('.thread__head', { hasText: 'Welcome' }).waitFor();

    const adminPage = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/messages`);
    await adminPage.getByRole('button', { name: 'New', exact: true }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Create New Conversation' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please enter a conversation title' }).waitFor();
    await dialog.getByLabel('Title').fill('Year-end documents');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please select at least one participant' }).waitFor();
    await dialog.locator('.p-multiselect', { has: adminPage.locator('#conversation-participants') }).click();
    await adminPage.locator('li[role="option"]', { hasText: 'Cleo Client' }).click();
    // A click elsewhere closes the panel (Escape would close the dialog too).
    await dialog.locator('.p-dialog-title').click();
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(adminPage, 'Success', 'Conversation created successfully');
    await adminPage.locator('.thread__head', { hasText: 'Year-end documents' }).waitFor();
    await adminPage.getByLabel('Message', { exact: true }).fill('Please send your W-2 by Friday.');
    await adminPage.getByRole('button', { name: 'Send' }).click();
    await message(adminPage, 'Please send your W-2 by Friday.').waitFor();

    // The client sees the new conversation, its unread badge and the nav's count, without a reload.
    const newConversation = clientPage.locator('.conversation', { hasText: 'Year-end documents' });
    await newConversation.locator('.conversation__badge', { hasText: '1' }).waitFor();
    await navBadge(clientPage).filter({ hasText: '1' }).waitFor();
    await newConversation.click();
    await message(clientPage, 'Please send your W-2 by Friday.').waitFor();
    // Opening it reads it: both badges fall.
    await newConversation.locator('.conversation__badge').waitFor({ state: 'detached' });
    await navBadge(clientPage).waitFor({ state: 'detached' });

    // The client replies quoting the Admin's message; others' messages offer no edit or delete.
    const adminMessage = message(clientPage, 'Please send your W-2 by Friday.');
    expect(await adminMessage.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await adminMessage.getByRole('button', { name: 'Reply' }).click();
    await clientPage.getByText('Replying to Ada Admin').waitFor();
    await clientPage.getByRole('button', { name: 'Cancel reply' }).click();
    await clientPage.getByText('Replying to Ada Admin').waitFor({ state: 'detached' });
    await adminMessage.getByRole('button', { name: 'Reply' }).click();
    await clientPage.getByLabel('Message', { exact: true }).fill('Sent it this morning.');
    await clientPage.getByLabel('Message', { exact: true }).press('Enter');
    const reply = message(adminPage, 'Sent it this morning.');
    await reply.waitFor();
    await reply.locator('.message__quote', { hasText: 'Please send your W-2 by Friday.' }).waitFor();
    await reply.locator('.message__quote-sender', { hasText: 'Ada Admin' }).waitFor();

    // The Admin edits inline; both views show the new text.
    // By id: while it is edited its text is in a text box, and the reply quotes it.
    const ownId = await message(adminPage, 'Please send your W-2 by Friday.').first().getAttribute('data-message-id');
    const own = adminPage.locator(`.message[data-message-id="${ownId}"]`);
    await own.getByRole('button', { name: 'Edit' }).click();
    await own.getByLabel('Edit message').fill('Please send your W-2 and 1099 by Friday.');
    await own.getByRole('button', { name: 'Save' }).click();
    await expectToast(adminPage, 'Success', 'Message updated successfully');
    await message(adminPage, 'Please send your W-2 and 1099 by Friday.').locator('.message__edited').waitFor();
    await message(clientPage, 'Please send your W-2 and 1099 by Friday.').locator('.message__edited').waitFor();

    // The Admin's unread count rose with the reply and fell when the open thread read it.
    await navBadge(adminPage).waitFor({ state: 'detached' });

    // The client attaches one of their files (only theirs are offered) and sends it alone; the Admin downloads it from the thread.
    await clientPage.getByRole('button', { name: 'Attach file' }).click();
    const picker = clientPage.getByRole('dialog', { name: 'Attach a File' });
    await picker.getByRole('button', { name: `Attach ${W2_FILE}` }).waitFor();
    expect(await picker.getByRole('button', { name: `Attach ${OTHER_FILE}` }).count()).toBe(0);
    await picker.getByLabel('Search files').fill('ledger');
    await picker.getByText('No files found').waitFor();
    await picker.getByLabel('Search files').fill('w-2');
    await picker.getByRole('button', { name: `Attach ${W2_FILE}` }).click();
    await clientPage.locator('.composer__attachment', { hasText: W2_FILE }).waitFor();
    await clientPage.getByRole('button', { name: 'Send' }).click();
    await clientPage.locator('.composer__attachment').waitFor({ state: 'detached' });
    const attached = adminPage.locator('.message__file', { hasText: W2_FILE });
    const download = adminPage.waitForEvent('download');
    await attached.getByRole('button', { name: `Download ${W2_FILE}` }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe(W2_FILE);

    // Today's messages sit under one day separator in each view.
    await expect(adminPage.locator('.thread__day').allTextContents()).resolves.toEqual(['Today']);
    await expect(clientPage.locator('.thread__day').allTextContents()).resolves.toEqual(['Today']);

    // The Admin deletes a message after confirming; it leaves both views.
    await adminPage.getByLabel('Message', { exact: true }).fill('Typo message');
    await adminPage.getByRole('button', { name: 'Send' }).click();
    await message(clientPage, 'Typo message').waitFor();
    await message(adminPage, 'Typo message').getByRole('button', { name: 'Delete' }).click();
    const confirm = adminPage.locator('.p-confirm-dialog', { hasText: 'Are you sure you want to delete this message?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(adminPage, 'Success', 'Message deleted successfully');
    await message(clientPage, 'Typo message').waitFor({ state: 'detached' });
    await message(adminPage, 'Typo message').waitFor({ state: 'detached' });

    // Search narrows the list, and says so when nothing matches.
    await clientPage.getByLabel('Search conversations').fill('zzz');
    await clientPage.getByText('No conversations found matching "zzz"').waitFor();
    await portal.screenshot(clientPage, 'messages-client');
    await portal.screenshot(adminPage, 'messages-admin');
    await clientPage.close();
    await adminPage.close();
  }, 180_000);
});
