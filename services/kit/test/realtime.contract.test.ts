import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { io as connect, type Socket } from 'socket.io-client';
import type { PortalClaims } from '../src/auth/claims.ts';
import { MemorySigningKeyStore } from '../src/auth/signing-key-store.ts';
import { createTokenIssuer } from '../src/auth/token-issuer.ts';
import type { Database } from '../src/db/database.ts';
import { migrateTenant } from '../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../src/db/test-databases.ts';
import { createLogger } from '../src/logger.ts';
import { createRealtimeHub } from '../src/realtime/realtime-hub.ts';
import { firmRoom, REALTIME_PATH, userRoom } from '../src/realtime/realtime-rooms.ts';
import { FIRMS, RT_ISSUER, startRealtimeNode, userAccess } from './fixtures/realtime-node.ts';

const NODE_FIXTURE = fileURLToPath(new URL('./fixtures/realtime-node.ts', import.meta.url));
const keyStore = new MemorySigningKeyStore();
const issuer = createTokenIssuer({ issuer: RT_ISSUER, keyStore, tokenTtlSeconds: 3600 });
const claims = (sub: string, tenant: string | null, extra: Partial<PortalClaims> = {}): PortalClaims =>
  ({ sub, username: `u${sub}`, fullName: `User ${sub}`, role: 'CPA', tenant, platformAdmin: false, ...extra });

type Outcome = { connected: true; socket: Socket } | { connected: false; message: string; kind?: string };

function open(url: string, auth: Record<string, unknown> | undefined): Promise<Outcome> {
  const socket = connect(url, { path: REALTIME_PATH, auth, transports: ['websocket'], reconnection: false, forceNew: true });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ connected: true, socket }));
    socket.once('connect_error', (err: Error & { data?: { kind?: string } }) => { socket.close(); resolve({ connected: false, message: err.message, kind: err.data?.kind }); });
  });
}
const connectOutcome = (url: string, token: string) => open(url, { token });
async function connected(url: string, token: string, tenant?: string): Promise<Socket> {
  const o = await open(url, { token, tenant });
  if (!o.connected) throw new Error(`refused: ${o.message}`);
  return o.socket;
}
const next = (socket: Socket, event: string, timeoutMs = 5000) => new Promise<unknown>((resolve, reject) => {
  const t = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
  socket.once(event, (payload: unknown) => { clearTimeout(t); resolve(payload); });
});
/** Collects every `event` a socket receives, to show what it did NOT get. */
const record = (socket: Socket, event: string) => { const got: unknown[] = []; socket.on(event, (p: unknown) => got.push(p)); return got; };
const settle = () => new Promise((r) => setTimeout(r, 300));

