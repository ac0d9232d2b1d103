// `npm run bench:messaging`: realtime delivery and the thread page at volume in one firm on
// PostgreSQL (POSTGRES_URL required; a scratch database, dropped afterwards). The product runs
// as deployed: every service in one child process and the gateway in another (BENCH_MODE=split,
// default; BENCH_MODE=all for one process), so the load generator here does not share their
// event loops.
//   - Connects BENCH_SOCKETS sockets (default 1,000, spread over BENCH_SOCKET_USERS users, 20)
//     through the gateway; the firm's Admin sends BENCH_MESSAGES messages (default 200) at
//     BENCH_MESSAGE_RATE a second (20), each to a conversation with one of those users, and
//     the p95 from each send's response to the push arriving on every socket of the recipient
//     is reported (target p95 < 100 ms; a push before the response counts as 0 ms, one that
//     never arrives as lost).
//   - Seeds BENCH_FIRM_MESSAGES messages (default 1,000,000) in BENCH_CONVERSATIONS
//     conversations (1,000) with bulk SQL, then reads GET /conversations/{id}/messages (the
//     default first page) of random conversations through the gateway, paced at BENCH_RATE
//     requests a second (20) for BENCH_DURATION_S seconds (10) (target p95 < 30 ms), beside
//     the gateway's /healthz as the baseline the machine gives any call, the conversation
//     list and unread count of a user in 50 of them, and the database's own time for each.
import { io as connect, type Socket } from 'socket.io-client';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { openPostgresDatabase } from '@ledgerline/kit/db/postgres-database.ts';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { BenchRun, inParallel, jsonCaller } from './lib/bench-client.ts';
import { startBenchPortal } from './lib/bench-portal.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { MESSAGE_PAGE_DEFAULT, type Conversation, type MessagePush } from '@ledgerline/contracts/messaging.contracts.ts';
import { MESSAGING_PUSH } from '@ledgerline/contracts/messaging.constants.ts';
import { MessagingStore } from '@ledgerline/messaging-service/conversations/messaging.store.ts';

const postgresUrl = process.env.POSTGRES_URL;
if (!postgresUrl) {
  console.error('bench:messaging needs POSTGRES_URL (the targets are set for PostgreSQL).');
  process.exit(2);
}
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const SOCKET_USERS = Number(process.env.BENCH_SOCKET_USERS ?? 20);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200);
const MESSAGE_RATE = Number(process.env.BENCH_MESSAGE_RATE ?? 20);
const FIRM_MESSAGES = Number(process.env.BENCH_FIRM_MESSAGES ?? 1_000_000);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const MODE = process.env.BENCH_MODE === 'all' ? 'all' : 'split';
const FIRST_PORT = Number(process.env.BENCH_FIRST_PORT ?? 18_260);
const tenant = `benchmsg${Date.now().toString(36)}`;

