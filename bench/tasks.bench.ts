// `npm run bench:tasks`: the tasks screen and notifications at volume in one firm on
// PostgreSQL (POSTGRES_URL required; a scratch database, dropped afterwards), and realtime
// push latency. The product runs as deployed: every service in one child process and the
// gateway in another (BENCH_MODE=split, default; BENCH_MODE=all for one process), so the
// load generator in this process does not share their event loops. Creates the firm, its
// 20 clients and users through the API (their events feed the tasks service's read
// models), seeds BENCH_TASKS tasks (default 50,000) with their client statuses and
// BENCH_NOTIFICATIONS notifications (default 200,000, most for the Admin) with SQL
// (generate_series; the unread counters set from the rows as the trigger would keep them), then
// measures through the gateway, paced at BENCH_RATE requests per second (default 20) for
// BENCH_DURATION_S seconds each:
//   - GET /api/{tenant}/tasks with filters (status + priority, assignee, client), as the
//     firm's Admin and as a CPA with a client list (target p95 < 50 ms);
//   - GET /api/{tenant}/notifications/unread-count of the user holding most notifications
//     (target p95 < 20 ms);
// beside the gateway's /healthz (no database) as the baseline the machine gives any call.
// Then connects BENCH_SOCKETS sockets (default 1,000, spread over BENCH_SOCKET_USERS users)
// through the gateway, assigns tasks to those users one by one and reports the p95 from
// each POST's response to its push arriving on every socket of the assignee (target
// p95 < 100 ms).
import { io as connect, type Socket } from 'socket.io-client';
import { openPostgresDatabase } from '@ledgerline/kit/db/postgres-database.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { startBenchPortal } from './lib/bench-portal.ts';
import { BenchRun, inParallel, jsonCaller, quantile } from './lib/bench-client.ts';
import { benchFirm } from './lib/bench-firm.ts';
import { NOTIFICATION_PUSH } from '@ledgerline/contracts/notifications.constants.ts';

