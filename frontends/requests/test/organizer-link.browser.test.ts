import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import { ORGANIZER_LINK_MESSAGES, type OrganizerDetail, type OrganizerTemplate } from '@ledgerline/contracts/organizers.contracts.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * Issue 42's link form, in Chromium at 390 and 1440 px: staff make a link on the organizer's
 * page (the URL shown once, with Copy); someone without an account opens it in a page with no
 * sign-in, answers (a question another answer shows), reloads and finds the answers kept, and
 * submits; staff see it Submitted; the used link then says so (410). A second link, revoked in
 * the same dialog, no longer opens.
 */

const suffix = uniqueSuffix();
const TENANT = `orglink${suffix}`;
const question = (page: Page, title: string | RegExp) => page.locator('.sd-question', { has: page.locator('.sd-question__title', { hasText: title }) });
const statusTag = (page: Page, status: string) => page.locator('.request-summary .p-tag', { hasText: status });

describe('organizer links in Chromium (issue 42)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;
  let templateId: number;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'access', 'requests']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Wren Tax ${suffix}`, shortName: TENANT, timeZone: 'America/Chicago' })).status).toBe(201);
    admin = (await addFirmUser(portal, TENANT, { username: `wren${suffix}`, fullName: 'Wren Admin', roleId: 1, clientIds: null })).login;
    const template = await call<OrganizerTemplate>('POST', `/api/${TENANT}/organizer-templates`, admin.token, {
      name: 'Household', sections: [{ id: 'household', title: 'Household', questions: [
        { id: 'moved', type: 'yes_no', title: 'Did you move this year?', required: true },
        { id: 'new_address', type: 'text', title: 'Your new address', required: true, showIf: { questionId: 'moved', equals: true } },
      ] }],
    });
    expect(template.status).toBe(201);
    templateId = template.body.id;
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  for (const [size, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]] as const) {
    it(`${size} (${viewport.width} px): staff make a link; its holder answers without an account, reloads, submits; staff see it submitted; the used link says so`, async () => {
      const client = await call<{ id: number }>('POST', `/api/${TENANT}/clients`, admin.token, testClient(`Link Household ${size}`));
      expect(client.status).toBe(201);
      const organizer = await call<OrganizerDetail>('POST', `/api/${TENANT}/organizers`, admin.token, { clientId: client.body.id, templateId, year: 2025, dueDate: '2031-03-31', sendNow: true });
      expect(organizer.status).toBe(201);

      // 1. Staff (on another origin than the link's holder, so their sign-in stays apart) make the link.
      const staffOrigin = portal.baseUrl.replace('127.0.0.1', 'localhost');
      const staff = await openAs(portal, staffOrigin, admin, `/${TENANT}/requests/organizers/${organizer.body.id}`);
      await staff.setViewportSize(viewport);
      await staff.getByRole('button', { name: 'Link for someone without an account' }).click();
      const dialog = staff.getByRole('dialog', { name: 'Link for someone without an account' });
      await dialog.getByLabel('E-mail it to (optional)').fill(`holder.${size}@example.com`);
      await dialog.getByRole('button', { name: 'Create Link' }).click();
      await expectToast(staff, 'Link Created', `Sent to holder.${size}@example.com`);
      const url = await dialog.getByLabel('The link (shown only now)').inputValue();
      expect(url).toMatch(new RegExp(`/organizer/${TENANT}\\.\\S+$`));
      await dialog.getByRole('button', { name: 'Copy' }).waitFor();
      await dialog.locator('li', { hasText: `holder.${size}@example.com` }).getByText('Active').waitFor();
      expect(await sideways(staff)).toBeLessThanOrEqual(0);
      await portal.screenshot(staff, `organizer-link-made-${size}`);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // A second link, made and revoked: listed as Revoked, and its page says it no longer opens.
      await staff.getByRole('button', { name: 'Link for someone without an account' }).click();
      await dialog.getByRole('button', { name: 'Create Link' }).click();
      await expectToast(staff, 'Link Created', 'Copy it and send it to the client.');
      const revokedUrl = await dialog.getByLabel('The link (shown only now)').inputValue();
      const unnamed = dialog.locator('li', { hasText: 'No recipient' });
      await unnamed.getByRole('button', { name: /^Revoke link/ }).click();
      await expectToast(staff, 'Link Revoked', 'It no longer opens the organizer.');
      await unnamed.getByText('Revoked').waitFor();
      expect(await unnamed.getByRole('button', { name: /^Revoke link/ }).count()).toBe(0);
      await portal.screenshot(staff, `organizer-link-revoked-${size}`);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // 2. The holder opens it with no sign-in (storage and cookies cleared) on the portal's address; the revoked one does not open.
      const linkPath = new URL(url).pathname;
      const holder = await portal.browser.newPage(portal.baseUrl);
      await holder.setViewportSize(viewport);
      await holder.goto(`${portal.baseUrl}${new URL(revokedUrl).pathname}`);
      await holder.getByText(ORGANIZER_LINK_MESSAGES.linkGone).waitFor();
      await holder.goto(`${portal.baseUrl}${linkPath}`);
      expect(await holder.evaluate(() => localStorage.getItem('token'))).toBeNull();
      await holder.getByText(`Wren Tax ${suffix}`).waitFor();
      await holder.getByRole('heading', { name: 'Household — 2025' }).waitFor();
      // The address appears only once the move is answered yes.
      expect(await question(holder, 'Your new address').count()).toBe(0);
      await question(holder, 'Did you move this year?').getByText('Yes', { exact: true }).click();
      await question(holder, 'Your new address').getByRole('textbox').fill('12 Elm Street, Springfield');
      await holder.getByText('Saved', { exact: true }).waitFor();
      expect(await sideways(holder)).toBeLessThanOrEqual(0);
      await portal.screenshot(holder, `organizer-link-answering-${size}`);

      // 3. A reload keeps the answers (the server has them).
      await holder.reload();
      await question(holder, 'Your new address').getByRole('textbox').waitFor();
      expect(await question(holder, 'Your new address').getByRole('textbox').inputValue()).toBe('12 Elm Street, Springfield');
      const saved = (await call<OrganizerDetail>('GET', `/api/${TENANT}/organizers/${organizer.body.id}`, admin.token)).body;
      expect(saved).toMatchObject({ status: 'in_progress', answers: { moved: true, new_address: '12 Elm Street, Springfield' } });

      // 4. Submit: a thank-you and the answers, read only.
      await holder.getByRole('button', { name: 'Submit' }).click();
      await holder.getByText(/Thank you: your answers were sent to the firm\. Your answers are below/).waitFor();
      expect(await holder.getByRole('button', { name: 'Submit' }).count()).toBe(0);
      expect(await sideways(holder)).toBeLessThanOrEqual(0);
      await portal.screenshot(holder, `organizer-link-submitted-${size}`);

      // 5. Staff see it submitted.
      await staff.reload();
      await statusTag(staff, 'Submitted').waitFor();

      // 6. The used link no longer opens the organizer (410), and says why.
      await holder.reload();
      await holder.getByText(ORGANIZER_LINK_MESSAGES.organizerDone).waitFor();
      await holder.getByRole('heading', { name: 'This link no longer opens the organizer' }).waitFor();
      await portal.screenshot(holder, `organizer-link-used-${size}`);
      await holder.close();
      await staff.close();
    }, 240_000);
  }

  it('a made-up link says it is not found', async () => {
    const holder = await portal.browser.newPage(portal.baseUrl);
    await holder.goto(`${portal.baseUrl}/organizer/${TENANT}.${'x'.repeat(43)}`);
    await holder.getByRole('heading', { name: 'This link does not open an organizer' }).waitFor();
    await holder.getByText(ORGANIZER_LINK_MESSAGES.linkNotFound).waitFor();
    await holder.close();
  }, 60_000);
});
