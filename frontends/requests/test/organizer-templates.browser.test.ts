import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import { apiClient } from '@ledgerline/server/portal-harness.ts';
import type { OrganizerTemplate } from '@ledgerline/contracts/organizers.contracts.ts';
import { addFirmUser, expectToast, type FirmLogin, openAs, type PortalBrowser, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * The organizer template builder (issue 42) at 390 and 1440 px: the shipped 1040 template is
 * read only and copied; the copy gets a question shown only after a yes to 1099-B that asks
 * for a document when answered yes; the preview draws it from the same definition; a missing
 * name is named at its field; the saved copy is listed and holds the rules.
 */

const suffix = uniqueSuffix();
const TENANT = `builder${suffix}`;
const option = (page: Page, label: string) => page.locator('.p-dropdown-panel .p-dropdown-item', { hasText: label }).first();
const dropdown = (page: Page, inputId: string) => page.locator('.p-dropdown', { has: page.locator(`#${inputId}`) });

describe('the organizer template builder in Chromium', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;
  let admin: FirmLogin;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'requests']);
    call = apiClient(portal.baseUrl);
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Builder Tax ${suffix}`, shortName: TENANT, timeZone: 'America/Chicago' })).status).toBe(201);
    admin = (await addFirmUser(portal, TENANT, { username: `bo${suffix}`, fullName: 'Bo Admin', roleId: 1, clientIds: null })).login;
  }, 300_000);

  afterAll(async () => {
    await portal?.close();
  });

  for (const [size, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1440, height: 900 }]] as const) {
    it(`${size}: copies the shipped 1040 template, adds a conditional question with a request-item rule, previews and saves it`, async () => {
      const name = `Our 1040 organizer (${size})`;
      const page = await openAs(portal, portal.baseUrl, admin, `/${TENANT}/requests/organizer-templates`);
      await page.setViewportSize(viewport);
      const shipped = page.locator('tr', { hasText: 'US individual income tax organizer (Form 1040)' }).filter({ hasText: 'Shipped' });
      await shipped.waitFor();
      // Shipped: no Edit or Delete, only Copy.
      expect(await shipped.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
      await shipped.getByRole('button', { name: /^Copy / }).click();
      await page.getByRole('heading', { name: 'New Organizer Template' }).waitFor();
      expect(await page.locator('#organizer-template-name').inputValue()).toBe('Copy of US individual income tax organizer (Form 1040)');

      // A missing name is named at its field, and nothing is saved.
      await page.locator('#organizer-template-name').fill('');
      await page.getByRole('button', { name: 'Save template' }).click();
      await page.locator('.form-field', { has: page.locator('#organizer-template-name') }).getByRole('alert').getByText('name is required').waitFor();
      await page.locator('#organizer-template-name').fill(name);

      // Income: a new question, shown only after a yes to 1099-B, that asks for a document when answered yes.
      // It is added after the shipped section's own questions.
      const shippedIncome = (await call<OrganizerTemplate[]>('GET', `/api/${TENANT}/organizer-templates`, admin.token)).body
        .find((t) => t.builtIn === 'us-1040')!.sections[1]!;
      expect(shippedIncome.id).toBe('income');
      const q = `sections-1-questions-${shippedIncome.questions.length}`;
      const income = page.getByRole('region', { name: /^Section 2: Income/ });
      await income.getByRole('button', { name: 'Add question' }).click();
      await page.locator(`#${q}-title`).fill('Did you make estimated tax payments?');
      await dropdown(page, `${q}-type`).click();
      await option(page, 'Yes / no').click();
      await page.locator(`#${q}-id`).fill('estimated_payment_records');
      await dropdown(page, `${q}-show-when`).click();
      await option(page, 'Did you sell stocks, bonds or other investments (Form 1099-B)?').click();
      await page.locator(`label[for="${q}-rule"]`).click();
      await page.locator(`#${q}-rule-title`).fill('Estimated tax payment records');

      // The preview draws the copy: the new question shows once 1099-B is answered yes.
      const preview = page.getByRole('complementary', { name: 'Preview' });
      await preview.getByText('Filing status you expect').waitFor();
      await preview.getByRole('button', { name: 'Next' }).click();
      expect(await preview.getByText('Did you make estimated tax payments?').count()).toBe(0);
      await preview.locator('.sd-question', { hasText: '1099-B' }).getByText('Yes', { exact: true }).click();
      await preview.getByText('Did you make estimated tax payments?').waitFor();
      // An edit draws the preview again, on the same page with the same answers: the renamed
      // question shows at once, since 1099-B is still answered yes.
      await page.locator(`#${q}-title`).fill('Did you make estimated tax payments? (all quarters)');
      await preview.getByText('Did you make estimated tax payments? (all quarters)').waitFor();
      await page.locator(`#${q}-title`).fill('Did you make estimated tax payments?');
      await preview.getByText('Did you make estimated tax payments?', { exact: true }).waitFor();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await portal.screenshot(page, `organizer-builder-${size}`);

      await page.getByRole('button', { name: 'Save template' }).click();
      await expectToast(page, 'Template Saved', name);
      await page.locator('tr', { hasText: name }).waitFor();
      const saved = (await call<OrganizerTemplate[]>('GET', `/api/${TENANT}/organizer-templates`, admin.token)).body.find((t) => t.name === name)!;
      expect(saved.builtIn).toBeNull();
      expect(saved.sections[1]!.questions[shippedIncome.questions.length]).toMatchObject({
        id: 'estimated_payment_records', type: 'yes_no', title: 'Did you make estimated tax payments?',
        showIf: { questionId: 'received_1099_b', equals: true }, requestItem: { when: true, title: 'Estimated tax payment records' },
      });
      // The firm's own copy can be edited and deleted.
      const own = page.locator('tr', { hasText: name });
      await own.getByRole('button', { name: `Edit ${name}` }).waitFor();
      await own.getByRole('button', { name: `Delete ${name}` }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await expectToast(page, 'Template Deleted', name);
      await page.close();
    }, 180_000);
  }

  it('another firm does not see this firm\'s templates', async () => {
    const other = `elsewhere${suffix}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Elsewhere ${suffix}`, shortName: other })).status).toBe(201);
    const outsider = (await addFirmUser(portal, other, { username: `el${suffix}`, fullName: 'El Admin', roleId: 1, clientIds: null })).login;
    const ours = await call<OrganizerTemplate>('POST', `/api/${TENANT}/organizer-templates`, admin.token, {
      name: 'Only ours', sections: [{ id: 'about', title: 'About you', questions: [{ id: 'name', type: 'text', title: 'Your name' }] }],
    });
    expect(ours.status).toBe(201);
    const page = await openAs(portal, portal.baseUrl, outsider, `/${other}/requests/organizer-templates`);
    await page.locator('tr', { hasText: 'Shipped' }).first().waitFor();
    expect(await page.getByText('Only ours').count()).toBe(0);
    await page.close();
  }, 120_000);
});