const postgresUrl = process.env.POSTGRES_URL;
if (!postgresUrl) {
  console.error('bench:tasks needs POSTGRES_URL (the targets are set for PostgreSQL).');
  process.exit(2);
}
const TASKS = Number(process.env.BENCH_TASKS ?? 50_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 200_000);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const SOCKET_USERS = Number(process.env.BENCH_SOCKET_USERS ?? 20);
const PUSHES = Number(process.env.BENCH_PUSHES ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const MODE = process.env.BENCH_MODE === 'all' ? 'all' : 'split';
const FIRST_PORT = Number(process.env.BENCH_FIRST_PORT ?? 18_220);
const CLIENTS = 20;
const tenant = `benchtasks${Date.now().toString(36)}`;

const scratch = await createScratchDatabase(postgresUrl);
const portal = await startBenchPortal({ mode: MODE, firstPort: FIRST_PORT, dataPrefix: 'bench-tasks-', extraEnv: { POSTGRES_URL: scratch.url } });
const db = await openPostgresDatabase({ url: scratch.url });
const base = portal.url;
const call = jsonCaller(base);
const bench = new BenchRun(base);
const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};
try {
  const { schemaName, clientIds, user } = await benchFirm(call, { name: 'Bench Tasks', shortName: tenant }, CLIENTS);
  const schema = db.forSchema(schemaName);
  const admin = await user('bench-admin-user', 1, null);
  const cpa = await user('bench-cpa', 3, clientIds.slice(0, 5));
  const socketUsers: { id: number; token: string }[] = [];
  for (let i = 0; i < SOCKET_USERS; i++) socketUsers.push(await user(`bench-socket-${i}`, 3, []));
  const assignees = [admin.id, cpa.id, ...socketUsers.map((u) => u.id)];
  // The tasks service learns users and clients from events: a task through the API proves it has.
  await eventually(async () => {
    const r = await fetch(`${base}/api/${tenant}/tasks`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ title: 'warm-up', assignedToId: socketUsers.at(-1)!.id, clientIds: [clientIds.at(-1)] }),
    });
    return r.status === 201;
  }, 'the tasks service to know the firm');

  let started = Date.now();
  // Task i: priority and status cycle, due dates from 30 days ago to 90 ahead, assignees in
  // turn, two clients each (i and 7i modulo the client count), as the API would store them.
  await schema.query(
    `INSERT INTO tasks (title, priority, status, due_date, assigned_to_id, created_by_id, client_ids)
     SELECT 'Task ' || i, (ARRAY['low','medium','high','urgent'])[i % 4 + 1], (ARRAY['pending','in_progress','completed'])[i % 3 + 1],
            now() + ((i % 120) - 30) * interval '1 day', ($1::int[])[i % cardinality($1::int[]) + 1], $2,
            ARRAY[($3::int[])[i % $4 + 1], ($3::int[])[(i * 7) % $4 + 1]]
     FROM generate_series(0, $5 - 1) AS i`,
    [assignees, admin.id, clientIds, CLIENTS, TASKS],
  );
  await schema.query(
    `INSERT INTO task_client_statuses (task_id, client_id)
     SELECT t.id, c FROM tasks t, unnest(t.client_ids) AS c ON CONFLICT (task_id, client_id) DO NOTHING`,
  );
  console.log(`seeded ${TASKS} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  started = Date.now();
  // One in five for the CPA, the rest for the Admin (whose unread count is measured). The
  // unread counter's trigger would update one row 200,000 times: off for the bulk insert, and
  // the counters set from the table after.
  await schema.query('ALTER TABLE notifications DISABLE TRIGGER notifications_unread');
  await schema.query(
    `INSERT INTO notifications (event_id, user_id, title, message, type, category)
     SELECT 'bench-' || i, CASE WHEN i % 5 = 0 THEN $1::int ELSE $2::int END, 'Bench notice', 'Notice ' || i, 'info', 'task'
     FROM generate_series(0, $3 - 1) AS i`,
    [cpa.id, admin.id, NOTIFICATIONS],
  );
  await schema.query('ALTER TABLE notifications ENABLE TRIGGER notifications_unread');
  await schema.query(
    `INSERT INTO notification_unread_counts (user_id, unread) SELECT user_id, count(*) FROM notifications WHERE NOT is_read GROUP BY user_id
     ON CONFLICT (user_id) DO UPDATE SET unread = EXCLUDED.unread`,
  );
  await schema.query('ANALYZE tasks; ANALYZE task_client_statuses; ANALYZE notifications');
  console.log(`seeded ${NOTIFICATIONS} notifications in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const paced = (label: string, token: string, paths: string[], target: number | null, durationS = DURATION_S) =>
    bench.paced(label, token, paths, target, { rate: RATE, durationS });
  const listPaths = [
    `/api/${tenant}/tasks?status=pending&priority=high&limit=50`,
    `/api/${tenant}/tasks?assignedToId=${cpa.id}&limit=50`,
    `/api/${tenant}/tasks?clientId=${clientIds[3]}&status=in_progress&limit=50`,
    `/api/${tenant}/tasks?limit=50`,
  ];
  // The seeding's last events are still being applied and the planner's statistics are fresh:
  // a pass that is not counted first.
  await paced('warm-up', admin.token, [...listPaths, `/api/${tenant}/notifications/unread-count`], null, 3);
  // What the machine gives any call right now: the gateway's health check, no database.
  await paced('baseline /healthz', admin.token, ['/healthz'], 50);
  await paced('task list (Admin)', admin.token, listPaths, 50);
  await paced('task list (CPA)', cpa.token, listPaths, 50);
  await paced('unread count', admin.token, [`/api/${tenant}/notifications/unread-count`], 20);

  const sockets: { userIndex: number; socket: Socket }[] = [];
  await inParallel(SOCKETS, 25, async (i) => {
    const u = socketUsers[i % SOCKET_USERS]!;
    const socket = connect(base, { path: '/socket.io', auth: { token: u.token, tenant }, transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject); });
    socket.on('disconnect', (reason) => console.log(`socket of bench-socket-${i % SOCKET_USERS} disconnected: ${reason}`));
    sockets.push({ userIndex: i % SOCKET_USERS, socket });
  });
  console.log(`${sockets.length} sockets connected`);
  const latencies: number[] = [];
  let lost = 0;
  for (let k = 0; k < PUSHES; k++) {
    const who = k % SOCKET_USERS;
    const mine = sockets.filter((s) => s.userIndex === who);
    // A push that has not arrived in 10 s is lost (null), not waited for forever.
    const arrivals = mine.map((s) => new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      s.socket.once(NOTIFICATION_PUSH, () => { clearTimeout(timer); resolve(performance.now()); });
    }));
    await call('POST', `/api/${tenant}/tasks`, { title: `Push ${k}`, assignedToId: socketUsers[who]!.id }, admin.token);
    const answered = performance.now();
    // Pushed before the answer arrived counts as 0 ms.
    for (const at of await Promise.all(arrivals)) {
      if (at === null) lost++;
      else latencies.push(Math.max(0, at - answered));
    }
  }
  latencies.sort((a, b) => a - b);
  const p = (q: number) => quantile(latencies, q);
  console.log(`push (${PUSHES} assignments, ${latencies.length} deliveries, ${lost} lost) p50 ${p(0.5).toFixed(1)} ms  p95 ${p(0.95).toFixed(1)} ms  max ${p(1).toFixed(1)} ms`);
  // A lost push fails the target whatever the others' latency.
  bench.record('push', lost ? Number.POSITIVE_INFINITY : p(0.95), 100);
  for (const s of sockets) s.socket.off('disconnect').close();

  bench.report(`PostgreSQL (${MODE === 'split' ? 'services and gateway in two processes' : 'one process'}), ${TASKS} tasks, ${NOTIFICATIONS} notifications, ${SOCKETS} sockets`);
} finally {
  await db.close();
  await portal.stop();
  await scratch.drop();
}
