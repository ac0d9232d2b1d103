// `npm run bench:lighthouse`: Lighthouse's performance figures (score, LCP, TBT, CLS) of a
// firm's sign-in page and its signed-in Dashboard, with Lighthouse's mobile and desktop
// settings, on Debian's Chromium. A measurement, never a timed test.
//
// Against a running portal: PORTAL_URL, LIGHTHOUSE_FIRM (its short name) and
// LIGHTHOUSE_USERNAME / LIGHTHOUSE_PASSWORD of one of its users. Without PORTAL_URL it starts
// the portal on the built frontends (`npm run build` first), with a firm, an Admin
// and a client. LIGHTHOUSE_RUNS (default 3) runs per page and form factor; the median counts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, setLocalStorage } from '@ledgerline/kit/testing/browser.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';

interface Target { url: string; firm: string; username: string; password: string; stop(): Promise<void> }
interface Figures { score: number; lcpMs: number; tbtMs: number; cls: number }

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const FORM_FACTORS = ['mobile', 'desktop'] as const;
/** A run whose trace Lighthouse could not record (it asks to run again, e.g. NO_NAVSTART on a busy machine) is repeated. */
const ATTEMPTS = 3;

const target = process.env.PORTAL_URL ? runningPortal() : await ownPortal();
const chrome = await launchChromium();
try {
  const session = await signIn(target);
  const pages = [
    { name: 'firm sign-in', path: `/${target.firm}/login`, signedIn: false },
    { name: 'signed-in dashboard', path: `/${target.firm}/dashboard`, signedIn: true },
  ].filter((page) => !process.env.LIGHTHOUSE_PAGE || page.name.includes(process.env.LIGHTHOUSE_PAGE));
  console.log(`Lighthouse on ${CHROMIUM_PATH}, median of ${RUNS} runs each (performance score 0-100; LCP, TBT in ms; CLS)`);
  for (const page of pages) {
    for (const formFactor of FORM_FACTORS.filter((f) => !process.env.LIGHTHOUSE_FORM_FACTOR || f === process.env.LIGHTHOUSE_FORM_FACTOR)) {
      const runs: Figures[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        await setStoredSignIn(chrome.port, target.url, page.signedIn ? session : null);
        runs.push(await measure(chrome.port, `${target.url}${page.path}`, formFactor));
      }
      const median = (pick: (f: Figures) => number) => runs.map(pick).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
      // Lighthouse slows the processor down in its own model: a busy machine reads as a slow phone, so the load is part of the figure.
      console.log(`${page.name.padEnd(20)} ${formFactor.padEnd(8)} performance ${median((f) => f.score)}  LCP ${median((f) => f.lcpMs)}  TBT ${median((f) => f.tbtMs)}  CLS ${median((f) => f.cls).toFixed(3)}`
        + `   (scores: ${runs.map((f) => f.score).join(', ')}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
    }
  }
} finally {
  await chrome.stop();
  await target.stop();
}

function runningPortal(): Target {
  const need = (name: string) => process.env[name] ?? (() => { throw new Error(`${name} is required with PORTAL_URL`); })();
  return { url: process.env.PORTAL_URL!.replace(/\/$/, ''), firm: need('LIGHTHOUSE_FIRM'), username: need('LIGHTHOUSE_USERNAME'), password: need('LIGHTHOUSE_PASSWORD'), stop: async () => {} };
}

/** The portal on its embedded default, with a firm whose Admin has a client. */
async function ownPortal(): Promise<Target> {
  const portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '100000', LOG_LEVEL: 'warn' });
  const call = apiClient(portal.gatewayUrl);
  const firm = 'harborlight';
  const created = await call('POST', '/api/companies', portal.adminToken, { name: 'Harbor Light Accounting', shortName: firm });
  if (created.status !== 201) throw new Error(`creating the firm answered ${created.status}`);
  await call('POST', `/api/${firm}/clients`, portal.adminToken, { name: 'Bayview Bakery', address: '4 Market Road', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-4411', email: 'bakery@example.com' });
  const user = await call('POST', `/api/${firm}/users`, portal.adminToken, { username: 'lighthouse-admin', password: 'password1', fullName: 'Lena Light', roleId: 1, clientIds: null });
  if (user.status !== 201) throw new Error(`creating the Admin answered ${user.status}`);
  return { url: portal.gatewayUrl, firm, username: 'lighthouse-admin', password: 'password1', stop: () => portal.stop() };
}

async function signIn(t: Target): Promise<Record<string, unknown>> {
  const r = await apiClient(t.url)<{ token: string; user: unknown; tenant?: unknown }>('POST', `/api/${t.firm}/auth/login`, null, { username: t.username, password: t.password });
  if (r.status !== 200) throw new Error(`signing in answered ${r.status}`);
  return { token: r.body.token, user: r.body.user, ...(r.body.tenant ? { currentTenant: r.body.tenant } : {}) };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** Debian's Chromium with a debugging port Lighthouse connects to (the handbook's container flags). */
async function launchChromium(): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), 'ledgerline-lighthouse-'));
  const child = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, '--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch { /* not listening yet */ }
    if (i > 100) throw new Error('Chromium did not open its debugging port');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    stop: async () => {
      child.kill();
      await new Promise((r) => child.once('exit', r));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Writes (or clears) the shell's stored sign-in on the portal's origin, which Lighthouse then keeps (disableStorageReset). */
async function setStoredSignIn(port: number, origin: string, values: Record<string, unknown> | null): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    // A static file of the gateway: the origin without starting the app.
    await page.goto(`${origin}/frontends.json`);
    await page.evaluate(() => localStorage.clear());
    // As the shell stores them: the token as it is, the user and firm as JSON.
    if (values) await setLocalStorage(page, values);
    // Lighthouse keeps storage, and with it the HTTP cache: emptied here, so each run is a first visit.
    await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects only: the browser was not launched by playwright, so it keeps running.
    await browser.close();
  }
}

async function measure(port: number, url: string, formFactor: (typeof FORM_FACTORS)[number]): Promise<Figures> {
  // Storage stays: the sign-in written above.
  // LIGHTHOUSE_THROTTLING=devtools slows the browser down for real (processor 4x, network) instead of
  // Lighthouse's model, which replays a full-speed trace: a real slow processor also slows React's
  // rendering slices, which the model counts as free.
  const throttlingMethod = process.env.LIGHTHOUSE_THROTTLING === 'devtools' ? 'devtools' : undefined;
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true, ...(throttlingMethod ? { throttlingMethod } : {}) };
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (!result.lhr.runtimeError) return figures(result.lhr);
    if (attempt === ATTEMPTS) throw new Error(`Lighthouse: ${result.lhr.runtimeError.message}`);
  }
}

function figures(lhr: Result): Figures {
  const value = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  // Figures of a page whose calls failed (a sign-in the app did not accept) measure an error page.
  const requests = (lhr.audits['network-requests']?.details as { items?: { url: string; statusCode: number }[] } | undefined)?.items ?? [];
  const failed = requests.filter((r) => new URL(r.url).pathname.startsWith('/api/') && r.statusCode >= 400);
  if (failed.length) throw new Error(`${lhr.finalDisplayedUrl}: API calls failed during the run: ${failed.map((r) => `${r.statusCode} ${new URL(r.url).pathname}`).join(', ')}`);
  if (process.env.LIGHTHOUSE_VERBOSE) {
    // What moved, for finding a layout shift's cause.
    const shifts = (lhr.audits['layout-shifts']?.details as { items?: { score: number; node?: { selector?: string; snippet?: string } }[] } | undefined)?.items ?? [];
    for (const shift of shifts) console.log(`    shift ${shift.score.toFixed(3)} ${shift.node?.selector ?? ''} ${shift.node?.snippet?.slice(0, 120) ?? ''}`);
    // Where the processor time went, for finding what blocks: the scripts that took most, and the largest contentful element.
    const scripts = (lhr.audits['bootup-time']?.details as { items?: { url: string; total: number; scripting: number; scriptParseCompile: number }[] } | undefined)?.items ?? [];
    for (const script of scripts.slice(0, 8)) console.log(`    script ${Math.round(script.total)} ms (run ${Math.round(script.scripting)}, parse ${Math.round(script.scriptParseCompile)}) ${script.url.replace(/^https?:\/\/[^/]+/, '')}`);
    const lcp = (lhr.audits['largest-contentful-paint-element']?.details as { items?: { items?: { node?: { snippet?: string } }[] }[] } | undefined)?.items?.[0]?.items?.[0]?.node?.snippet;
    if (lcp) console.log(`    largest contentful paint: ${lcp.slice(0, 120)}`);
    const longTasks = (lhr.audits['long-tasks']?.details as { items?: { url: string; duration: number; startTime: number }[] } | undefined)?.items ?? [];
    for (const task of longTasks.slice(0, Number(process.env.LIGHTHOUSE_LONG_TASKS ?? 10))) console.log(`    long task at ${Math.round(task.startTime)} ms: ${Math.round(task.duration)} ms ${task.url.replace(/^https?:\/\/[^/]+/, '')}`);
    const transferred = requests.reduce((sum, r) => sum + ((r as { transferSize?: number }).transferSize ?? 0), 0);
    console.log(`    ${requests.length} requests, ${Math.round(transferred / 1024)} KB; FCP ${Math.round(value('first-contentful-paint'))} ms, speed index ${Math.round(value('speed-index'))} ms`);
    // How fast Lighthouse found this machine's processor (its phone model slows that down 4x), and what it warned of.
    console.log(`    benchmark index ${lhr.environment.benchmarkIndex}; ${lhr.runWarnings.join(' | ') || 'no warnings'}`);
  }
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: Math.round(value('largest-contentful-paint')),
    tbtMs: Math.round(value('total-blocking-time')),
    cls: Math.round(value('cumulative-layout-shift') * 1000) / 1000,
  };
}
