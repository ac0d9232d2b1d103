// `npm run bench:requests`: document requests at volume in one firm on PostgreSQL
// (POSTGRES_URL required; a scratch database, dropped afterwards). The product runs as
// deployed (BENCH_MODE=split: services in one child process, the gateway in another).
// Creates the firm, BENCH_CLIENTS clients (default 20) each with a Client user, an Admin and
// a CPA through the API, seeds BENCH_REQUESTS open requests (default 2,000) with
// BENCH_ITEMS_PER_REQUEST items each (default 10: 20,000 items) with SQL, then:
//   - GET /api/{tenant}/document-requests (first page, by client, overdue) as the Admin and as
//     a CPA with five clients, paced at BENCH_RATE requests a second (default 20) for
//     BENCH_DURATION_S seconds (target p95 < 50 ms), beside the gateway's /healthz;
//   - a reminder sweep: every request's reminder made due at once, timed from that instant
//     until the scheduler has sent them all (target < 5 s). The figure includes the wait for
//     the scheduler's next pass: it wakes every BENCH_SCHEDULER_POLL_MS (default 1000; every
//     service polls at that pace, so a much shorter one loads the process the list is measured in).
import { openPostgresDatabase } from '@ledgerline/kit/db/postgres-database.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { startBenchPortal } from './lib/bench-portal.ts';
import { BenchRun, jsonCaller } from './lib/bench-client.ts';
import { benchFirm } from './lib/bench-firm.ts';

