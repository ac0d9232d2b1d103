// What people do in the product, one function per scenario, each timed as its own k6 group.
// `weight` is how often an iteration is that scenario, relative to the others. A service
// that lands adds its scenario here (and its group's p95 in groups.ts).
import { check, group } from 'k6';
import exec from 'k6/execution';
import { Trend } from 'k6/metrics';
import { signIn, uploadFile, uploadTextFile, type Fixture, type LoadUser, type Role } from './fixture.ts';
import { WS_DELIVERY_METRIC, groupTag } from './groups.ts';
import { call, json, ok } from './http.ts';
import { connect } from './socketio.ts';

export interface Scenario { name: string; weight: number; run(f: Fixture): void }

/** Socket delivery latency: from the triggering call's answer to the push, in ms. */
const wsDelivery = new Trend(WS_DELIVERY_METRIC, true);
const DELIVERY_TIMEOUT_MS = 10_000;
const LARGE_UPLOAD_BYTES = 50 * 1024 * 1024;
/** Tokens are renewed well before the default 8-hour lifetime ends (soak runs last hours). */
const TOKEN_REFRESH_MS = 30 * 60 * 1000;

/** This iteration's number across the whole test: spreads users, clients and terms. */
const iteration = (): number => exec.scenario.iterationInTest;
const pick = <T>(list: readonly T[], salt = 0): T => list[(iteration() * 7 + salt) % list.length]!;
const api = (f: Fixture, path: string): string => `/api/${f.tenant}/${path}`;

/** Tokens this VU renewed, by username. */
const renewed = new Map<string, { token: string; atMs: number }>();

/** A user of one of `roles` for this iteration, with a token younger than TOKEN_REFRESH_MS. */
function userOf(f: Fixture, name: string, ...roles: Role[]): LoadUser {
  const user = pick(f.users.filter((u) => roles.includes(u.role)));
  return { ...user, token: tokenOf(f, user, name) };
}

function tokenOf(f: Fixture, user: LoadUser, groupName: string): string {
  const mine = renewed.get(user.username) ?? { token: user.token, atMs: f.signedInAtMs };
  if (Date.now() - mine.atMs < TOKEN_REFRESH_MS) return mine.token;
  const fresh = { token: signIn(groupName, f.tenant, user.username, f.password), atMs: Date.now() };
  renewed.set(user.username, fresh);
  return fresh.token;
}

/** A check that counts under `name`'s group also when it runs in a socket's handler. */
const checkIn = (name: string, what: string, holds: boolean): boolean => check(null, { [what]: () => holds }, { group: groupTag(name) });

const scenario = (name: string, weight: number, body: (f: Fixture) => void): Scenario => ({ name, weight, run: (f) => group(name, () => body(f)) });

const signInScenario = scenario('sign-in', 2, (f) => {
  const user = pick(f.users);
  const answer = call('sign-in', 'POST', api(f, 'auth/login'), { json: { username: user.username, password: f.password } });
  checkIn('sign-in', 'sign-in answers a token', typeof json<{ token?: string }>(answer)?.token === 'string');
});

/** Staff look a client up by part of its name (the clients page's search box). */
const clientSearch = scenario('clients', 10, (f) => {
  const user = userOf(f, 'clients', 'Admin', 'DTA', 'CPA');
  const term = pick(['LT Client', 'Client 1', 'lt client 2', 'Client']);
  const answer = call('clients', 'GET', `${api(f, 'clients')}?search=${encodeURIComponent(term)}`, { token: user.token });
  checkIn('clients', 'client search answers a list', ok(answer) && Array.isArray(json(answer)));
});

/** Anyone opens the files page (a page of 25). */
const fileList = scenario('files-list', 10, (f) => {
  const user = userOf(f, 'files-list', 'Admin', 'DTA', 'CPA', 'Client');
  const answer = call('files-list', 'GET', `${api(f, 'files')}?limit=25&offset=0`, { token: user.token });
  checkIn('files-list', 'file list answers a list', ok(answer) && Array.isArray(json(answer)));
});

