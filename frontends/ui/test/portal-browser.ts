/**
 * Browser-test support for the remotes: the real portal (gateway + services, fresh data)
 * serving freshly built frontends, one Chromium, and the few page steps every walk repeats.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@jest/globals';
import type { Page } from 'playwright-core';
import { ensureFrontendsBuilt, launchBrowser, setLocalStorage, type TestBrowser } from '@ledgerline/kit/testing/browser.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';

const frontendsDir = path.resolve(import.meta.dirname, '../..');
export const SCREENSHOT_DIR = path.resolve(frontendsDir, '../test-results');

export interface PortalBrowser {
  baseUrl: string;
  /** A platform administrator's token, for API set-up. */
  adminToken: string;
  browser: TestBrowser;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds what changed first: the gateway only serves remotes whose build exists when it
 * starts. `env` configures the portal (e.g. the AI stand-in's address); `options.logger` is its
 * logger (a test reading the log mailer's lines, kit/testing/test-mailbox.ts).
 */
export async function startPortalBrowser(apps: readonly string[], env: Record<string, string> = {}, options: { logger?: Logger | undefined } = {}): Promise<PortalBrowser> {
  await ensureFrontendsBuilt(frontendsDir, apps);
  const portal = await startTestPortal(env, options);
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await portal.stop();
    throw error;
  });
  // A step that cannot succeed fails in seconds, not after playwright's 30 s default.
  browser.context.setDefaultTimeout(10_000);
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return {
    baseUrl: portal.gatewayUrl,
    adminToken: portal.adminToken,
    browser,
    screenshot: async (page, name) => {
      const file = path.join(SCREENSHOT_DIR, `${name}.png`);
      // Transitions finished: a dialog just opened is drawn as it stays, not halfway faded in.
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      return file;
    },
    close: async () => {
      await browser.close();
      await portal.stop();
    },
  };
}

/**
 * Waits for the toast with this title (and text). The newest matching one counts: a toast
 * replaced by another stays in the page while it fades out.
 */
export async function expectToast(page: Page, summary: string, detail?: string | RegExp, options: { timeout?: number } = {}): Promise<void> {
  let toast = page.locator('.p-toast-message').filter({ has: page.locator('.p-toast-summary', { hasText: summary }) });
  if (detail !== undefined) toast = toast.filter({ has: page.locator('.p-toast-detail', { hasText: detail }) });
  await toast.last().waitFor(options.timeout ? { timeout: options.timeout } : undefined);
  // A toast with an action (Undo) holds its text apart from the button.
  const text = toast.last().locator('.p-toast-detail .toast-action__text');
  const shown = (await text.count()) ? text : toast.last().locator('.p-toast-detail');
  if (typeof detail === 'string') await expect(shown.textContent()).resolves.toBe(detail);
}

/** Fills the username and password of a sign-in page and submits it. */
export async function submitLogin(page: Page, username: string, password: string, button = 'Sign In'): Promise<void> {
  // A firm's first-paint sign-in page starts the app at the visitor's first act (gateway/src/sign-in-page.ts).
  // Two moves: the mouse may already rest on one of the points, and a move there stirs nothing.
  await page.mouse.move(1, 1);
  await page.mouse.move(2, 2);
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** Opens the firm's own sign-in page and signs in there with username and password. */
export async function signInAtFirm(page: Page, baseUrl: string, tenant: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/${tenant}/login`);
  await submitLogin(page, username, password);
}

/** Signs out from the header and waits for a sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.locator('.app-header__logout').click();
  await page.waitForURL((url) => url.pathname.endsWith('/login'));
}

/** Labels and links of the side navigation. */
export function navLinks(page: Page): Promise<[string, string][]> {
  return page
    .locator('nav.side-nav .side-nav__link')
    .evaluateAll((links) => links.map((a) => [a.textContent?.trim() ?? '', a.getAttribute('href') ?? ''] as [string, string]));
}

/** A short suffix that keeps names unique when suites share a real database. */
/** How far the page scrolls sideways: 0 (or less) when it fits its viewport, as every screen must at 390 px. */
export const sideways = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Picks the option named `option` (or whose name holds it, unless `exact`) in the PrimeReact dropdown whose input has id `inputId`. */
export async function chooseInDropdown(page: Page, inputId: string, option: string, { exact = false } = {}): Promise<void> {
  await page.locator(`#${inputId}`).locator('xpath=ancestor::div[contains(@class,"p-dropdown")][1]').click();
  await page.getByRole('option', { name: option, exact }).click();
}

export const uniqueSuffix = (): string => Date.now().toString(36).slice(-5);

/** What a firm user's sign-in answers, as the shell stores it. */
export interface FirmLogin { token: string; user: Record<string, unknown>; tenant?: unknown }

/** Creates a firm user (as the platform administrator) and signs them in at the firm's login. */
export async function addFirmUser(portal: PortalBrowser, tenant: string, user: { username: string; fullName: string; roleId: number; clientIds: number[] | null; email?: string }): Promise<{ id: number; login: FirmLogin }> {
  const call = apiClient(portal.baseUrl);
  const created = await call<{ id: number }>('POST', `/api/${tenant}/users`, portal.adminToken, { ...user, password: 'password1' });
  expect(created.status).toBe(201);
  const login = await call<FirmLogin>('POST', `/api/${tenant}/auth/login`, null, { username: user.username, password: 'password1' });
  expect(login.status).toBe(200);
  return { id: created.body.id, login: login.body };
}

/**
 * Opens `path` signed in as `login`. Give each user an origin of their own (127.0.0.1 and
 * localhost), so their stored sign-ins stay apart in the one browser.
 */
export async function openAs(portal: PortalBrowser, origin: string, login: FirmLogin, pagePath: string): Promise<Page> {
  const page = await portal.browser.newPage(origin);
  await setLocalStorage(page, { token: login.token, user: login.user, ...(login.tenant ? { currentTenant: login.tenant } : {}) });
  await page.goto(`${origin}${pagePath}`);
  return page;
}

/**
 * Records the firm's /info answers the page receives (status and body), for a failure message:
 * the screens count "today" on the firm's clocks from that answer, and a test that finds the
 * browser's day instead should say what the page was told.
 */
export function recordFirmInfo(page: Page): { describe(): string } {
  const answers: string[] = [];
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.endsWith('/info')) return;
    response.text().then((body) => answers.push(`${response.status()} ${body}`), () => answers.push(`${response.status()} (no body)`));
  });
  return { describe: () => `the page's /info answers: ${answers.join(' | ') || 'none'}` };
}

/** Runs `step`; if it fails, the error says `context()` too. */
export async function explained<T>(step: Promise<T>, context: () => string): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${context()}`);
  }
}
