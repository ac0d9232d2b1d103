// `npm run bench:tasks`: the tasks screen and notifications at volume in one firm, and
// realtime push latency. Seeds BENCH_TASKS tasks (default 50,000) through the API and
// BENCH_NOTIFICATIONS notifications (default 200,000) as notification.requested events on
// the bus (the path every service uses), then measures through the gateway, paced at
// BENCH_RATE requests per second (default 20) for BENCH_DURATION_S seconds each:
//   - GET /api/{tenant}/tasks with filters (status + priority, assignee, client), as the
//     firm's Admin and as a CPA with a client list (target p95 < 50 ms);
//   - GET /api/{tenant}/notifications/unread-count of a user holding most notifications
//     (target p95 < 20 ms);
// and connects BENCH_SOCKETS sockets (default 1,000, spread over BENCH_SOCKET_USERS users)
// through the gateway, assigns tasks to those users one by one and reports the p95 from
// each POST's response to its push arriving on every socket of the assignee (target
// p95 < 100 ms). PostgreSQL when POSTGRES_URL is set (a scratch database, dropped
// afterwards), else the embedded default. The portal runs in this process (its bus is
// where the notifications are published), so the client's work shares the CPU with it:
// read the figures as an upper bound, beside the baseline (the gateway's /healthz, no
// database) measured the same way in the same run.
import { randomBytes } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { inParallel, startBenchPortal } from '@ledgerline/server/bench-portal.ts';
import { NOTIFICATION_PUSH, NOTIFICATION_REQUESTED } from '@ledgerline/contracts/notifications.contracts.ts';
import { TASK_PRIORITIES, TASK_STATUSES } from '@ledgerline/contracts/tasks.contracts.ts';

const TASKS = Number(process.env.BENCH_TASKS ?? 50_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 200_000);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const SOCKET_USERS = Number(process.env.BENCH_SOCKET_USERS ?? 20);
const PUSHES = Number(process.env.BENCH_PUSHES ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CLIENTS = 20;
const tenant = `benchtasks${randomBytes(3).toString('hex')}`;

const bench = await startBenchPortal('tasks');
const { portal, base, call } = bench;
const eventually = async (check: () => Promise<boolean>, what: string, timeoutMs = 600_000) => {
  const deadline = Date.now() + timeoutMs;
  // A pooled connection the server closed while the seeding ran answers ECONNRESET once: ask again.
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
};
try {
  const platform = await bench.platformToken();
  await call('POST', '/api/companies', { name: 'Bench Tasks', shortName: tenant }, platform);
  const clientIds: number[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const c = await call<{ id: number }>('POST', `/api/${tenant}/clients`, {
      name: `Bench Client ${i}`, address: '1 Main Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: `c${i}@example.com`,
    }, platform);
    clientIds.push(c.id);
  }
  const user = async (username: string, roleId: number, clients: number[] | null) => {
    const u = await call<{ id: number }>('POST', `/api/${tenant}/users`, { username, password: 'password1', fullName: username, roleId, clientIds: clients }, platform);
    const { token } = await call<{ token: string }>('POST', `/api/${tenant}/auth/login`, { username, password: 'password1' });
    return { id: u.id, token };
  };
  const admin = await user('bench-admin-user', 1, null);
  const cpa = await user('bench-cpa', 3, clientIds.slice(0, 5));
  const socketUsers: { id: number; token: string }[] = [];
  for (let i = 0; i < SOCKET_USERS; i++) socketUsers.push(await user(`bench-socket-${i}`, 3, []));
  const assignees = [admin.id, cpa.id, ...socketUsers.map((u) => u.id)];
  // The tasks service learns users and clients from events.
  await eventually(async () => {
    const r = await fetch(`${base}/api/${tenant}/tasks`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
      body: JSON.stringify({ title: 'warm-up', assignedToId: socketUsers.at(-1)!.id, clientIds: [clientIds.at(-1)] }),
    });
    return r.status === 201;
  }, 'the tasks service to know the firm');

  let started = Date.now();
  await inParallel(TASKS, 8, async (i) => {
    await call('POST', `/api/${tenant}/tasks`, {
      title: `Task ${i}`, priority: TASK_PRIORITIES[i % 4], status: TASK_STATUSES[i % 3],
      dueDate: new Date(Date.now() + ((i % 120) - 30) * 86_400_000).toISOString(), assignedToId: assignees[i % assignees.length],
      clientIds: [clientIds[i % CLIENTS], clientIds[(i * 7) % CLIENTS]],
    }, admin.token);
  });
  console.log(`seeded ${TASKS} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  started = Date.now();
  // Most notifications belong to the admin (the unread count measured), the rest spread over the CPA.
  for (let done = 0; done < NOTIFICATIONS; done += 500) {
    const batch = Array.from({ length: Math.min(500, NOTIFICATIONS - done) }, (_, k) => newEvent(NOTIFICATION_REQUESTED, tenant, {
      userId: (done + k) % 5 === 0 ? cpa.id : admin.id, title: 'Bench notice', message: `Notice ${done + k}`, category: 'task',
    }));
    await portal.bus!.publish(batch);
  }
  // The admin gets no other notification (they assigned every task themselves).
  await eventually(async () => (await call<{ count: number }>('GET', `/api/${tenant}/notifications/unread-count`, undefined, admin.token)).count >= NOTIFICATIONS - Math.ceil(NOTIFICATIONS / 5), 'the notifications to be stored');
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
    sockets.push({ userIndex: i % SOCKET_USERS, socket });
  });
  console.log(`${sockets.length} sockets connected`);
  const latencies: number[] = [];
  for (let k = 0; k < PUSHES; k++) {
    const who = k % SOCKET_USERS;
    const mine = sockets.filter((s) => s.userIndex === who);
    const arrivals = mine.map((s) => new Promise<number>((resolve) => s.socket.once(NOTIFICATION_PUSH, () => resolve(performance.now()))));
    await call('POST', `/api/${tenant}/tasks`, { title: `Push ${k}`, assignedToId: socketUsers[who]!.id }, admin.token);
    const answered = performance.now();
    // Pushed before the answer arrived counts as 0 ms.
    for (const at of await Promise.all(arrivals)) latencies.push(Math.max(0, at - answered));
  }
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  console.log(`push (${PUSHES} assignments, ${latencies.length} deliveries) p50 ${p(0.5).toFixed(1)} ms  p95 ${p(0.95).toFixed(1)} ms  max ${p(1).toFixed(1)} ms`);
  bench.record({ label: 'push', p95: p(0.95), target: 100 });
  for (const s of sockets) s.socket.close();

  bench.report(`${TASKS} tasks, ${NOTIFICATIONS} notifications, ${SOCKETS} sockets`);
} finally {
  await bench.stop();
}
