import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
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
 * Builds each frontend app (folder under frontendsDir: 'shell', 'account', …) whose dist is
 * missing or older than its sources or the shared ui package, with the app's own `build`
 * script. Browser tests call it once in beforeAll; a fresh build costs ~10-30 s per app.
 */
export async function ensureFrontendsBuilt(frontendsDir: string, apps: readonly string[]): Promise<string[]> {
  const built: string[] = [];
  const sharedUi = path.join(frontendsDir, 'ui');
  for (const app of apps) {
    const appDir = path.join(frontendsDir, app);
    // Written last by every build: the shell's page, a remote's manifest.
    const marker = path.join(appDir, 'dist', app === 'shell' ? 'index.html' : 'mf-manifest.json');
    const builtAt = await stat(marker).then((s) => s.mtimeMs, () => 0);
    const changedAt = Math.max(await newestMtime(appDir), await newestMtime(sharedUi));
    if (builtAt > changedAt) continue;
    await runBuild(appDir);
    // webpack leaves files whose content did not change untouched; mark the build time.
    const now = new Date();
    await utimes(marker, now, now);
    built.push(app);
  }
  return built;
}

const SKIPPED_DIRS = new Set(['dist', 'node_modules', 'test']);

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? await newestMtime(full) : (await stat(full)).mtimeMs;
    newest = Math.max(newest, mtime);
  }
  return newest;
}

async function runBuild(appDir: string): Promise<void> {
  // Under `npm run`, npm_execpath is the npm that started us; reuse it with this Node.
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli ? [process.execPath, [npmCli, 'run', 'build']] : ['npm', ['run', 'build']];
  await promisify(execFile)(command, args, { cwd: appDir, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
}
