import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { apiClient, testClient } from '@ledgerline/server/portal-harness.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';
import { addFirmUser, chooseInDropdown, openAs, type PortalBrowser, SCREENSHOT_DIR, sideways, startPortalBrowser, uniqueSuffix } from '../../ui/test/portal-browser.ts';

/*
 * The field placement editor (issue 41) at 390 and 1440 px: an Admin opens the create dialog
 * for a client's PDF, places a signature box for signer 1 and drags it, adds a date box and
 * nudges it with the keyboard, sends; the API stores the boxes where they were dropped (within
 * 1 pt), the signer signs from the link, and the signed PDF has the signature inside the box.
 */

const BUS_WAIT_MS = 20_000;
const suffix = uniqueSuffix();
const mailbox = testMailbox();
/** pdfjs's chunk and its worker (webpackChunkName "pdfjs", and the worker's file name). */
const PDFJS_FILE = /\/(?:pdfjs|pdf\.worker\.min)\.[0-9a-f]{16}\.m?js$/;

describe('the signature field placement editor (Chromium)', () => {
  let portal: PortalBrowser;
  let call: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    portal = await startPortalBrowser(['shell', 'signatures'], { KEYCLOAK_URL: '', PUBLIC_BASE_URL: 'http://portal.invalid', SIGNING_LINK_ATTEMPTS_PER_MINUTE: '1000', ...mailbox.env }, { logger: mailbox.logger });
    call = apiClient(portal.baseUrl);
  }, 600_000);

  afterAll(async () => {
    await portal?.close();
  });

  /** Where a box shows on the rendered page, in the page's points (the page is not rotated). */
  async function shownPoints(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
    return page.locator('.placement-editor__page').evaluate((el, sel) => {
      const scale = Number((el as HTMLElement).dataset.scale);
      const p = el.getBoundingClientRect();
      const b = el.querySelector(sel)!.getBoundingClientRect();
      return { x: (b.left - p.left) / scale, y: (b.top - p.top) / scale, width: b.width / scale, height: b.height / scale };
    }, selector);
  }

  /**
   * Drags from one point to another through the given waypoints: with the mouse, or on the phone
   * with a finger (touch events through the DevTools protocol, which the page gets as pointer
   * events of type touch).
   */
  async function drag(page: Page, points: { x: number; y: number }[], finger: boolean): Promise<void> {
    const [first, ...rest] = points;
    if (!finger) {
      await page.mouse.move(first!.x, first!.y);
      await page.mouse.down();
      for (const p of rest) await page.mouse.move(p.x, p.y, { steps: 4 });
      await page.mouse.up();
      return;
    }
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [first!] });
    for (const p of rest) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  async function signFromLink(email: string, name: string, width: number): Promise<void> {
    const mail = await mailbox.waitForMail(email, 1, BUS_WAIT_MS);
    const path = /portal\.invalid(\/sign\/[A-Za-z0-9_.-]+)/.exec(mail.Text)![1]!;
    const page = await portal.browser.newPage(portal.baseUrl);
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`${portal.baseUrl}${path}`);
    await page.getByText(`Signing as ${name}`).waitFor();
    await page.getByRole('button', { name: 'I agree' }).click();
    const popup = page.waitForEvent('popup');
    await page.getByText('Open the documents').click();
    await (await popup).close();
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    const code = /Your signing code: (\d{6})/.exec((await mailbox.waitForMail(email, 2, BUS_WAIT_MS)).Subject)![1]!;
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('textbox', { name: 'Your signature' }).fill(name);
    await page.getByRole('checkbox', { name: /I agree that this is my signature/ }).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await page.getByText('Thank you: you have signed.').waitFor();
    await page.close();
  }

  it.each([390, 1440])('places, drags and nudges fields that the server stores and draws where they were dropped, at %i px', async (width) => {
    const tenant = `placing${suffix}${width}`;
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Miller Tax ${width}`, shortName: tenant })).status).toBe(201);
    const client = (await call<Client>('POST', `/api/${tenant}/clients`, portal.adminToken, testClient('Sam Household'))).body;
    expect((await call<ReportType>('POST', `/api/${tenant}/report-types`, portal.adminToken, { name: 'Engagement letter' })).status).toBe(201);
    const admin = (await addFirmUser(portal, tenant, { username: `alex${suffix}${width}`, fullName: 'Alex Admin', roleId: 1, clientIds: null })).login;
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText('Engagement letter: Sam Household', { x: 50, y: 740, size: 14, font });
    const upload = new FormData();
    upload.set('fileType', 'report');
    upload.set('clientId', String(client.id));
    upload.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), 'engagement-letter.pdf');
    expect((await fetch(`${portal.baseUrl}/api/${tenant}/files`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}` }, body: upload })).status).toBe(201);

    const page = await openAs(portal, portal.baseUrl, admin, `/${tenant}/signatures`);
    await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
    const pdfjsRequests: string[] = [];
    page.on('request', (r) => { if (PDFJS_FILE.test(new URL(r.url()).pathname)) pdfjsRequests.push(r.url()); });
    await page.getByRole('button', { name: 'New signature request' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Signature Request' });
    await chooseInDropdown(page, 'signature-client', 'Sam Household', { exact: true });
    await chooseInDropdown(page, 'signature-report-type', 'Engagement letter', { exact: true });
    await dialog.locator('#signature-title').fill('Engagement letter 2027');
    await chooseInDropdown(page, 'signature-document', 'engagement-letter.pdf', { exact: true });
    await dialog.locator('#signer-name-0').fill('Sam Signer');
    await dialog.locator('#signer-email-0').fill(`sam.${tenant}@example.com`);
    // The Signatures page and the dialog have not loaded pdfjs: only the editor does.
    expect(pdfjsRequests).toEqual([]);
    await dialog.getByText('Place fields on the pages').click();
    await dialog.getByText('Page 1 of 1').waitFor();
    expect(pdfjsRequests.some((u) => u.includes('pdf.worker'))).toBe(true);
    // The page is drawn: the letter's heading darkens some of the canvas's pixels.
    await page.waitForFunction(() => {
      const c = document.querySelector<HTMLCanvasElement>('.placement-editor__page canvas');
      const pixels = c && c.width > 0 ? c.getContext('2d')!.getImageData(0, 0, c.width, Math.ceil(c.height / 5)).data : null;
      return !!pixels && pixels.some((v, i) => i % 4 === 0 && v < 128);
    });

    // A signature box for signer 1 (the palette's first type and signer), dragged up and to the left.
    expect(await dialog.locator('#placement-signer').locator('xpath=ancestor::div[contains(@class,"p-dropdown")][1]').textContent()).toContain('Sam Signer');
    await dialog.getByRole('button', { name: 'Add field' }).click();
    const signatureBox = dialog.locator('.placement-box--signature');
    await signatureBox.getByText('Sam Signer · Signature').waitFor();
    const pageWidth = (await dialog.locator('.placement-editor__page').boundingBox())!.width;
    await signatureBox.scrollIntoViewIfNeeded();
    const from = (await signatureBox.boundingBox())!;
    const [sx, sy] = [from.x + from.width / 2, from.y + from.height / 2];
    // On the phone with a finger: the box moves, the dialog does not scroll.
    const phone = width < 500;
    await page.evaluate(() => { (window as unknown as { pointerTypes: string[] }).pointerTypes = []; document.addEventListener('pointerdown', (e) => (window as unknown as { pointerTypes: string[] }).pointerTypes.push(e.pointerType), true); });
    await drag(page, [{ x: sx, y: sy }, { x: sx - pageWidth * 0.1, y: sy - pageWidth * 0.12 }, { x: sx - pageWidth * 0.2, y: sy - pageWidth * 0.25 }], phone);
    expect(await page.evaluate(() => (window as unknown as { pointerTypes: string[] }).pointerTypes)).toEqual([phone ? 'touch' : 'mouse']);
    const moved = await shownPoints(page, '.placement-box--signature');
    // It started in the middle of the Letter page (196, 376); 20 % and 25 % of the page's width is 122 and 153 pt.
    expect(Math.abs(moved.x - (196 - 122.4))).toBeLessThan(2);
    expect(Math.abs(moved.y - (376 - 153))).toBeLessThan(2);
    // Resized from its corner handle: 10 % of the page's width wider (61 pt), 5 % taller (31 pt).
    const handle = (await signatureBox.locator('.placement-box__handle').boundingBox())!;
    const [hx, hy] = [handle.x + handle.width / 2, handle.y + handle.height / 2];
    await drag(page, [{ x: hx, y: hy }, { x: hx + pageWidth * 0.1, y: hy + pageWidth * 0.05 }], phone);
    const dropped = await shownPoints(page, '.placement-box--signature');
    expect(Math.abs(dropped.x - moved.x)).toBeLessThan(0.01);
    expect(Math.abs(dropped.width - (220 + 61.2))).toBeLessThan(2);
    expect(Math.abs(dropped.height - (40 + 30.6))).toBeLessThan(2);

    // A date box for signer 1, nudged up 30 pt with Shift+ArrowUp.
    await chooseInDropdown(page, 'placement-type', 'Date', { exact: true });
    await dialog.getByRole('button', { name: 'Add field' }).click();
    const dateBox = dialog.locator('.placement-box--date');
    await dateBox.focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Shift+ArrowUp');
    await dialog.getByText(/Date for Sam Signer, page 1, x 256 y 356 pt, 100 × 20 pt/).first().waitFor();
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `signature-placement-editor-${width}.png`), fullPage: true });

    await dialog.getByRole('button', { name: 'Create Signature Request' }).click();
    await page.getByText('the signers have been e-mailed').first().waitFor();
    await page.close();

    const [summary] = (await call<SignatureRequest[]>('GET', `/api/${tenant}/signature-requests`, admin.token)).body;
    const request = (await call<SignatureRequest>('GET', `/api/${tenant}/signature-requests/${summary!.id}`, admin.token)).body;
    expect(request.status).toBe('sent');
    expect(request.fields.map((f) => [f.type, f.signerIndex, f.page, f.required])).toEqual([['signature', 0, 1, true], ['date', 0, 1, true]]);
    const [signature, date] = request.fields;
    for (const key of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(signature![key] - dropped[key])).toBeLessThanOrEqual(1);
    expect(date).toMatchObject({ x: 256, y: 356, width: 100, height: 20 });

    await signFromLink(`sam.${tenant}@example.com`, 'Sam Signer', width);
    await eventually(async () => {
      expect((await call<SignatureRequest>('GET', `/api/${tenant}/signature-requests/${request.id}`, admin.token)).body.status).toBe('completed');
    }, BUS_WAIT_MS, 300);
    const signed = await fetch(`${portal.baseUrl}/api/${tenant}/signature-requests/${request.id}/document`, { headers: { authorization: `Bearer ${admin.token}` } });
    expect(signed.status).toBe(200);
    const file = join(SCREENSHOT_DIR, `placement-editor-${width}.pdf`);
    writeFileSync(file, Buffer.from(await signed.arrayBuffer()));
    expect(spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout).toContain('Signature is Valid');
    // pdftotext crops in points from the page's top-left corner, as the fields count.
    const textIn = (box: { x: number; y: number; width: number; height: number }) => spawnSync('pdftotext', [
      '-f', '1', '-l', '1', '-x', String(Math.floor(box.x)), '-y', String(Math.floor(box.y)), '-W', String(Math.ceil(box.width)), '-H', String(Math.ceil(box.height)), file, '-',
    ], { encoding: 'utf8' }).stdout;
    expect(textIn(signature!)).toContain('Sam Signer');
    expect(textIn(date!)).toContain(String(new Date().getUTCFullYear()));
    // Not where the box was before it was dragged.
    expect(textIn({ x: 196, y: 376, width: 220, height: 40 })).not.toContain('Sam Signer');
  });
});
