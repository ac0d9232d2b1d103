import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { internalUserAccessPath } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { MESSAGING_MESSAGES, type ClientConversation, type Conversation, type Message, type MessagePush, type ReadReceipt, type UnreadMessages } from '@ledgerline/contracts/messaging.contracts.ts';
import { MESSAGING_PUSH } from '@ledgerline/contracts/messaging.constants.ts';
import type { Notification } from '@ledgerline/contracts/notifications.contracts.ts';

/** Users reach the messaging service as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 15_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;

const start = (who: string, participantIds: number[], title = `Talk ${++serial}`, tenant = ACME) =>
  call<Conversation>('POST', `/api/${tenant}/conversations`, tokens[who], { title, participantIds });
const send = (who: string, conversationId: number, body: Record<string, unknown>) =>
  call<Message>('POST', `/api/${ACME}/conversations/${conversationId}/messages`, tokens[who], body);
const thread = (who: string, conversationId: number, query = '') =>
  call<Message[]>('GET', `/api/${ACME}/conversations/${conversationId}/messages${query}`, tokens[who]);
const listOf = async (who: string) => (await call<Conversation[]>('GET', `/api/${ACME}/conversations`, tokens[who])).body;
const unread = async (who: string) => (await call<UnreadMessages>('GET', `/api/${ACME}/messages/unread/count`, tokens[who])).body.count;
const pickerOf = async (who: string) => {
  const r = await call<User[]>('GET', `/api/${ACME}/users`, tokens[who]);
  expect(r.status).toBe(200);
  return r.body.map((u) => u.id).sort((a, b) => a - b);
};
const sorted = (...who: string[]) => who.map((w) => ids[w]!).sort((a, b) => a - b);
let serial = 0;

/** Records every messaging push a socket receives. */
function recorder(socket: Socket) {
  const got: { event: string; payload: unknown }[] = [];
  for (const event of Object.values(MESSAGING_PUSH)) socket.on(event, (payload: unknown) => got.push({ event, payload }));
  return got;
}

beforeAll(async () => {
  portal = await startTestPortal();
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) await cast.firm(shortName);
  await cast.clients(ACME, { own: 'Own Client', other: 'Other Client' });
  await cast.clients(BETA, { beta: 'Beta Client' });
  await cast.reportTypes(ACME, { reportType: 'Statements' });
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'dta', 2, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!]);
  await cast.user(ACME, 'cpaOther', 3, [ids.other!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(ACME, 'clientOther', 4, [ids.other!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
  await cast.user(BETA, 'betaClient', 4, [ids.beta!]);
  // The messaging service learns users from events: wait until it knows the last one made here.
  await eventually(async () => expect((await start('admin', [ids.clientOther!], 'warm-up')).status).toBe(201), BUS_WAIT_MS, 200);
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  cast.closeSockets();
});

describe('messaging: validation (400 with the spec\'s messages)', () => {
  it.each([
    [{ title: '   ', participantIds: [1] }, MESSAGING_MESSAGES.titleRequired],
    [{ participantIds: [1] }, MESSAGING_MESSAGES.titleRequired],
    [{ title: 'Hello', participantIds: [] }, MESSAGING_MESSAGES.participantsRequired],
    [{ title: 'Hello' }, MESSAGING_MESSAGES.participantsRequired],
    [{ title: 'Hello', participantIds: ['x'] }, MESSAGING_MESSAGES.participantsRequired],
    [{ title: 'bad\u0000title', participantIds: [1] }, 'title must not contain control characters'],
  ])('conversation %j → %s', async (body, message) => {
    expect(await call('POST', `/api/${ACME}/conversations`, tokens.admin, body)).toMatchObject({ status: 400, body: { message } });
  });

  it('the creator alone is not a conversation; an unknown user cannot be added', async () => {
    expect(await start('admin', [ids.admin!])).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.participantsRequired } });
    expect(await start('admin', [999_999])).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.participantsNotAllowed } });
  });

  it('messages: trimmed content required, text only, path ids', async () => {
    const c = (await start('admin', [ids.client!])).body;
    expect(await send('admin', c.id, { content: '  ' })).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.contentRequired } });
    expect(await send('admin', c.id, {})).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.contentRequired } });
    expect(await send('admin', c.id, { content: 'hi', messageType: 'image' })).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.messageType } });
    expect(await send('admin', c.id, { content: 'hi', fileId: 5 })).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.fileNameRequired } });
    expect((await call('PUT', `/api/${ACME}/messages/abc`, tokens.admin, { content: 'x' })).status).toBe(400);
    expect(await call('PUT', `/api/${ACME}/messages/99999999999`, tokens.admin, { content: 'x' })).toMatchObject({ status: 404, body: { message: MESSAGING_MESSAGES.messageNotFound } });
    expect(await thread('admin', 99_999_999)).toMatchObject({ status: 404, body: { message: MESSAGING_MESSAGES.conversationNotFound } });
    expect((await thread('admin', c.id, '?limit=0')).status).toBe(400);
  });
});

