// `npm run bench:first-load`: what a firm's login page costs a first-time visitor.
// Starts the real portal on the built frontends, creates a firm, then opens
// /{firm}/login in a cold Chromium context under CDP network throttling (10 Mbit/s and
// Chrome's "Fast 3G" preset) and prints the JavaScript transferred (bytes on the wire,
// after compression), every request's path, which remotes were fetched, and the time
// until the app's sign-in form is interactive for a visitor who moves the mouse as soon as
// the page paints (the app starts at the first act). A measurement, never a timed test.
// Build first: `npm run build`.
import { chromium } from 'playwright-core';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@ledgerline/kit/testing/browser.ts';

interface Profile {
  name: string;
  latencyMs: number;
  downloadBitsPerSecond: number;
  uploadBitsPerSecond: number;
}

/** Chrome DevTools' presets; "10 Mbit/s" is a plain office or home line. */
const PROFILES: readonly Profile[] = [
  { name: '10 Mbit/s', latencyMs: 40, downloadBitsPerSecond: 10_000_000, uploadBitsPerSecond: 5_000_000 },
  { name: 'Fast 3G', latencyMs: 562.5, downloadBitsPerSecond: 1_440_000, uploadBitsPerSecond: 675_000 },
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FIRM = 'harborpine';

const portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '100000' });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS], headless: true });
try {
  const created = await apiClient(portal.gatewayUrl)('POST', '/api/companies', portal.adminToken, { name: 'Harbor & Pine', shortName: FIRM });
  if (created.status !== 201) throw new Error(`creating the firm answered ${created.status}`);
  for (const profile of PROFILES) {
    const results = [];
    for (let run = 0; run < RUNS; run += 1) results.push(await measure(profile));
    const times = results.map((r) => r.interactiveMs).sort((a, b) => a - b);
    const last = results.at(-1)!;
    console.log(`\n${profile.name}: login form interactive after ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s (median of ${RUNS}; ${times.map((t) => (t / 1000).toFixed(2)).join(', ')})`);
    console.log(`  JavaScript transferred: ${(last.jsBytes / 1024).toFixed(1)} KB in ${last.jsFiles} files; everything: ${(last.totalBytes / 1024).toFixed(1)} KB`);
    console.log(`  remotes fetched: ${last.remotes.join(', ') || 'none'}`);
    if (process.env.BENCH_VERBOSE) for (const line of last.requests) console.log(`    ${line}`);
  }
} finally {
  await browser.close();
  await portal.stop();
}

async function measure(profile: Profile) {
  // A new context is a new, empty HTTP cache.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.downloadBitsPerSecond / 8,
    uploadThroughput: profile.uploadBitsPerSecond / 8,
  });
  const kinds = new Map<string, { type: string; path: string }>();
  const finished: { type: string; path: string; bytes: number }[] = [];
  cdp.on('Network.responseReceived', (event) => kinds.set(event.requestId, { type: event.type, path: new URL(event.response.url).pathname }));
  cdp.on('Network.loadingFinished', (event) => {
    const kind = kinds.get(event.requestId);
    if (kind) finished.push({ ...kind, bytes: event.encodedDataLength });
  });

  const started = Date.now();
  await page.goto(`${portal.gatewayUrl}/${FIRM}/login`, { waitUntil: 'commit' });
  // A visitor who acts at once: the first-paint page starts the app at the first act (gateway/src/sign-in-page.ts).
  await page.locator('#first-paint-form').waitFor({ timeout: 120_000 });
  await page.mouse.move(40, 40);
  await page.locator('#login-username:enabled').waitFor({ timeout: 120_000 });
  await page.locator('button[type=submit]:enabled').waitFor({ timeout: 120_000 });
  const interactiveMs = Date.now() - started;
  await context.close();

  const scripts = finished.filter((f) => f.type === 'Script');
  const remotes = [...new Set(finished.map((f) => /^\/remotes\/([^/]+)\//.exec(f.path)?.[1]).filter((name): name is string => Boolean(name)))];
  return {
    interactiveMs,
    jsBytes: scripts.reduce((sum, f) => sum + f.bytes, 0),
    jsFiles: scripts.length,
    totalBytes: finished.reduce((sum, f) => sum + f.bytes, 0),
    remotes,
    requests: finished.map((f) => `${f.type.padEnd(10)} ${(f.bytes / 1024).toFixed(1).padStart(8)} KB  ${f.path}`),
  };
}
