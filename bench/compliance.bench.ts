// `npm run bench:compliance`: compliance generation and tracker queries at volume in one firm.
// Creates BENCH_SCHEDULES monthly schedules (default 2,000: BENCH_CLIENTS clients × report
// types) through the API, then
//   - times generating next year for every schedule: 24,000 items and their 48,000 reminder
//     jobs, in one call (POST compliance-schedules/generate/{year}), then the year after
//     schedule by schedule (POST …/{id}/generate/{year}, 8 in flight) as the Schedules tab's
//     buttons would (target < 5 s on PostgreSQL);
//   - generates more years until the firm holds BENCH_ITEMS items (default 200,000), this
//     year included (its past months are overdue);
//   - measures through the gateway, paced at BENCH_RATE requests per second (default 20) for
//     BENCH_DURATION_S seconds each, as the firm's Admin (target p95 < 50 ms): the range and
//     overdue lists of one client in full, and the firm-wide calls the screen makes (the
//     calendar's month at three items a day with day counts, the overdue panel's three items
//     and count, tracker table pages); then, without a target, the firm-wide lists unpaged
//     (thousands of items per answer).
// On PostgreSQL (POSTGRES_URL required; a scratch database, dropped afterwards). The product
// runs as deployed: every service in one child process and the gateway in another
// (BENCH_MODE=split, default; BENCH_MODE=all for one process), so this load generator does not
// share their event loops; the gateway's /healthz (no database) is the baseline of the run.
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { startBenchPortal } from './lib/bench-portal.ts';
import { BenchRun, inParallel, jsonCaller } from './lib/bench-client.ts';

const postgresUrl = process.env.POSTGRES_URL;
if (!postgresUrl) {
  console.error('bench:compliance needs POSTGRES_URL (the targets are set for PostgreSQL).');
  process.exit(2);
}

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 2000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 200_000);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const REPORT_TYPES = Math.ceil(SCHEDULES / CLIENTS);
const THIS_YEAR = new Date().getUTCFullYear();
const MODE = process.env.BENCH_MODE === 'all' ? 'all' : 'split';
const FIRST_PORT = Number(process.env.BENCH_FIRST_PORT ?? 18_460);
const tenant = `benchcompl${Date.now().toString(36)}`;

const scratch = await createScratchDatabase(postgresUrl);
const portal = await startBenchPortal({ mode: MODE, firstPort: FIRST_PORT, dataPrefix: 'bench-compliance-', extraEnv: { POSTGRES_URL: scratch.url } });
const base = portal.url;
const call = jsonCaller(base);
const bench = new BenchRun(base);
const seconds = (since: number) => (Date.now() - since) / 1000;