describe('messaging: every call', () => {
  it('creates, lists, sends, replies, edits, deletes and reads', async () => {
    const created = await start('admin', [ids.client!, ids.client!], '  Year-end questions  ');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Year-end questions', type: 'direct', createdById: ids.admin, participantIds: [ids.admin, ids.client],
      participantNames: [`admin of ${ACME}`, `client of ${ACME}`], lastMessage: null, unreadCount: 0,
    });
    const id = created.body.id;
    expect((await listOf('client')).find((c) => c.id === id)).toMatchObject({ title: 'Year-end questions', unreadCount: 0 });

    const first = await send('client', id, { content: '  Where is my W-2?  ', messageType: 'text' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ conversationId: id, senderId: ids.client, senderName: `client of ${ACME}`, content: 'Where is my W-2?', messageType: 'text', isEdited: false, isDeleted: false, replyToId: null });
    expect(await unread('admin')).toBe(1);
    expect(await unread('client')).toBe(0);
    expect((await listOf('admin')).find((c) => c.id === id)).toMatchObject({ lastMessage: 'Where is my W-2?', unreadCount: 1, lastMessageAt: first.body.sentAt });
    expect((await listOf('admin'))[0]!.id).toBe(id);

    const reply = await send('admin', id, { content: 'Uploaded this morning.', replyToId: first.body.id });
    expect(reply.body).toMatchObject({ replyToId: first.body.id, replyToContent: 'Where is my W-2?', replyToSender: `client of ${ACME}` });

    const edited = await call<Message>('PUT', `/api/${ACME}/messages/${reply.body.id}`, tokens.admin, { content: 'Uploaded this afternoon.' });
    expect(edited.body).toMatchObject({ content: 'Uploaded this afternoon.', isEdited: true });
    expect(edited.body.editedAt).not.toBeNull();
    expect(await call('PUT', `/api/${ACME}/messages/${reply.body.id}`, tokens.admin, { content: ' ' })).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.contentRequired } });
    // Only the sender edits or deletes; the other participant is refused, not told it is missing.
    expect(await call('PUT', `/api/${ACME}/messages/${reply.body.id}`, tokens.client, { content: 'Forged' })).toMatchObject({ status: 403, body: { message: MESSAGING_MESSAGES.senderOnly } });
    expect((await call('DELETE', `/api/${ACME}/messages/${reply.body.id}`, tokens.client)).status).toBe(403);

    const page = await thread('client', id);
    expect(page.body.map((m) => m.content)).toEqual(['Uploaded this afternoon.', 'Where is my W-2?']);

    expect(await call('DELETE', `/api/${ACME}/messages/${first.body.id}`, tokens.client)).toMatchObject({ status: 200, body: { message: MESSAGING_MESSAGES.deleted } });
    const after = (await thread('admin', id)).body;
    expect(after.find((m) => m.id === first.body.id)).toMatchObject({ isDeleted: true, content: null });
    expect(JSON.stringify(after)).not.toContain('W-2');
    expect(after.find((m) => m.id === reply.body.id)).toMatchObject({ replyToContent: null, replyToSender: `client of ${ACME}` });
    expect((await call('PUT', `/api/${ACME}/messages/${first.body.id}`, tokens.client, { content: 'back' })).status).toBe(404);
    expect((await listOf('admin')).find((c) => c.id === id)!.lastMessage).toBe('Uploaded this afternoon.');
    // The deleted message no longer counts as unread.
    expect((await listOf('admin')).find((c) => c.id === id)!.unreadCount).toBe(0);

    const third = await send('client', id, { content: 'Thanks!' });
    expect(await unread('admin')).toBe(1);
    const read = await call<ReadReceipt>('POST', `/api/${ACME}/messages/${third.body.id}/read`, tokens.admin);
    expect(read.body).toMatchObject({ conversationId: id, userId: ids.admin, lastReadMessageId: third.body.id });
    expect(await unread('admin')).toBe(0);
    expect((await listOf('admin')).find((c) => c.id === id)!.unreadCount).toBe(0);
    // The sender learns from the list how far each participant has read (Sent / Read); sending reads up to one's own message.
    expect((await listOf('client')).find((c) => c.id === id)!.readPositions).toEqual([
      { userId: ids.admin, lastReadMessageId: third.body.id },
      { userId: ids.client, lastReadMessageId: third.body.id },
    ]);
  });

  it('pages newest first with a cursor; the first page is the default', async () => {
    const c = (await start('dta', [ids.cpa!])).body;
    const sent: number[] = [];
    for (let i = 1; i <= 5; i++) sent.push((await send('dta', c.id, { content: `m${i}` })).body.id);
    expect((await thread('cpa', c.id)).body.map((m) => m.content)).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
    const p1 = (await thread('cpa', c.id, '?limit=2')).body;
    expect(p1.map((m) => m.content)).toEqual(['m5', 'm4']);
    const p2 = (await thread('cpa', c.id, `?limit=2&before=${p1[1]!.id}`)).body;
    expect(p2.map((m) => m.content)).toEqual(['m3', 'm2']);
    expect((await thread('cpa', c.id, `?limit=2&before=${sent[0]}`)).body).toEqual([]);
  });
});

