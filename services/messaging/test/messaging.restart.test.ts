import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { io as connect, type Socket } from 'socket.io-client';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { brokerProxy, type BrokerProxy } from '@ledgerline/kit/testing/broker-proxy.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { adminLogin, apiClient, createSignedInUser, portalTestEnv } from '@ledgerline/server/portal-harness.ts';
import { startPortal, type RunningPortal } from '@ledgerline/server/portal.ts';
import type { Conversation, Message, MessagePush } from '@ledgerline/contracts/messaging.contracts.ts';
import { MESSAGING_PUSH } from '@ledgerline/contracts/messaging.constants.ts';
import type { Notification } from '@ledgerline/contracts/notifications.contracts.ts';

/*
 * Messaging across replicas and through a broker outage, on the real servers: two portals on
 * one PostgreSQL database and broker namespace — A runs everything (the gateway and the
 * realtime endpoint), B only the messaging service — so a message sent through B reaches a
 * socket connected to A (the postgres adapter). The broker is reached through a TCP proxy
 * whose cut is a broker restart as the services see it (the shared broker itself keeps
 * running for other suites): messages sent while it is down are all stored and delivered,
 * and the notification they request is published once it is back.
 */
const postgresUrl = realServerUrl('POSTGRES_URL');
const amqpUrl = realServerUrl('AMQP_URL');
const BUS_WAIT_MS = 30_000;
const suite = postgresUrl && amqpUrl ? describe : describe.skip;

suite('messaging: two replicas and a broker outage (PostgreSQL, RabbitMQ)', () => {
  const FIRM = `replica${randomBytes(3).toString('hex')}`;
  let scratch: { url: string; drop(): Promise<void> };
  let proxy: BrokerProxy;
  let a: RunningPortal;
  let b: RunningPortal;
  let call: ReturnType<typeof apiClient>;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const sockets: Socket[] = [];

  /** Straight to replica B's messaging service, as the gateway would send it. */
  const sendViaB = async (conversationId: number, content: string): Promise<Message> => {
    const r = await fetch(`${b.serviceUrls.get('messaging')}/api/conversations/${conversationId}/messages`, {
      method: 'POST', headers: { authorization: `Bearer ${tokens.admin}`, [TENANT_HEADER]: FIRM, 'content-type': 'application/json' }, body: JSON.stringify({ content }),
    });
    expect(r.status).toBe(201);
    return (await r.json()) as Message;
  };

  beforeAll(async () => {
    scratch = await createScratchDatabase(postgresUrl!);
    proxy = await brokerProxy(amqpUrl!);
    const shared = { POSTGRES_URL: scratch.url, AMQP_URL: proxy.url, BUS_NAMESPACE: `test-${randomBytes(4).toString('hex')}` };
    a = await startPortal({ env: portalTestEnv(shared) });
    b = await startPortal({
      target: 'messaging',
      env: portalTestEnv({ ...shared, IDENTITY_SERVICE_URL: a.serviceUrls.get('identity')!, FILES_SERVICE_URL: a.serviceUrls.get('files')! }),
    });
    call = apiClient(a.gatewayUrl!);
    const platform = ((await (await adminLogin(a.gatewayUrl!)).json()) as { token: string }).token;
    expect((await call('POST', '/api/companies', platform, { name: 'Replica Tax', shortName: FIRM })).status).toBe(201);
    const clientId = (await call<{ id: number }>('POST', `/api/${FIRM}/clients`, platform, { name: 'Replica Client', address: '1 Main Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: 'r@example.com' })).body.id;
    for (const [who, roleId, clients] of [['admin', 1, null], ['dta', 2, null], ['client', 4, [clientId]]] as const) {
      const u = await createSignedInUser(call, platform, FIRM, { username: `${who}_${FIRM}`, fullName: `${who} of ${FIRM}`, roleId, clientIds: clients ? [...clients] : null, reportTypeIds: null });
      ids[who] = u.id;
      tokens[who] = u.token;
    }
  }, 180_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await b?.stop();
    await a?.stop();
    await proxy?.close();
    await scratch?.drop();
  });

  it('delivers a message sent through one replica to a socket connected to the other', async () => {
    let conversation!: Conversation;
    await eventually(async () => {
      const r = await call<Conversation>('POST', `/api/${FIRM}/conversations`, tokens.admin, { title: 'Across replicas', participantIds: [ids.client] });
      expect(r.status).toBe(201);
      conversation = r.body;
    }, BUS_WAIT_MS, 200);
    const socket = connect(a.gatewayUrl!, { path: '/socket.io', auth: { token: tokens.client }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => { socket.once('connect', () => resolve()); socket.once('connect_error', reject); });
    const pushed: MessagePush[] = [];
    socket.on(MESSAGING_PUSH.message, (p: MessagePush) => pushed.push(p));
    const sent = await sendViaB(conversation.id, 'Sent through replica B');
    await eventually(() => expect(pushed).toContainEqual({ change: 'created', message: sent }), 10_000);
  });

  it('loses no message and no notification when the broker goes down mid-flight', async () => {
    let conversation!: Conversation;
    await eventually(async () => {
      const r = await call<Conversation>('POST', `/api/${FIRM}/conversations`, tokens.admin, { title: 'Through an outage', participantIds: [ids.dta] });
      expect(r.status).toBe(201);
      conversation = r.body;
    }, BUS_WAIT_MS, 200);
    proxy.cut();
    const sent: Message[] = [];
    // Both replicas take messages while the broker is away (the DTA has no socket: a notification is due).
    for (let i = 0; i < 6; i++) {
      sent.push(i % 2 ? await sendViaB(conversation.id, `During the outage ${i}`) : (await call<Message>('POST', `/api/${FIRM}/conversations/${conversation.id}/messages`, tokens.admin, { content: `During the outage ${i}` })).body);
    }
    expect(sent.every((m) => m.id > 0)).toBe(true);
    const notesOf = async () => (await call<Notification[]>('GET', `/api/${FIRM}/notifications`, tokens.dta)).body.filter((n) => n.metadata?.conversationId === conversation.id);
    // Requested, but it cannot have crossed the broker yet.
    expect(await notesOf()).toEqual([]);
    proxy.restore();
    const thread = await call<Message[]>('GET', `/api/${FIRM}/conversations/${conversation.id}/messages`, tokens.dta);
    expect(thread.body.map((m) => m.id).sort((x, y) => x - y)).toEqual(sent.map((m) => m.id).sort((x, y) => x - y));
    // The one notification of the conversation, published once the broker is back.
    await eventually(async () => expect(await notesOf()).toHaveLength(1), BUS_WAIT_MS, 300);
  }, 120_000);
});