describe.each(databaseTargets())('realtime ($name)', (target) => {
  let scratch: TestDatabase;
  let db: Database;
  let node: Awaited<ReturnType<typeof startRealtimeNode>>;
  const sockets: Socket[] = [];
  const keep = (s: Socket) => { sockets.push(s); return s; };

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    for (const schema of ['acme', 'beta', 'later']) await migrateTenant(db, schema, [userAccess.migrations]);
    // The users the tokens name, as identity's events would have recorded them.
    const known = { roleId: 3, role: 'CPA', clientIds: [], reportTypeIds: [] };
    for (const id of [7, 8, 21, 22]) await userAccess.remember(db.forSchema('acme'), id, known, new Date().toISOString());
    await userAccess.remember(db.forSchema('beta'), 7, known, new Date().toISOString());
    for (const id of [7, 30]) await userAccess.remember(db.forSchema('later'), id, known, new Date().toISOString());
    // User 9 was deleted in identity (a tombstone in the read model).
    await userAccess.remember(db.forSchema('acme'), 9, known, new Date().toISOString());
    await db.forSchema('acme').query('UPDATE rt_user_access SET deleted = true WHERE user_id = 9');
    node = await startRealtimeNode({ db, postgresUrl: scratch.url, jwks: () => issuer.jwks() as Promise<{ keys: never[] }> });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await node?.close();
    await scratch.drop();
  });

  it('refuses a handshake without a token, with a bad one, for another firm, an inactive firm, a deleted user or an expired token', async () => {
    expect(await open(node.url, undefined)).toEqual({ connected: false, message: 'Authentication required. Please log in again.', kind: 'unauthenticated' });
    expect(await open(node.url, { token: 'not.a.token' })).toMatchObject({ connected: false, kind: 'unauthenticated' });
    const acme = await issuer.sign(claims('7', 'acme'));
    expect(await open(node.url, { token: acme, tenant: 'beta' })).toEqual({ connected: false, message: 'This account belongs to another firm.', kind: 'forbidden' });
    expect(await open(node.url, { token: await issuer.sign(claims('7', 'gone')) })).toEqual({ connected: false, message: 'Tenant not found', kind: 'not_found' });
    expect(await open(node.url, { token: await issuer.sign(claims('9', 'acme')) })).toEqual({ connected: false, message: 'Authentication required. Please log in again.', kind: 'unauthenticated' });
    const past = createTokenIssuer({ issuer: RT_ISSUER, keyStore, tokenTtlSeconds: 60, now: () => Date.now() - 3_600_000 });
    expect(await open(node.url, { token: await past.sign(claims('7', 'acme')) })).toMatchObject({ connected: false, kind: 'unauthenticated' });
  });

  it('joins each socket to its user and firm rooms: an emit reaches that user, the firm, and nobody else', async () => {
    const alice = keep(await connected(node.url, await issuer.sign(claims('7', 'acme'))));
    const bob = keep(await connected(node.url, await issuer.sign(claims('8', 'acme'))));
    const sameIdOtherFirm = keep(await connected(node.url, await issuer.sign(claims('7', 'beta'))));
    const admin = keep(await connected(node.url, await issuer.sign(claims('7', null, { platformAdmin: true, role: 'Admin' })), 'acme'));
    const bobGot = record(bob, 'ping');
    const otherGot = record(sameIdOtherFirm, 'ping');
    const adminGot = record(admin, 'ping');
    const got = next(alice, 'ping');
    node.hub.emitter.emit(userRoom('acme', 7), 'ping', { n: 1 });
    expect(await got).toEqual({ n: 1 });
    const all = [next(alice, 'firm'), next(bob, 'firm'), next(admin, 'firm')];
    node.hub.emitter.emit(firmRoom('acme'), 'firm', { n: 2 });
    expect(await Promise.all(all)).toEqual([{ n: 2 }, { n: 2 }, { n: 2 }]);
    node.hub.emitter.emit(userRoom('acme', -7), 'ping', { n: 3 });
    await settle();
    expect(bobGot).toEqual([]);
    expect(otherGot).toEqual([]);
    // A platform administrator is user -7 in the firm's rooms, never firm user 7.
    expect(adminGot).toEqual([{ n: 3 }]);
  });

  it('cuts a connected socket once its firm is deactivated or its user deleted', async () => {
    const later = FIRMS.find((f) => f.shortName === 'later')!;
    try {
      const firmGoes = keep(await connected(node.url, await issuer.sign(claims('7', 'later'))));
      const userGoes = keep(await connected(node.url, await issuer.sign(claims('30', 'later'))));
      const firmCut = new Promise((resolve) => firmGoes.once('disconnect', resolve));
      await db.forSchema('later').query('UPDATE rt_user_access SET deleted = true WHERE user_id = 30');
      await new Promise((resolve) => userGoes.once('disconnect', resolve));
      expect(firmGoes.connected).toBe(true);
      // As the next poll of identity's firm list would bring it.
      later.isActive = false;
      await firmCut;
      expect(firmGoes.connected).toBe(false);
    } finally {
      later.isActive = true; // the firm list is shared by both database targets
    }
  });

  it('cuts a connected socket once its user\'s role or access lists change, as it does a deletion', async () => {
    const known = { roleId: 3, role: 'CPA', clientIds: [1, 2], reportTypeIds: [] };
    for (const id of [40, 41, 42]) await userAccess.remember(db.forSchema('acme'), id, known, new Date().toISOString());
    const listed = keep(await connected(node.url, await issuer.sign(claims('40', 'acme'))));
    const demoted = keep(await connected(node.url, await issuer.sign(claims('41', 'acme'))));
    const unchanged = keep(await connected(node.url, await issuer.sign(claims('42', 'acme'))));
    const cut = (s: Socket) => new Promise((resolve) => s.once('disconnect', resolve));
    const cuts = [cut(listed), cut(demoted)];
    await db.forSchema('acme').query('UPDATE rt_user_access SET client_ids = $1 WHERE user_id = 40', [[1]]);
    await db.forSchema('acme').query(`UPDATE rt_user_access SET role = 'Client' WHERE user_id = 41`);
    await Promise.all(cuts);
    await settle();
    expect(unchanged.connected).toBe(true);
    // Let in again, with what they may see now.
    expect(await open(node.url, { token: await issuer.sign(claims('41', 'acme')) })).toMatchObject({ connected: true });
  });

  it('closes the transport of a refused CONNECT at once, instead of keeping the session until its ping times out', async () => {
    const ws = new WebSocket(`${node.url.replace('http', 'ws')}${REALTIME_PATH}/?EIO=4&transport=websocket`);
    const frames: string[] = [];
    const closed = new Promise<number>((resolve) => ws.addEventListener('close', () => resolve(Date.now())));
    ws.addEventListener('message', (m: MessageEvent) => {
      frames.push(String(m.data));
      if (String(m.data).startsWith('0')) ws.send('40{"token":"not.a.token"}');
    });
    const started = Date.now();
    const ended = await Promise.race([closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))]);
    ws.close();
    expect(frames.some((f) => /^44\{"message":"[^"]*authentication/i.test(f))).toBe(true);
    expect(ended).not.toBeNull();
    expect(ended! - started).toBeLessThan(5000);
  });

  if (target.name === 'postgres') {
    it('reaches sockets on another replica in another process, through the PostgreSQL adapter, also from a process that holds no sockets', async () => {
      const child: ChildProcess = spawn(process.execPath, [NODE_FIXTURE], {
        env: { ...process.env, DATABASE_URL: scratch.url, JWKS: JSON.stringify(await issuer.jwks()) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      try {
        const otherUrl = await new Promise<string>((resolve, reject) => {
          child.stdout!.on('data', (c: Buffer) => { const m = /listening (\S+)/.exec(c.toString()); if (m) resolve(m[1]!); });
          child.once('exit', (code) => reject(new Error(`replica exited with ${code}`)));
        });
        const here = keep(await connected(node.url, await issuer.sign(claims('21', 'acme'))));
        const there = keep(await connected(otherUrl, await issuer.sign(claims('21', 'acme'))));
        const thereOther = keep(await connected(otherUrl, await issuer.sign(claims('22', 'acme'))));
        const otherGot = record(thereOther, 'note');
        const both = [next(here, 'note'), next(there, 'note')];
        node.hub.emitter.emit(userRoom('acme', 21), 'note', { text: 'hello' });
        expect(await Promise.all(both)).toEqual([{ text: 'hello' }, { text: 'hello' }]);
        // Larger than NOTIFY carries: goes through the attachments table.
        const big = { text: 'x'.repeat(20_000) };
        const bigThere = next(there, 'note');
        node.hub.emitter.emit(userRoom('acme', 21), 'note', big);
        expect(await bigThere).toEqual(big);
        // A service in a process of its own (no endpoint there) emits through its hub alike.
        const headless = await createRealtimeHub({ postgresUrl: scratch.url, logger: createLogger('headless', 'silent') });
        try {
          const fromHeadless = [next(here, 'note'), next(there, 'note')];
          headless.emitter.emit(userRoom('acme', 21), 'note', { text: 'from elsewhere' });
          expect(await Promise.all(fromHeadless)).toEqual([{ text: 'from elsewhere' }, { text: 'from elsewhere' }]);
        } finally {
          await headless.close();
        }
        await settle();
        expect(otherGot).toEqual([]);
      } finally {
        child.kill('SIGTERM');
      }
    });
  }

  it('closes every socket and refuses new ones at shutdown (open websockets would keep the server from closing)', async () => {
    const open = keep(await connected(node.url, await issuer.sign(claims('8', 'acme'))));
    const ended = new Promise((resolve) => open.once('disconnect', resolve));
    node.hub.closeConnections();
    await ended;
    expect(await connectOutcome(node.url, await issuer.sign(claims('8', 'acme')))).toMatchObject({ connected: false });
  });
});