describe('messaging: who may talk to whom', () => {
  it('the people picker answers exactly the users the caller may add (and the caller)', async () => {
    const staff = ['admin', 'dta', 'cpa', 'cpaOther'];
    expect(await pickerOf('client')).toEqual(sorted('admin', 'dta', 'cpa', 'client'));
    expect(await pickerOf('clientOther')).toEqual(sorted('admin', 'dta', 'cpaOther', 'clientOther'));
    expect(await pickerOf('cpa')).toEqual(sorted(...staff, 'client'));
    expect(await pickerOf('cpaOther')).toEqual(sorted(...staff, 'clientOther'));
    expect(await pickerOf('dta')).toEqual(sorted(...staff, 'client', 'clientOther'));
    // The Admin manages users: everyone, as before.
    expect(await pickerOf('admin')).toEqual(sorted(...staff, 'client', 'clientOther'));
  });

  it.each([
    ['client', ['cpaOther'], 400], ['client', ['clientOther'], 400], ['client', ['cpa'], 201], ['client', ['dta', 'admin'], 201],
    ['cpa', ['clientOther'], 400], ['cpa', ['client'], 201], ['cpa', ['cpaOther'], 201], ['cpaOther', ['client'], 400],
    ['dta', ['client'], 201], ['dta', ['clientOther'], 201],
    // Every two participants must be allowed to talk: no two clients, no client with staff not serving it.
    ['admin', ['client', 'clientOther'], 400], ['admin', ['client', 'cpaOther'], 400], ['admin', ['client', 'cpa'], 201],
  ] as const)('%s starting a conversation with %j → %i', async (who, with_, status) => {
    const r = await start(who, with_.map((w) => ids[w]!));
    expect(r.status).toBe(status);
    if (status === 400) expect(r.body).toMatchObject({ message: MESSAGING_MESSAGES.participantsNotAllowed });
  });

  it('only participants list, read, post, mark read or change (others: 404); other firms are refused', async () => {
    const c = (await start('cpa', [ids.client!])).body;
    const m = (await send('cpa', c.id, { content: 'Private' })).body;
    for (const who of ['admin', 'dta', 'cpaOther', 'clientOther']) {
      expect((await listOf(who)).some((x) => x.id === c.id)).toBe(false);
      expect((await thread(who, c.id)).status).toBe(404);
      expect((await send(who, c.id, { content: 'Intrude' })).status).toBe(404);
      expect((await call('POST', `/api/${ACME}/messages/${m.id}/read`, tokens[who])).status).toBe(404);
      expect((await call('PUT', `/api/${ACME}/messages/${m.id}`, tokens[who], { content: 'x' })).status).toBe(404);
      expect((await call('DELETE', `/api/${ACME}/messages/${m.id}`, tokens[who])).status).toBe(404);
    }
    // Another firm's token on this firm's path is refused; in its own firm the ids mean nothing.
    expect((await call('GET', `/api/${ACME}/conversations`, tokens.betaAdmin)).status).toBe(403);
    expect((await call('GET', `/api/${ACME}/conversations/${c.id}/messages`, tokens.betaAdmin)).status).toBe(403);
    expect((await call('GET', `/api/${BETA}/conversations/${c.id}/messages`, tokens.betaAdmin)).status).toBe(404);
    expect((await call('GET', `/api/${BETA}/users`, tokens.betaClient)).body).not.toContainEqual(expect.objectContaining({ username: `client_${ACME}` }));
  });

  it('a reply must quote a message of the same conversation', async () => {
    const a = (await start('cpa', [ids.client!])).body;
    const b = (await start('cpa', [ids.client!])).body;
    const inB = (await send('cpa', b.id, { content: 'In B' })).body;
    expect(await send('client', a.id, { content: 'Re', replyToId: inB.id })).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.replyNotInConversation } });
    expect(await send('client', a.id, { content: 'Re', replyToId: 99_999_999 })).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.replyNotInConversation } });
  });

  it('attaches only a file the sender can open', async () => {
    const form = new FormData();
    form.append('fileType', 'report');
    form.append('clientId', String(ids.own));
    form.append('reportTypeId', String(ids.reportType));
    form.append('file', new Blob(['W-2 total 42']), 'w2.txt');
    const up = await fetch(`${portal.gatewayUrl}/api/${ACME}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
    const fileId = ((await up.json()) as { files: { id: number }[] }).files[0]!.id;
    const withClient = (await start('admin', [ids.client!])).body;
    const attached = await send('admin', withClient.id, { content: 'Your W-2', fileId, fileName: 'w2.txt' });
    expect(attached.body).toMatchObject({ fileId, fileName: 'w2.txt' });
    // The recipient opens it through the files service's own checks.
    expect((await fetch(`${portal.gatewayUrl}/api/${ACME}/files/${fileId}`, { headers: { authorization: `Bearer ${tokens.client}` } })).status).toBe(200);
    const otherTalk = (await start('cpaOther', [ids.clientOther!])).body;
    expect(await send('cpaOther', otherTalk.id, { content: 'Look', fileId, fileName: 'w2.txt' })).toMatchObject({ status: 404, body: { message: 'File not found' } });
  });
});

describe('messaging: realtime and notifications', () => {
  it('refuses sockets with no token, a forged token, or a token of another firm in this firm', async () => {
    expect(await cast.socket(undefined)).toHaveProperty('error');
    expect(await cast.socket('not.a.token')).toHaveProperty('error');
    const forged = `${tokens.client!.slice(0, -4)}AAAA`;
    expect(await cast.socket(forged)).toHaveProperty('error');
    expect(await cast.socket(tokens.betaAdmin, ACME)).toEqual({ error: 'This account belongs to another firm.' });
  });

  it('pushes new, edited and deleted messages, read receipts and unread counts to the participants only', async () => {
    const clientSocket = await cast.socket(tokens.client);
    const outsiderSocket = await cast.socket(tokens.cpaOther);
    if (!('socket' in clientSocket) || !('socket' in outsiderSocket)) throw new Error('socket refused');
    const got = recorder(clientSocket.socket);
    const outsider = recorder(outsiderSocket.socket);
    const c = (await start('cpa', [ids.client!], 'Live')).body;
    await eventually(() => expect(got.some((g) => g.event === MESSAGING_PUSH.conversation && (g.payload as Conversation).id === c.id)).toBe(true));
    const m = (await send('cpa', c.id, { content: 'Ping' })).body;
    await eventually(() => expect(got).toContainEqual({ event: MESSAGING_PUSH.message, payload: { change: 'created', message: m } }));
    await eventually(async () => expect(got.filter((g) => g.event === MESSAGING_PUSH.unreadCount).at(-1)?.payload).toEqual({ count: await unread('client') }));
    const edited = (await call<Message>('PUT', `/api/${ACME}/messages/${m.id}`, tokens.cpa, { content: 'Pong' })).body;
    await eventually(() => expect(got).toContainEqual({ event: MESSAGING_PUSH.message, payload: { change: 'edited', message: edited } }));
    const cpaSocket = await cast.socket(tokens.cpa);
    if (!('socket' in cpaSocket)) throw new Error('socket refused');
    const cpaGot = recorder(cpaSocket.socket);
    await call('POST', `/api/${ACME}/messages/${m.id}/read`, tokens.client);
    await eventually(() => expect(cpaGot.some((g) => g.event === MESSAGING_PUSH.read && (g.payload as ReadReceipt).userId === ids.client)).toBe(true));
    await call('DELETE', `/api/${ACME}/messages/${m.id}`, tokens.cpa);
    await eventually(() => expect(got.some((g) => g.event === MESSAGING_PUSH.message && (g.payload as MessagePush).change === 'deleted' && (g.payload as MessagePush).message.content === null)).toBe(true));
    expect(outsider).toEqual([]);
  });

  it('notifies a recipient who is not connected once per conversation until they read it', async () => {
    const notes = async () => (await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.dta)).body.filter((n) => n.category === 'message');
    const before = (await notes()).length;
    const c = (await start('admin', [ids.dta!], 'Offline')).body;
    await send('admin', c.id, { content: 'One' });
    const two = (await send('admin', c.id, { content: 'Two' })).body;
    await eventually(async () => expect((await notes()).length).toBe(before + 1), BUS_WAIT_MS, 100);
    expect((await notes())[0]).toMatchObject({ title: `New message from admin of ${ACME}`, actionUrl: '/messages', type: 'info' });
    await call('POST', `/api/${ACME}/messages/${two.id}/read`, tokens.dta);
    await send('admin', c.id, { content: 'Three' });
    await eventually(async () => expect((await notes()).length).toBe(before + 2), BUS_WAIT_MS, 100);
    // Connected: the push is enough, no notification; in the same send, a participant who is away is notified.
    const online = await cast.socket(tokens.dta);
    if (!('socket' in online)) throw new Error('socket refused');
    const c2 = (await start('admin', [ids.dta!, ids.clientOther!], 'Online')).body;
    await send('admin', c2.id, { content: 'Seen live' });
    await eventually(async () => expect((await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.clientOther)).body.some((n) => n.metadata?.conversationId === c2.id)).toBe(true), BUS_WAIT_MS, 100);
    expect((await notes()).length).toBe(before + 2);
  });
});

describe('messaging: access changed after a conversation began', () => {
  const updateUser = (id: number, user: { username: string; fullName: string; roleId: number; clientIds: number[] | null }) =>
    call('PUT', `/api/${ACME}/users/${id}`, tokens.platform, { ...user, password: '', reportTypeIds: null });

  it('a CPA who loses the client has left its conversations: no reading, posting, reading receipts or pushes; the client sees them gone', async () => {
    await cast.user(ACME, 'cpaBoth', 3, [ids.own!, ids.other!]);
    const c = (await start('clientOther', [ids.cpaBoth!], 'Before the change')).body;
    expect(c.participantIds).toEqual([ids.clientOther, ids.cpaBoth]);
    const before = (await send('cpaBoth', c.id, { content: 'Happy to help' })).body;
    const live = await cast.socket(tokens.cpaBoth);
    if (!('socket' in live)) throw new Error('socket refused');
    const got = recorder(live.socket);

    expect((await updateUser(ids.cpaBoth!, { username: `cpaBoth_${ACME}`, fullName: `cpaBoth of ${ACME}`, roleId: 3, clientIds: [ids.own!] })).status).toBe(200);
    await eventually(async () => expect(await thread('cpaBoth', c.id)).toMatchObject({ status: 404, body: { message: MESSAGING_MESSAGES.conversationNotFound } }), BUS_WAIT_MS, 200);
    expect(await send('cpaBoth', c.id, { content: 'Still here?' })).toMatchObject({ status: 404, body: { message: MESSAGING_MESSAGES.conversationNotFound } });
    expect((await call('POST', `/api/${ACME}/messages/${before.id}/read`, tokens.cpaBoth)).status).toBe(404);
    expect((await call('PUT', `/api/${ACME}/messages/${before.id}`, tokens.cpaBoth, { content: 'edited' })).status).toBe(404);
    expect((await listOf('cpaBoth')).some((x) => x.id === c.id)).toBe(false);
    // The client keeps the conversation and sees that the CPA left; their messages reach the CPA no more.
    const seen = (await listOf('clientOther')).find((x) => x.id === c.id)!;
    expect(seen.participantIds).toEqual([ids.clientOther]);
    const after = (await send('clientOther', c.id, { content: 'Hello?' })).body;
    expect(after.content).toBe('Hello?');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(got.filter((g) => g.event === MESSAGING_PUSH.message)).toEqual([]);
    expect(await unread('cpaBoth')).toBe(0);
  });

  it('a staff user demoted to Client leaves their conversations with another client\'s user (two Client users never talk)', async () => {
    await cast.user(ACME, 'demoted', 2, null);
    const c = (await start('demoted', [ids.clientOther!], 'Demotion')).body;
    const withAdmin = (await start('admin', [ids.demoted!, ids.clientOther!], 'Group')).body;
    const live = await cast.socket(tokens.demoted);
    if (!('socket' in live)) throw new Error('socket refused');
    const got = recorder(live.socket);

    expect((await updateUser(ids.demoted!, { username: `demoted_${ACME}`, fullName: `demoted of ${ACME}`, roleId: 4, clientIds: [ids.own!] })).status).toBe(200);
    await eventually(async () => expect((await thread('demoted', c.id)).status).toBe(404), BUS_WAIT_MS, 200);
    expect((await thread('demoted', withAdmin.id)).status).toBe(404);
    expect(await send('demoted', c.id, { content: 'Client to client' })).toMatchObject({ status: 404 });
    // The other client's user keeps both conversations, without the demoted user; the Admin stays in the group.
    expect((await thread('clientOther', c.id)).status).toBe(200);
    expect((await listOf('clientOther')).find((x) => x.id === withAdmin.id)!.participantIds).toEqual([ids.admin, ids.clientOther]);
    await send('admin', withAdmin.id, { content: 'Group news' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(got.filter((g) => g.event === MESSAGING_PUSH.message)).toEqual([]);
  });

  it('starts a conversation with a user made a moment ago (identity is asked, not the events awaited)', async () => {
    const fresh = await call<{ id: number }>('POST', `/api/${ACME}/users`, tokens.platform, { username: `fresh_${suffix}`, password: 'password1', fullName: 'Fresh Hire', roleId: 3, clientIds: [ids.own!] });
    expect(fresh.status).toBe(201);
    const r = await start('client', [fresh.body.id], 'Welcome');
    expect(r.status).toBe(201);
    expect(r.body.participantIds).toEqual([ids.client, fresh.body.id]);
    // Identity's answer is checked like the read model's: a user of another client's staff only is refused.
    const stranger = await call<{ id: number }>('POST', `/api/${ACME}/users`, tokens.platform, { username: `stranger_${suffix}`, password: 'password1', fullName: 'Stranger', roleId: 3, clientIds: [ids.other!] });
    expect(await start('client', [stranger.body.id])).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.participantsNotAllowed } });

    // What the messaging service asks when its read model does not know the user yet: identity's
    // internal answer, on the service port only, with the caller's own token.
    const identity = portal.serviceUrls.get('identity')!;
    const ask = (userId: number, token: string) => fetch(`${identity}${internalUserAccessPath(userId)}`, { headers: { authorization: `Bearer ${token}`, [TENANT_HEADER]: ACME } });
    const answer = await ask(fresh.body.id, tokens.client!);
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { roleId: 3, role: 'CPA', clientIds: [ids.own], reportTypeIds: [] } });
    expect((await ask(999_999, tokens.client!)).status).toBe(404);
    expect((await ask(fresh.body.id, tokens.betaAdmin!)).status).toBe(403);
    const viaGateway = await fetch(`${portal.gatewayUrl}${internalUserAccessPath(fresh.body.id)}`, { headers: { authorization: `Bearer ${tokens.client}` } });
    expect(await viaGateway.text()).not.toContain('roleId');
  });
});

describe('messaging: notifications follow the message', () => {
  it('an edited message rewrites the notification quoting it, a deleted one removes it', async () => {
    await cast.user(ACME, 'away', 2, null);
    const notesAbout = async (messageId: number) => (await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.away)).body
      .filter((n) => n.metadata?.messageId === messageId);
    const c = (await start('admin', [ids.away!], 'Payroll')).body;
    const m = (await send('admin', c.id, { content: 'The secret figure is 98,765' })).body;
    await eventually(async () => expect((await notesAbout(m.id)).map((n) => n.message)).toEqual(['Payroll: The secret figure is 98,765']), BUS_WAIT_MS, 100);
    await call('PUT', `/api/${ACME}/messages/${m.id}`, tokens.admin, { content: 'Sent by mistake' });
    await eventually(async () => expect((await notesAbout(m.id)).map((n) => n.message)).toEqual(['Payroll: Sent by mistake']), BUS_WAIT_MS, 100);
    await call('DELETE', `/api/${ACME}/messages/${m.id}`, tokens.admin);
    await eventually(async () => expect(await notesAbout(m.id)).toEqual([]), BUS_WAIT_MS, 100);
    expect(JSON.stringify((await call('GET', `/api/${ACME}/notifications`, tokens.away)).body)).not.toContain('98,765');
  });
});

describe('message the firm (issue 40): a Client user writes with one button, the client\'s team receives it', () => {
  const messageFirm = (who: string, content: unknown, tenant = ACME) => call<Conversation>('POST', `/api/${tenant}/conversations/firm`, tokens[who], { content });
  const inbox = (who: string, tenant = ACME) => call<ClientConversation[]>('GET', `/api/${tenant}/conversations/client-inbox`, tokens[who]);
  const assign = (who: string, id: number, userId: number) => call<ClientConversation>('POST', `/api/${ACME}/conversations/${id}/assign`, tokens[who], { userId });
  let conversation: Conversation;

  beforeAll(async () => {
    // A second CPA with the client: the whole team receives it, not the first one picked.
    await cast.user(ACME, 'partner', 3, [ids.own!]);
    await eventually(async () => expect((await start('admin', [ids.partner!], 'warm-up partner')).status).toBe(201), BUS_WAIT_MS, 200);
  });

  it('goes to every staff member who has the client, and to no one else (not another client\'s CPA, not the Admins, never another firm)', async () => {
    const r = await messageFirm('client', '  Can you confirm you received my W-2?  ');
    expect(r.status).toBe(201);
    conversation = r.body;
    // Earlier suites gave the client more staff; the team is all of them, and only them.
    expect(conversation.participantIds).toEqual(expect.arrayContaining(sorted('cpa', 'partner', 'client')));
    for (const who of ['cpaOther', 'clientOther', 'admin', 'dta', 'betaAdmin']) expect(conversation.participantIds).not.toContain(ids[who]);
    expect(conversation.lastMessage).toBe('Can you confirm you received my W-2?');
    for (const who of ['cpa', 'partner']) {
      expect((await listOf(who)).map((c) => c.id)).toContain(conversation.id);
      expect((await thread(who, conversation.id)).body.map((m) => m.content)).toEqual(['Can you confirm you received my W-2?']);
    }
    for (const who of ['cpaOther', 'clientOther', 'admin', 'dta']) expect((await listOf(who)).map((c) => c.id)).not.toContain(conversation.id);
    expect((await thread('cpaOther', conversation.id)).status).toBe(404);
    expect((await call('GET', `/api/${BETA}/conversations/${conversation.id}/messages`, tokens.betaAdmin)).status).toBe(404);
    // The team is told.
    await eventually(async () => {
      const notices = (await call<Notification[]>('GET', `/api/${ACME}/notifications`, tokens.partner)).body;
      expect(notices.map((n) => n.title)).toContain(`New message from client of ${ACME}`);
    }, BUS_WAIT_MS, 300);
  });

  it('another client\'s user reaches their own client\'s team only', async () => {
    const other = (await messageFirm('clientOther', 'Hello from the other client')).body;
    expect(other.participantIds).toEqual(expect.arrayContaining(sorted('cpaOther', 'clientOther')));
    for (const who of ['cpa', 'partner', 'client', 'admin', 'dta']) expect(other.participantIds).not.toContain(ids[who]);
  });

  it('is for Client users with content; staff start conversations with chosen people as before', async () => {
    expect(await messageFirm('cpa', 'hi')).toMatchObject({ status: 403, body: { message: MESSAGING_MESSAGES.clientsOnly } });
    expect(await messageFirm('admin', 'hi')).toMatchObject({ status: 403 });
    expect(await messageFirm('client', '   ')).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.contentRequired } });
    expect((await start('cpa', [ids.client!])).status).toBe(201);
  });

  it('every Admin sees every client conversation in the inbox; a CPA or a client does not; another firm\'s Admin sees none of them', async () => {
    const seen = (await inbox('admin')).body;
    expect(seen.find((c) => c.id === conversation.id)).toMatchObject({ clientId: ids.own, createdById: ids.client, assignedToId: null, lastMessage: 'Can you confirm you received my W-2?' });
    expect(seen.every((c) => typeof c.clientId === 'number')).toBe(true);
    expect(await inbox('cpa')).toMatchObject({ status: 403, body: { message: MESSAGING_MESSAGES.adminsOnly } });
    expect((await inbox('client')).status).toBe(403);
    expect((await inbox('betaAdmin', BETA)).body.map((c) => c.id)).not.toContain(conversation.id);
  });

  it('an Admin assigns it to a staff member who has the client (who joins), or to themselves to answer; never to one without the client', async () => {
    expect(await assign('admin', conversation.id, ids.cpaOther!)).toMatchObject({ status: 400, body: { message: MESSAGING_MESSAGES.assigneeNotAllowed } });
    expect(await assign('admin', conversation.id, ids.client!)).toMatchObject({ status: 400 });
    expect((await assign('cpa', conversation.id, ids.cpa!)).status).toBe(403);
    expect((await assign('admin', 999_999, ids.cpa!)).status).toBe(404);
    expect((await call('POST', `/api/${BETA}/conversations/${conversation.id}/assign`, tokens.betaAdmin, { userId: ids.betaAdmin })).status).toBe(404);
    expect((await assign('admin', conversation.id, ids.cpa!)).body).toMatchObject({ assignedToId: ids.cpa });
    const mine = await assign('admin', conversation.id, ids.admin!);
    expect(mine.body.assignedToId).toBe(ids.admin);
    expect(mine.body.participantIds).toContain(ids.admin);
    expect((await send('admin', conversation.id, { content: 'Yes, we have it.' })).status).toBe(201);
    expect((await thread('client', conversation.id)).body.map((m) => m.content)).toEqual(['Yes, we have it.', 'Can you confirm you received my W-2?']);
  });
});