/** Anyone searches the documents' content. */
const fileSearch = scenario('files-search', 8, (f) => {
  const user = userOf(f, 'files-search', 'Admin', 'DTA', 'CPA', 'Client');
  const answer = call('files-search', 'GET', `${api(f, 'files')}?search=${encodeURIComponent(pick(f.searchTerms))}&limit=25`, { token: user.token });
  checkIn('files-search', 'file search answers a list', ok(answer) && Array.isArray(json(answer)));
});

/** Staff upload a small document (named with the run's mark: teardown removes it). */
const smallUpload = scenario('upload-small', 3, (f) => {
  const user = userOf(f, 'upload-small', 'Admin', 'DTA');
  const id = uploadTextFile(f, user.token, `lt-upload-${f.runId}-${iteration()}.txt`, iteration(), 'upload-small');
  checkIn('upload-small', 'small upload stored', id !== undefined);
});

/** Now and then someone uploads a 50 MB scan: it must stream through without stalling the rest. */
const largeUpload = scenario('upload-50mb', 1, (f) => {
  const user = userOf(f, 'upload-50mb', 'Admin', 'DTA');
  // Made here, not at module level, so a VU holds it only while it uploads.
  const content = 'load test scan '.repeat(Math.ceil(LARGE_UPLOAD_BYTES / 15)).slice(0, LARGE_UPLOAD_BYTES);
  const id = uploadFile(f, user.token, { name: `lt-scan-${f.runId}-${iteration()}.bin`, type: 'application/octet-stream', content }, iteration(), 'upload-50mb');
  checkIn('upload-50mb', '50 MB upload stored', id !== undefined);
});

/** The Admin's and DTA's landing page: totals, recent files, charts. */
const dashboard = scenario('dashboard', 5, (f) => {
  const user = userOf(f, 'dashboard', 'Admin', 'DTA');
  const answer = call('dashboard', 'GET', api(f, 'dashboard'), { token: user.token });
  checkIn('dashboard', 'dashboard answers an overview', ok(answer) && typeof json(answer) === 'object');
});

/** Staff read their task list and stats, and now and then add a task for a client. */
const tasks = scenario('tasks', 8, (f) => {
  const user = userOf(f, 'tasks', 'Admin', 'DTA', 'CPA');
  const list = call('tasks', 'GET', `${api(f, 'tasks')}?limit=50`, { token: user.token });
  checkIn('tasks', 'task list answers a list', ok(list) && Array.isArray(json(list)));
  checkIn('tasks', 'task stats answer', ok(call('tasks', 'GET', api(f, 'tasks/stats'), { token: user.token })));
  if (iteration() % 4 !== 0 || user.role === 'CPA') return;
  const created = call('tasks', 'POST', api(f, 'tasks'), { token: user.token, json: { title: `Load test task ${f.runId} ${iteration()}`, priority: 'medium', clientIds: [pick(f.clientIds)] } });
  checkIn('tasks', 'task created', created.status === 201);
});

/**
 * The Compliance screen as staff open it: this month's calendar (three items a day and the
 * day counts), the overdue and upcoming panels and a page of the tracker table. Now and then
 * an Admin adds a monthly schedule and generates this year, so the tracker grows.
 */
