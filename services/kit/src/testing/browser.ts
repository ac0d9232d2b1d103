import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; browser tests drive the system browser instead of downloading one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Quiet, deterministic Chromium for containers: no sandbox (root), GPU or background traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface TestBrowser {
  context: BrowserContext;
  /**
   * A new page opened at baseUrl with that origin's localStorage, sessionStorage and cookies
   * cleared, so each test starts signed out; go to the page under test afterwards.
   */
  newPage(baseUrl: string): Promise<Page>;
  /** Closes Chromium and deletes its profile directory. */
  close(): Promise<void>;
}

/** Chromium with a fresh profile in a new temporary directory; one per test file. */
export async function launchBrowser(): Promise<TestBrowser> {
  const userDataDir = await mkdtemp(path.join(tmpdir(), 'ledgerline-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
      headless: true,
      viewport: { width: 1280, height: 800 },
    });
    return {
      context,
      newPage: async (baseUrl) => {
        await context.clearCookies();
        const page = await context.newPage();
        await page.goto(baseUrl);
        await page.evaluate(() => {
          localStorage.clear();
          sessionStorage.clear();
        });
        return page;
      },
      close: async () => {
        await context.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Writes localStorage entries on the page's current origin (objects are stored as JSON). */
export async function setLocalStorage(page: Page, entries: Readonly<Record<string, unknown>>): Promise<void> {
  await page.evaluate((values) => {
    for (const [key, value] of Object.entries(values)) {
      localStorage.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }, entries);
}

/**
 * Builds those of the frontend apps (folders under frontendsDir: 'shell', 'account', …) whose
 * build is missing or older than their inputs, in one webpack process, as `npm start` does
 * (frontends/ui/webpack/build-apps.mjs). Browser tests call it once in beforeAll.
 */
export async function ensureFrontendsBuilt(frontendsDir: string, apps: readonly string[]): Promise<void> {
  await promisify(execFile)(process.execPath, [path.join(frontendsDir, 'ui', 'webpack', 'build-apps.mjs'), ...apps], { maxBuffer: 16 * 1024 * 1024, timeout: 600_000 });
}