const postgresUrl = process.env.POSTGRES_URL;
if (!postgresUrl) {
  console.error('bench:requests needs POSTGRES_URL (the targets are set for PostgreSQL).');
  process.exit(2);
}
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const ITEMS = Number(process.env.BENCH_ITEMS_PER_REQUEST ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const MODE = process.env.BENCH_MODE === 'all' ? 'all' : 'split';
const FIRST_PORT = Number(process.env.BENCH_FIRST_PORT ?? 18_240);
const SWEEP_TARGET_MS = 5000;
const SCHEDULER_POLL_MS = process.env.BENCH_SCHEDULER_POLL_MS ?? '1000';
const tenant = `benchreq${Date.now().toString(36)}`;

const scratch = await createScratchDatabase(postgresUrl);
const portal = await startBenchPortal({ mode: MODE, firstPort: FIRST_PORT, dataPrefix: 'bench-requests-', extraEnv: { POSTGRES_URL: scratch.url, SCHEDULER_POLL_MS } });
const db = await openPostgresDatabase({ url: scratch.url });
const base = portal.url;
const call = jsonCaller(base);
const bench = new BenchRun(base);
try {
  const { schemaName, clientIds, user } = await benchFirm(call, { name: 'Bench Requests', shortName: tenant }, CLIENTS);
  const schema = db.forSchema(schemaName);
  const admin = await user('bench-admin-user', 1, null);
  const cpa = await user('bench-cpa', 3, clientIds.slice(0, 5));
  for (const [i, id] of clientIds.entries()) await user(`bench-client-${i}`, 4, [id]);
  // The service learns users and clients from events: a request through the API proves it has.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await fetch(`${base}/api/${tenant}/document-requests`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ clientId: clientIds.at(-1), title: 'warm-up', dueDate: '2030-01-01', items: [{ title: 'x' }], assignedToId: cpa.id }),
    });
    const known = await schema.query(`SELECT 1 FROM requests_user_access WHERE lower(role) = 'client' HAVING count(*) >= $1`, [CLIENTS]);
    if (r.status === 201 && known.rows.length) break;
    if (Date.now() > deadline) throw new Error('the requests service did not learn the firm in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  let started = Date.now();
  // Request i: client i mod CLIENTS, due from 30 days ago to 90 ahead, ITEMS items of which
  // the first few are in; progress columns set as the service keeps them.
  await schema.query(
    `INSERT INTO document_requests (client_id, client_name, title, due_date, reminder_every_days, assigned_to_id, assigned_to_name, created_by_id)
     SELECT ($1::int[])[i % $2 + 1], 'Bench Client ' || (i % $2), 'Request ' || i, current_date + ((i % 120) - 30), 3, $3, 'bench-admin-user', $3
     FROM generate_series(0, $4 - 1) AS i`, [clientIds, CLIENTS, admin.id, REQUESTS]);
  await schema.query(
    `INSERT INTO document_request_items (request_id, position, title, required, status)
     SELECT r.id, p, 'Item ' || p, p < $1 - 2, CASE WHEN p < (r.id % 4) THEN 'accepted' ELSE 'requested' END
     FROM document_requests r, generate_series(0, $1 - 1) AS p WHERE r.title <> 'warm-up'`, [ITEMS]);
  await schema.query(
    `UPDATE document_requests r SET required_count = c.required, done_count = c.done
     FROM (SELECT request_id, count(*) FILTER (WHERE required)::int AS required, count(*) FILTER (WHERE required AND status IN ('accepted', 'not_applicable'))::int AS done
           FROM document_request_items GROUP BY request_id) c WHERE c.request_id = r.id`);
  await schema.query('ANALYZE document_requests; ANALYZE document_request_items');
  console.log(`seeded ${REQUESTS} requests and ${REQUESTS * ITEMS} items in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const listPaths = [
    `/api/${tenant}/document-requests?status=open`,
    `/api/${tenant}/document-requests?clientId=${clientIds[3]}`,
    `/api/${tenant}/document-requests?overdue=true`,
    `/api/${tenant}/document-requests?status=open&offset=100`,
  ];
  const paced = (label: string, token: string, paths: string[], target: number | null, durationS = DURATION_S) =>
    bench.paced(label, token, paths, target, { rate: RATE, durationS });
  await paced('warm-up', admin.token, listPaths, null, 3);
  await paced('baseline /healthz', admin.token, ['/healthz'], 50);
  await paced('request list (Admin)', admin.token, listPaths, 50);
  await paced('request list (CPA)', cpa.token, listPaths, 50);

  // The sweep: every request's reminder due now, as on a morning when all of them come round.
  await schema.query(`UPDATE requests_jobs SET run_at = now() + interval '1 day'`);
  await schema.query(
    `INSERT INTO requests_jobs (kind, key, run_at, payload)
     SELECT 'request.reminder', 'request-reminder:' || id, now() + interval '1 second', jsonb_build_object('requestId', id) FROM document_requests
     ON CONFLICT (key) DO UPDATE SET run_at = EXCLUDED.run_at, attempts = 0`);
  started = Date.now() + 1000;
  const dueLeft = async () => Number((await schema.query<{ n: string }>(`SELECT count(*) AS n FROM requests_jobs WHERE kind = 'request.reminder' AND run_at <= now()`)).rows[0]!.n);
  await new Promise((r) => setTimeout(r, 1000));
  while ((await dueLeft()) > 0) {
    if (Date.now() - started > 60_000) throw new Error('the reminder sweep did not finish within a minute');
    await new Promise((r) => setTimeout(r, 50));
  }
  const sweepMs = Date.now() - started;
  const next = Number((await schema.query<{ n: string }>(`SELECT count(*) AS n FROM requests_jobs WHERE kind = 'request.reminder' AND run_at > now()`)).rows[0]!.n);
  console.log(`reminder sweep over ${REQUESTS} open requests: ${sweepMs} ms; ${next} next reminders armed (requests with a required item outstanding)`);
  bench.record('reminder sweep', sweepMs / 1000, SWEEP_TARGET_MS / 1000, 's');

  bench.report(`PostgreSQL (${MODE === 'split' ? 'services and gateway in two processes' : 'one process'}), ${REQUESTS} open requests, ${REQUESTS * ITEMS} items`);
} finally {
  await db.close();
  await portal.stop();
  await scratch.drop();
}