const compliance = scenario('compliance', 4, (f) => {
  const user = userOf(f, 'compliance', 'Admin', 'DTA', 'CPA');
  const now = new Date();
  const year = now.getUTCFullYear();
  const month = `startDate=${new Date(Date.UTC(year, now.getUTCMonth(), 1)).toISOString()}&endDate=${new Date(Date.UTC(year, now.getUTCMonth() + 1, 0, 23, 59, 59, 999)).toISOString()}`;
  const tracker = api(f, 'compliance-tracker');
  for (const [what, path] of [['calendar', `${tracker}?${month}&perDay=3`], ['overdue panel', `${tracker}/overdue?limit=3`], ['upcoming panel', `${tracker}/upcoming?limit=3`], ['tracker page', `${tracker}?limit=25`]]) {
    const answer = call('compliance', 'GET', path!, { token: user.token });
    checkIn('compliance', `compliance ${what} answers a list`, ok(answer) && Array.isArray(json(answer)));
  }
  if (iteration() % 5 !== 0 || user.role !== 'Admin') return;
  const schedule = call('compliance', 'POST', api(f, 'compliance-schedules'), {
    token: user.token, json: { clientId: pick(f.clientIds), reportTypeId: pick(f.reportTypeIds), frequency: 'monthly', dueDayOfMonth: 1 + (iteration() % 28) },
  });
  checkIn('compliance', 'compliance schedule created', schedule.status === 201);
  const id = json<{ id?: number }>(schedule)?.id;
  if (id !== undefined) checkIn('compliance', 'compliance year generated', ok(call('compliance', 'POST', api(f, `compliance-schedules/${id}/generate/${year}`), { token: user.token })));
});

/** Reading a document's chat sessions; the questions themselves arrive at a fixed rate (askQuestion). */
const chatSessions = scenario('chat', 2, (f) => {
  const user = userOf(f, 'chat', 'Admin', 'DTA');
  const answer = call('chat', 'GET', `${api(f, 'chat/sessions')}?fileId=${pick(f.fileIds)}`, { token: user.token });
  checkIn('chat', 'chat sessions answer', ok(answer) && Array.isArray(json(answer)));
});

/**
 * A question about a document. Without an AI endpoint configured the product answers with
 * excerpts of the file (what a load test should drive: no external service to pay for).
 */
export function askQuestion(f: Fixture): void {
  group('chat', () => {
    // Questions go round the Admin and DTA users in turn (the scenario's iteration counts across
    // VUs), so none asks more than the product's per-user share of the firm's AI minute
    // (AI_USER_SHARE_PERCENT, half by default) while the firm asks CHAT_ASKS_PER_MINUTE.
    const askers = f.users.filter((u) => u.role === 'Admin' || u.role === 'DTA');
    const asker = askers[exec.scenario.iterationInTest % askers.length]!;
    const user = { ...asker, token: tokenOf(f, asker, 'chat') };
    const answer = call('chat', 'POST', api(f, 'chat/ask'), { token: user.token, json: { fileId: pick(f.fileIds), message: `What does this document say about ${pick(f.searchTerms)}?` } });
    checkIn('chat', `chat answers${ok(answer) ? '' : ` (${answer.status})`}`, ok(answer) && json<{ assistantMessage?: unknown }>(answer)?.assistantMessage !== undefined);
  });
}

/**
 * Waits on a staff user's socket for the push `matches` accepts after `trigger` (run once
 * the namespace accepted the handshake) was answered; records the delivery time, or a
 * failed check after DELIVERY_TIMEOUT_MS. `then` runs after a delivery, before the close.
 */
function timeDelivery(f: Fixture, name: string, staff: LoadUser, options: { pushName: string; trigger(): boolean; matches(payload: unknown): boolean; then?(): void }): void {
  let answeredAt = 0;
  let done = false;
  // A pending timer keeps the iteration alive: each is cleared once it has no more to say.
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const finish = (socket: { close(): void }, delivered: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    checkIn(name, `${options.pushName} delivered on the socket`, delivered);
    if (delivered && options.then) options.then();
    socket.close();
  };
  const socket = connect({ token: staff.token, tenant: f.tenant }, {
    onConnect(s) {
      clearTimeout(deadline);
      if (!options.trigger()) return finish(s, false);
      answeredAt = Date.now();
      deadline = setTimeout(() => finish(s, false), DELIVERY_TIMEOUT_MS);
    },
    onEvent(s, pushName, payload) {
      if (done || answeredAt === 0 || pushName !== options.pushName || !options.matches(payload)) return;
      // A push handled before the answer was (both queued on this VU's event loop) counts as 0 ms.
      wsDelivery.add(Math.max(0, Date.now() - answeredAt), { group: groupTag(name) });
      finish(s, true);
    },
    onRefused(message) {
      done = true;
      clearTimeout(deadline);
      checkIn(name, `socket handshake accepted (${message})`, false);
    },
  });
  // No handshake answer at all is a failed delivery too.
  deadline = setTimeout(() => finish(socket, false), DELIVERY_TIMEOUT_MS);
}