const scratch = await createScratchDatabase(postgresUrl);
const portal = await startBenchPortal({ mode: MODE, firstPort: FIRST_PORT, dataPrefix: 'bench-messaging-', extraEnv: { POSTGRES_URL: scratch.url, BUS_NAMESPACE: `bench-${tenant}` } });
const db = await openPostgresDatabase({ url: scratch.url });
const base = portal.url;
const call = jsonCaller(base);
const bench = new BenchRun(base);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  const platform = (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token;
  const company = await call<Company>('POST', '/api/companies', { name: 'Bench Messaging', shortName: tenant }, platform);
  const schema = db.forSchema(company.schemaName);
  // Services re-read the firm list at most every second: a firm made this instant may be missed.
  await sleep(1500);
  const user = async (username: string, roleId: number) => {
    const u = await call<{ id: number }>('POST', `/api/${tenant}/users`, { username, password: 'password1', fullName: username, roleId, clientIds: null }, platform);
    const { token } = await call<{ token: string }>('POST', `/api/${tenant}/auth/login`, { username, password: 'password1' });
    return { id: u.id, token };
  };
  const admin = await user('bench-admin-user', 1);
  const people: { id: number; token: string }[] = [];
  for (let i = 0; i < SOCKET_USERS; i++) people.push(await user(`bench-socket-${i}`, 3));
  // The messaging service learns users from events: a conversation with the last one made is the sign.
  const conversations: Conversation[] = [];
  for (const [i, p] of people.entries()) {
    for (let attempt = 0; ; attempt++) {
      const r = await fetch(`${base}/api/${tenant}/conversations`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` }, body: JSON.stringify({ title: `Live ${i}`, participantIds: [p.id] }),
      });
      if (r.status === 201) { conversations.push((await r.json()) as Conversation); break; }
      if (attempt > 600) throw new Error(`the messaging service does not know user ${p.id}`);
      await sleep(100);
    }
  }

  const sockets: { userIndex: number; socket: Socket }[] = [];
  await inParallel(SOCKETS, 25, async (i) => {
    const socket = connect(base, { path: '/socket.io', auth: { token: people[i % SOCKET_USERS]!.token, tenant }, transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject); });
    sockets.push({ userIndex: i % SOCKET_USERS, socket });
  });
  console.log(`${sockets.length} sockets connected`);
  // Every recipient's sockets note when each message arrived.
  const arrivals = new Map<number, number[]>();
  for (const s of sockets) {
    s.socket.on(MESSAGING_PUSH.message, (push: MessagePush) => {
      if (push.change !== 'created') return;
      const at = performance.now();
      arrivals.set(push.message.id, [...(arrivals.get(push.message.id) ?? []), at]);
    });
  }
  const answeredAt = new Map<number, number>();
  const sends: Promise<void>[] = [];
  const startedAt = performance.now();
  for (let k = 0; k < MESSAGES; k++) {
    // Paced at MESSAGE_RATE a second whatever each send takes.
    await sleep(Math.max(0, startedAt + (k * 1000) / MESSAGE_RATE - performance.now()));
    const conversation = conversations[k % conversations.length]!;
    sends.push(call<{ id: number }>('POST', `/api/${tenant}/conversations/${conversation.id}/messages`, { content: `Bench message ${k}` }, admin.token)
      .then((m) => { answeredAt.set(m.id, performance.now()); }));
  }
  await Promise.all(sends);
  const perUser = SOCKETS / SOCKET_USERS;
  const deadline = Date.now() + 10_000;
  while ([...answeredAt.keys()].some((id) => (arrivals.get(id)?.length ?? 0) < perUser) && Date.now() < deadline) await sleep(50);
  const latencies = [...answeredAt].flatMap(([id, answered]) => (arrivals.get(id) ?? []).map((at) => Math.max(0, at - answered))).sort((a, b) => a - b);
  const missing = MESSAGES * perUser - latencies.length;
  const q = (f: number) => latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))]!;
  console.log(`delivery (${MESSAGES} messages at ${MESSAGE_RATE}/s, ${latencies.length} deliveries, ${missing} missing) p50 ${q(0.5).toFixed(1)} ms  p95 ${q(0.95).toFixed(1)} ms  max ${q(1).toFixed(1)} ms`);
  bench.record('delivery from the send\'s response', missing > 0 ? Number.POSITIVE_INFINITY : q(0.95), 100);
  for (const s of sockets) s.socket.close();

  // The firm's history, written straight into its schema: conversations of the Admin with the
  // bench users, round-robin, FIRM_MESSAGES messages spread evenly, everything read but the last.
  const started = Date.now();
  const userIds = people.map((p) => p.id);
  await schema.query(`INSERT INTO conversations (title, created_by_id) SELECT 'History ' || g, $1 FROM generate_series(1, $2::int) g`, [admin.id, CONVERSATIONS]);
  await schema.query(
    `INSERT INTO conversation_participants (conversation_id, user_id, name)
     SELECT c.id, u.id, u.name FROM conversations c
     CROSS JOIN LATERAL (VALUES ($1::int, 'admin'), (($2::int[])[1 + c.id % array_length($2::int[], 1)], 'user')) AS u (id, name)
     WHERE c.title LIKE 'History %'`, [admin.id, userIds]);
  await schema.query(
    `INSERT INTO messages (conversation_id, sender_id, sender_name, content, sent_at)
     SELECT c.ids[1 + g % array_length(c.ids, 1)], $1, 'admin', 'Bench history message ' || g, now() - make_interval(secs => $2::int - g)
     FROM generate_series(1, $2::int) g, (SELECT array_agg(id ORDER BY id) AS ids FROM conversations WHERE title LIKE 'History %') c`, [admin.id, FIRM_MESSAGES]);
  await schema.query(
    `UPDATE conversation_participants p SET last_read_message_id = m.max_id - 1
     FROM (SELECT conversation_id, max(id) AS max_id FROM messages GROUP BY conversation_id) m WHERE m.conversation_id = p.conversation_id`);
  for (const table of ['conversations', 'conversation_participants', 'messages']) await schema.query(`ANALYZE ${table}`);
  console.log(`seeded ${FIRM_MESSAGES} messages in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const all = await call<Conversation[]>('GET', `/api/${tenant}/conversations`, undefined, admin.token);
  const threadPaths = Array.from({ length: 200 }, (_, i) => `/api/${tenant}/conversations/${all[(i * 7919) % all.length]!.id}/messages`);
  const paced = (label: string, token: string, paths: string[], target: number | null, durationS = DURATION_S) =>
    bench.paced(label, token, paths, target, { rate: RATE, durationS });
  await paced('warm-up', admin.token, threadPaths, null, 3);
  await paced('baseline /healthz', admin.token, ['/healthz'], 50);
  await paced('thread page (newest 50)', admin.token, threadPaths, 30);
  await paced(`conversation list (a user in ${Math.ceil(CONVERSATIONS / SOCKET_USERS)})`, people[0]!.token, [`/api/${tenant}/conversations`], null);
  await paced('unread count (same user)', people[0]!.token, [`/api/${tenant}/messages/unread/count`], null);
  // The database's share of each, one query at a time: what they cost apart from the HTTP hops and a busy machine.
  const store = new MessagingStore(createUserAccessReadModel('messaging'));
  const timed = async (label: string, query: (i: number) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const at = performance.now();
      await query(i);
      times.push(performance.now() - at);
    }
    times.sort((x, y) => x - y);
    console.log(`${label} in PostgreSQL (500 runs) p50 ${times[250]!.toFixed(2)} ms  p95 ${times[475]!.toFixed(2)} ms`);
  };
  await timed('thread page query', (i) => store.messages(schema, all[(i * 7919) % all.length]!.id, { limit: MESSAGE_PAGE_DEFAULT }));
  await timed(`conversation list query (a user in ${Math.ceil(CONVERSATIONS / SOCKET_USERS)})`, () => store.conversations(schema, people[0]!.id));
  await timed('unread count query (same user)', () => store.unreadCount(schema, people[0]!.id));

  bench.report(`PostgreSQL, ${FIRM_MESSAGES} messages in the firm, ${SOCKETS} sockets, ${MODE} mode`);
} finally {
  await db.close();
  await portal.stop();
  await scratch.drop();
}