try {
  const platform = (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token;
  await call('POST', '/api/companies', { name: 'Bench Compliance', shortName: tenant }, platform);
  // Services re-read the firm list at most every second: a firm made this instant may be missed.
  await new Promise((r) => setTimeout(r, 1500));
  await call('POST', `/api/${tenant}/users`, { username: 'bench-admin-user', password: 'password1', fullName: 'Bench Admin', roleId: 1, clientIds: null }, platform);
  const { token } = await call<{ token: string }>('POST', `/api/${tenant}/auth/login`, { username: 'bench-admin-user', password: 'password1' });
  const clientIds: number[] = [];
  const typeIds: number[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    clientIds.push((await call<{ id: number }>('POST', `/api/${tenant}/clients`, {
      name: `Bench Client ${i}`, address: '1 Main Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: `c${i}@example.com`,
    }, platform)).id);
  }
  for (let i = 0; i < REPORT_TYPES; i++) typeIds.push((await call<{ id: number }>('POST', `/api/${tenant}/report-types`, { name: `Bench Return ${i}` }, platform)).id);

  let started = Date.now();
  const scheduleIds: number[] = [];
  await inParallel(SCHEDULES, 8, async (i) => {
    scheduleIds.push((await call<{ id: number }>('POST', `/api/${tenant}/compliance-schedules`, {
      clientId: clientIds[i % CLIENTS], reportTypeId: typeIds[Math.floor(i / CLIENTS)], frequency: 'monthly', dueDayOfMonth: 1 + (i % 28),
    }, token)).id);
  });
  console.log(`created ${SCHEDULES} schedules in ${seconds(started).toFixed(1)} s`);

  const perSchedule = async (year: number) => {
    let created = 0;
    await inParallel(scheduleIds.length, 8, async (i) => {
      const r = await call<{ created: number }>('POST', `/api/${tenant}/compliance-schedules/${scheduleIds[i]}/generate/${year}`, undefined, token);
      created += r.created;
    });
    return created;
  };
  const wholeFirm = async (year: number) => (await call<{ created: number }>('POST', `/api/${tenant}/compliance-schedules/generate/${year}`, undefined, token)).created;
  started = Date.now();
  let total = await wholeFirm(THIS_YEAR + 1);
  const generationSeconds = seconds(started);
  console.log(`generated ${THIS_YEAR + 1} for ${SCHEDULES} schedules in one call: ${total} items in ${generationSeconds.toFixed(2)} s`);
  started = Date.now();
  const oneByOne = await perSchedule(THIS_YEAR + 2);
  const oneByOneSeconds = seconds(started);
  total += oneByOne;
  console.log(`generated ${THIS_YEAR + 2} schedule by schedule (${SCHEDULES} calls, 8 in flight): ${oneByOne} items in ${oneByOneSeconds.toFixed(2)} s`);

  started = Date.now();
  total += await wholeFirm(THIS_YEAR);
  for (let year = THIS_YEAR + 3; total < ITEMS; year++) total += await wholeFirm(year);
  console.log(`seeded to ${total} items in ${seconds(started).toFixed(1)} s`);

  bench.record(`generate a year for ${SCHEDULES} schedules (one call)`, generationSeconds, 5, 's');
  const paced = (label: string, paths: string[], target: number | null, durationS = DURATION_S) =>
    bench.paced(label, token, paths, target, { rate: RATE, durationS });
  const month = String(new Date().getUTCMonth() + 1).padStart(2, '0');
  const lastDay = new Date(Date.UTC(THIS_YEAR, Number(month), 0)).getUTCDate();
  const range = `startDate=${THIS_YEAR}-${month}-01T00:00:00.000Z&endDate=${THIS_YEAR}-${month}-${lastDay}T23:59:59.999Z`;
  const perClient = (path: string) => clientIds.slice(0, 10).map((c) => `${path}${path.includes('?') ? '&' : '?'}clientId=${c}`);
  const tracker = `/api/${tenant}/compliance-tracker`;
  // What the screen asks: the calendar three items a day with each day's counts, the overdue
  // panel and card three items and the count, the tracker table a page of 25.
  const calendar = `${tracker}?${range}&perDay=3`;
  const overduePanel = `${tracker}/overdue?limit=3`;
  await paced('warm-up', [...perClient(`${tracker}?${range}`), ...perClient(`${tracker}/overdue`), calendar, overduePanel], null, 3);
  await paced('baseline /healthz', ['/healthz'], 50);
  await paced('tracker range, a month of one client (every item)', perClient(`${tracker}?${range}`), 50);
  await paced('overdue, one client (every item)', perClient(`${tracker}/overdue`), 50);
  await paced(`calendar, a month of the firm (${SCHEDULES} items, 3 a day + day counts)`, [calendar], 50);
  await paced('overdue panel and count, the firm (3 items + X-Total-Count)', [overduePanel], 50);
  await paced('tracker table, the firm, first page (25 + X-Total-Count)', [`${tracker}?limit=25`], 50);
  await paced('tracker table, the firm, page 201 (offset 5,000)', [`${tracker}?limit=25&offset=5000`], 50);
  // The unpaged forms, for comparison: thousands of items per answer.
  await paced(`whole list: a month of the firm (${SCHEDULES} items, ~0.9 MB)`, [`${tracker}?${range}`], null);
  await paced('whole list: overdue, the firm (first 5,000, ~2 MB)', [`${tracker}/overdue`], null);

  bench.report(`PostgreSQL (${MODE}), ${SCHEDULES} schedules, ${total} items`);
} finally {
  await portal.stop();
  await scratch.drop();
}