/**
 * Realtime delivery: a staff user's socket.io connection through the gateway (as a browser
 * tab opens it); an Admin assigns that user a task, and the time from the POST's answer to
 * the `notification:new` push on the socket is the delivery time.
 */
const realtime = scenario('realtime', 3, (f) => {
  const staff = userOf(f, 'realtime', 'DTA', 'CPA');
  const admin = userOf(f, 'realtime', 'Admin');
  const title = `Load test push ${f.runId} ${iteration()}`;
  timeDelivery(f, 'realtime', staff, {
    pushName: 'notification:new',
    trigger: () => call('realtime', 'POST', api(f, 'tasks'), { token: admin.token, json: { title, assignedToId: staff.id } }).status === 201,
    matches: (n) => (n as { taskTitle?: string | null }).taskTitle === title,
  });
});

/** The conversation between the Admin and each staff user, made on first use by this VU. */
const conversations = new Map<number, number>();

/**
 * Messaging: an Admin writes to a staff user in their conversation; the time from the
 * POST's answer to the `messaging:message` push on the user's socket is the delivery time.
 * The user then reads the thread, marks the message read and checks the unread count, as
 * the Messages page does.
 */
const messaging = scenario('messaging', 4, (f) => {
  const staff = userOf(f, 'messaging', 'DTA', 'CPA');
  const admin = userOf(f, 'messaging', 'Admin');
  let conversationId = conversations.get(staff.id);
  if (conversationId === undefined) {
    const created = call('messaging', 'POST', api(f, 'conversations'), { token: admin.token, json: { title: `Load test ${f.runId} ${exec.vu.idInTest}`, participantIds: [staff.id] } });
    checkIn('messaging', 'conversation created', created.status === 201);
    conversationId = json<{ id?: number }>(created)?.id;
    if (conversationId === undefined) return;
    conversations.set(staff.id, conversationId);
  }
  const messages = api(f, `conversations/${conversationId}/messages`);
  const content = `Load test message ${f.runId} ${iteration()}`;
  let messageId: number | undefined;
  timeDelivery(f, 'messaging', staff, {
    pushName: 'messaging:message',
    trigger: () => {
      const sent = call('messaging', 'POST', messages, { token: admin.token, json: { content, messageType: 'text' } });
      messageId = json<{ id?: number }>(sent)?.id;
      return sent.status === 201;
    },
    matches: (push) => (push as { message?: { content?: string } }).message?.content === content,
    then: () => {
      const thread = call('messaging', 'GET', messages, { token: staff.token });
      checkIn('messaging', 'thread answers a list', ok(thread) && Array.isArray(json(thread)));
      if (messageId !== undefined) checkIn('messaging', 'message marked read', ok(call('messaging', 'POST', api(f, `messages/${messageId}/read`), { token: staff.token })));
      const unread = call('messaging', 'GET', api(f, 'messages/unread/count'), { token: staff.token });
      checkIn('messaging', 'unread count answers', ok(unread) && typeof json<{ count?: number }>(unread)?.count === 'number');
    },
  });
});

export const SCENARIOS: readonly Scenario[] = [
  signInScenario, clientSearch, fileList, fileSearch, smallUpload, largeUpload, dashboard, tasks, compliance, chatSessions, realtime, messaging,
];
