import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newEvent, type EventEnvelope } from '@ledgerline/kit/bus/bus.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { SERVICE_MODULES } from '@ledgerline/server/targets.ts';
import { ADMIN_DASHBOARD_LIMITS, FILE_CHATTED, type ActivityLog, type AdminAnalytics, type ClientEngagementDetails, type DashboardOverview, type FileChattedEvent, type UserActivityDetails } from '@ledgerline/contracts/activity.contracts.ts';
import { ACTIVITY_ACTIONS, DASHBOARD_LIMITS } from '@ledgerline/contracts/activity.constants.ts';
import { FILE_DELETED, FILE_UPLOADED, SYSTEM_ACTOR, type FileDeletedEvent, type FileEvent, type FileType } from '@ledgerline/contracts/files.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

/** Events and access changes reach the activity service through the bus (RabbitMQ in CI). */
const BUS_WAIT_MS = 10_000;
/** Lets deliveries already under way finish, so "nothing changed" is meaningful. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const suffix = randomBytes(3).toString('hex');
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const GAMMA = `gamma${suffix}`;
const firmName = (shortName: string) => `${shortName} Tax`;
const u = (name: string) => `${name}_${suffix}`;
const fullName = (tenant: string, who: string) => `${who} of ${tenant}`;

const publish = (...events: EventEnvelope[]) => portal.bus!.publish(events);

// Synthetic file ids: the activity service only knows files from events, and each firm has its own ids.
let nextFileId = 7000;
const files: Record<string, FileEvent> = {};
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000).toISOString();

function fileEvent(tenant: string, who: string, name: string, fields: { clientId: number | null; clientName: string | null; fileType: FileType; reportTypeId?: number | null; size?: number; id?: number; uploadedAt?: string }): FileEvent {
  const uploadedAt = fields.uploadedAt ?? secondsAgo(60);
  return {
    id: fields.id ?? nextFileId++, originalName: name, mimeType: 'application/pdf', size: fields.size ?? 1024,
    clientId: fields.clientId, clientName: fields.clientName, fileType: fields.fileType, documentType: fields.fileType === 'firm_document' ? 'other' : null,
    reportTypeId: fields.reportTypeId ?? null, reportTypeName: null,
    uploadedById: ids[`${tenant}_${who}`]!, uploaderName: fullName(tenant, who), uploadedAt, createdAt: uploadedAt,
  };
}

const deletedEvent = (tenant: string, who: string, f: FileEvent): FileDeletedEvent =>
  ({ ...f, deletedById: ids[`${tenant}_${who}`]!, deletedByName: fullName(tenant, who), deletedAt: new Date().toISOString() });

async function createUser(tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null): Promise<void> {
  const user = await createSignedInUser(call, tokens.platform!, tenant, { username: u(`${tenant}_${who}`), fullName: fullName(tenant, who), roleId, clientIds, reportTypeIds });
  ids[`${tenant}_${who}`] = user.id;
  tokens[`${tenant}_${who}`] = user.token;
}

async function createClient(tenant: string, name: string): Promise<number> {
  const r = await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, testClient(name));
  expect(r.status).toBe(201);
  return r.body.id;
}

const view = (tenant: string, who: string, file: FileEvent, action: 'view' | 'download' = 'view') =>
  call<ActivityLog>('POST', `/api/${tenant}/activity-logs`, tokens[`${tenant}_${who}`], { action, fileId: file.id });

/** Every entry of a firm, as its Admin sees them. */
const allEntries = async (tenant: string) =>
  (await call<ActivityLog[]>('GET', `/api/${tenant}/activity-logs?limit=1000`, tokens.platform)).body;
const dashboardOf = async (tenant: string, token: string) => {
  const r = await call<DashboardOverview>('GET', `/api/${tenant}/dashboard`, token);
  expect(r.status).toBe(200);
  return r.body;
};

const OWN = () => ids['Own Client']!;
const OTHER = () => ids['Other Client']!;

beforeAll(async () => {
  portal = await startTestPortal();
  expect(portal.bus).not.toBeNull();
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  ids.platform = Number(JSON.parse(Buffer.from(portal.adminToken.split('.')[1]!, 'base64url').toString()).sub);
  for (const shortName of [ACME, BETA, GAMMA]) {
    const r = await call<Company>('POST', '/api/companies', tokens.platform, { name: firmName(shortName), shortName });
    expect(r.status).toBe(201);
    ids[shortName] = r.body.id;
  }
  ids['Own Client'] = await createClient(ACME, 'Own Client');
  ids['Other Client'] = await createClient(ACME, 'Other Client');
  ids['Beta Client'] = await createClient(BETA, 'Beta Client');
  for (const name of ['Audit', 'Payroll']) {
    const r = await call<ReportType>('POST', `/api/${ACME}/report-types`, tokens.platform, { name });
    ids[name] = r.body.id;
  }
  await createUser(ACME, 'admin', 1, null, null);
  await createUser(ACME, 'dta', 2, null, null);
  await createUser(ACME, 'cpa', 3, [OWN()], [ids.Audit!]);
  await createUser(ACME, 'cpaNone', 3, [], []);
  // A Client user's first id is their client; the second must not widen their reach.
  await createUser(ACME, 'client', 4, [OWN(), OTHER()], null);
  await createUser(ACME, 'otherClient', 4, [OTHER()], null);
  await createUser(BETA, 'admin', 1, null, null);
  await createUser(BETA, 'client', 4, [ids['Beta Client']!], null);
  await createUser(BETA, 'quiet', 2, null, null);
  await createUser(GAMMA, 'admin', 1, null, null);

  files.ownAudit = fileEvent(ACME, 'admin', 'Own audit 2024.pdf', { clientId: OWN(), clientName: 'Own Client', fileType: 'report', reportTypeId: ids.Audit, size: 1_500_000, uploadedAt: secondsAgo(50) });
  files.ownPayroll = fileEvent(ACME, 'admin', 'Own payroll march.pdf', { clientId: OWN(), clientName: 'Own Client', fileType: 'report', reportTypeId: ids.Payroll, uploadedAt: secondsAgo(40) });
  files.otherDoc = fileEvent(ACME, 'dta', 'Other incorporation.pdf', { clientId: OTHER(), clientName: 'Other Client', fileType: 'company_document', uploadedAt: secondsAgo(30) });
  files.firmDoc = fileEvent(ACME, 'admin', 'Firm licence.pdf', { clientId: null, clientName: null, fileType: 'firm_document', uploadedAt: secondsAgo(20) });
  files.ownDoc = fileEvent(ACME, 'admin', 'Own bylaws.pdf', { clientId: OWN(), clientName: 'Own Client', fileType: 'company_document', uploadedAt: secondsAgo(10) });
  // The same file id in another firm is another file.
  files.betaFile = fileEvent(BETA, 'admin', 'Beta ledger.pdf', { id: files.ownAudit.id, clientId: ids['Beta Client']!, clientName: 'Beta Client', fileType: 'report', size: 2048 });
  files.gammaFile = fileEvent(GAMMA, 'admin', 'Gamma secret.pdf', { clientId: null, clientName: null, fileType: 'firm_document', size: 999_999_999 });
  await publish(
    ...['ownAudit', 'ownPayroll', 'otherDoc', 'firmDoc', 'ownDoc'].map((k) => newEvent(FILE_UPLOADED, ACME, files[k])),
    newEvent(FILE_UPLOADED, BETA, files.betaFile), newEvent(FILE_UPLOADED, GAMMA, files.gammaFile),
  );
  await eventually(async () => {
    expect((await allEntries(ACME)).length).toBe(5);
    expect((await allEntries(BETA)).length).toBe(1);
    expect((await allEntries(GAMMA)).length).toBe(1);
  }, BUS_WAIT_MS);
  // Access lists reach the activity service as events: wait until its read model has them.
  await eventually(async () => {
    for (const [who, clientId] of [['cpa', OWN()], ['client', OWN()], ['otherClient', OTHER()]] as const) {
      expect((await call('GET', `/api/${ACME}/dashboard/clients/${clientId}/engagement`, tokens[`${ACME}_${who}`])).status).toBe(200);
    }
    expect((await call('GET', `/api/${ACME}/dashboard/clients/${OTHER()}/engagement`, tokens[`${ACME}_client`])).status).toBe(404);
  }, BUS_WAIT_MS);

  for (const [who, file, action] of [
    ['cpa', 'ownAudit', 'view'], ['cpa', 'firmDoc', 'view'], ['client', 'ownAudit', 'download'],
    ['otherClient', 'otherDoc', 'view'], ['cpaNone', 'firmDoc', 'view'], ['admin', 'ownPayroll', 'view'],
  ] as const) {
    expect((await view(ACME, who, files[file]!, action)).status).toBe(201);
  }
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

type Actor = 'platform' | 'admin' | 'dta' | 'cpa' | 'cpaNone' | 'client' | 'otherClient' | 'betaAdmin' | 'betaClient';
const tokenOf = (a: Actor) => (a === 'platform' ? tokens.platform!
  : a === 'betaAdmin' ? tokens[`${BETA}_admin`]! : a === 'betaClient' ? tokens[`${BETA}_client`]! : tokens[`${ACME}_${a}`]!);
const ACME_ACTORS: Actor[] = ['platform', 'admin', 'dta', 'cpa', 'cpaNone', 'client', 'otherClient'];
const OTHER_FIRM: Actor[] = ['betaAdmin', 'betaClient'];
const userIdOf = (a: Actor) => (a === 'platform' ? -ids.platform! : ids[`${ACME}_${a}`]!);

/**
 * The rule for the counts of activity entries (dashboard totals, action counts): by client
 * and own entries (docs/api/authorization.md). Counts name nothing.
 */
const counts = (a: Actor, e: ActivityLog): boolean => {
  switch (a) {
    case 'platform': case 'admin': case 'dta': return true;
    case 'cpa': return e.clientId === OWN() || e.userId === userIdOf('cpa');
    case 'cpaNone': return e.userId === userIdOf('cpaNone');
    case 'client': return e.clientId === OWN();
    case 'otherClient': return e.clientId === OTHER();
    default: return false;
  }
};

/**
 * The rule for the entries listed: the same, but a CPA does not read the entries about a report
 * of a type outside their list (Payroll): its name is as hidden as the file (issue 38).
 */
const sees = (a: Actor, e: ActivityLog): boolean => {
  switch (a) {
    case 'platform': case 'admin': case 'dta': return true;
    case 'cpa': return counts(a, e) && e.fileId !== files.ownPayroll!.id;
    case 'cpaNone': return e.userId === userIdOf('cpaNone');
    case 'client': return e.clientId === OWN();
    case 'otherClient': return e.clientId === OTHER();
    default: return false;
  }
};

describe('recording views and downloads (POST activity-logs)', () => {
  it('records the caller, the file and its client, with the token\'s full name', async () => {
    const r = await call<ActivityLog>('POST', `/api/${ACME}/activity-logs`, tokens[`${ACME}_cpa`], { action: 'download', fileId: files.ownAudit!.id, details: '  Downloaded for the audit  ' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number), action: 'download', fileId: files.ownAudit!.id, fileName: 'Own audit 2024.pdf',
      userId: ids[`${ACME}_cpa`], userName: fullName(ACME, 'cpa'), clientId: OWN(), clientName: 'Own Client',
      details: 'Downloaded for the audit', timestamp: expect.any(String), fileDeleted: false, address: null, userAgent: null,
    });
    expect(Math.abs(Date.parse(r.body.timestamp) - Date.now())).toBeLessThan(60_000);
    expect((await allEntries(ACME))[0]).toEqual(r.body);
  });

  it('works in the plain form too, in the token\'s firm', async () => {
    const r = await call<ActivityLog>('POST', '/api/activity-logs', tokens[`${ACME}_admin`], { action: 'view', fileId: String(files.otherDoc!.id) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ action: 'view', fileId: files.otherDoc!.id, clientId: OTHER(), userName: fullName(ACME, 'admin'), details: null });
  });

  it('records a platform administrator under a negative id, never as a firm user with the same number', async () => {
    const r = await call<ActivityLog>('POST', `/api/${ACME}/activity-logs`, tokens.platform, { action: 'view', fileId: files.firmDoc!.id });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ userId: -ids.platform!, userName: 'Platform Administrator', clientId: null });
    const mine = await call<UserActivityDetails>('GET', `/api/${ACME}/dashboard/users/${-ids.platform!}/activity`, tokens[`${ACME}_admin`]);
    expect(mine.body).toMatchObject({ userId: -ids.platform!, userName: 'Platform Administrator', totalActions: 1 });
    expect(mine.body.recent.map((e) => e.id)).toEqual([r.body.id]);
  });

  it.each([
    [{ action: 'edit', fileId: 1 }, 'Action must be view or download'],
    [{ fileId: 1 }, 'Action must be view or download'],
    [{ action: 'upload', fileId: 1 }, 'Action must be view or download'],
    [{ action: 'view' }, 'fileId is required'],
    [{ action: 'view', fileId: 'abc' }, 'fileId is required'],
    [{ action: 'view', fileId: 0 }, 'fileId is required'],
    [{ action: 'view', fileId: -4 }, 'fileId is required'],
  ])('rejects %j with "%s"', async (body, message) => {
    expect(await call('POST', `/api/${ACME}/activity-logs`, tokens[`${ACME}_admin`], body)).toMatchObject({ status: 400, body: { message } });
  });

  it('rejects over-long details, a non-JSON body and a missing token with 4xx messages', async () => {
    const long = await call('POST', `/api/${ACME}/activity-logs`, tokens[`${ACME}_admin`], { action: 'view', fileId: files.ownAudit!.id, details: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(typeof (long.body as { message?: unknown }).message).toBe('string');
    const raw = await fetch(`${portal.gatewayUrl}/api/${ACME}/activity-logs`, {
      method: 'POST', headers: { authorization: `Bearer ${tokens[`${ACME}_admin`]}`, 'content-type': 'application/json' }, body: '{"action":',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ message: expect.any(String) });
    expect((await call('POST', `/api/${ACME}/activity-logs`, null, { action: 'view', fileId: 1 })).status).toBe(401);
  });

  it.each([
    ['an unknown file', 'admin', (): number => 999_999],
    ['a report of a report type outside a CPA\'s list', 'cpa', (): number => files.ownPayroll!.id],
    ['another client\'s file, for a CPA', 'cpa', (): number => files.otherDoc!.id],
    ['any client\'s file, for a CPA without access', 'cpaNone', (): number => files.ownAudit!.id],
    ['another client\'s file, for a Client user (even their second listed client)', 'client', (): number => files.otherDoc!.id],
    ['a firm document, for a Client user', 'client', (): number => files.firmDoc!.id],
    ['the own client\'s file, for another client\'s user', 'otherClient', (): number => files.ownAudit!.id],
  ] as const)('answers 404 \'File not found\' for %s', async (_what, who, fileId) => {
    expect(await call('POST', `/api/${ACME}/activity-logs`, tokens[`${ACME}_${who}`], { action: 'view', fileId: fileId() }))
      .toEqual({ status: 404, body: { message: 'File not found' } });
  });

  it('keeps firms apart: another firm\'s token is refused, and the same file id names its own firm\'s file', async () => {
    expect(await call('POST', `/api/${ACME}/activity-logs`, tokens[`${BETA}_admin`], { action: 'view', fileId: files.ownAudit!.id }))
      .toEqual({ status: 403, body: { message: 'This account belongs to another firm.' } });
    const own = await call<ActivityLog>('POST', '/api/activity-logs', tokens[`${BETA}_client`], { action: 'view', fileId: files.ownAudit!.id });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ fileName: 'Beta ledger.pdf', clientName: 'Beta Client' });
    expect((await allEntries(ACME)).map((e) => e.fileName)).not.toContain('Beta ledger.pdf');
  });
});

describe('who sees which entries (GET activity-logs)', () => {
  it.each(ACME_ACTORS.map((a) => [a]))('%s sees exactly the entries of its rule, newest first, plain and tenant form', async (actor) => {
    const all = await allEntries(ACME);
    const expected = all.filter((e) => sees(actor as Actor, e));
    const r = await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs?limit=1000`, tokenOf(actor as Actor));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(expected);
    const times = r.body.map((e) => Date.parse(e.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    if (actor !== 'platform') expect((await call('GET', '/api/activity-logs?limit=1000', tokenOf(actor as Actor))).body).toEqual(expected);
  });

  it('gives each role a distinct, non-trivial view of the same firm', async () => {
    const count = async (a: Actor) => (await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs?limit=1000`, tokenOf(a))).body.length;
    const total = await count('admin');
    expect(await count('dta')).toBe(total);
    expect(await count('cpa')).toBeGreaterThan(0);
    expect(await count('cpa')).toBeLessThan(total);
    expect(await count('cpaNone')).toBe(1);
    expect(await count('client')).toBeGreaterThan(0);
    expect(await count('otherClient')).toBeGreaterThan(0);
    // A CPA's own entry about a file without a client is theirs; a Client user never sees it.
    const cpa = (await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs`, tokenOf('cpa'))).body;
    expect(cpa.some((e) => e.clientId === null && e.userId === userIdOf('cpa'))).toBe(true);
    expect(cpa.some((e) => e.clientId === null && e.userId !== userIdOf('cpa'))).toBe(false);
  });

  it.each(OTHER_FIRM.map((a) => [a]))('%s of another firm is refused, and its own firm shows none of these entries', async (actor) => {
    expect(await call('GET', `/api/${ACME}/activity-logs`, tokenOf(actor as Actor))).toEqual({ status: 403, body: { message: 'This account belongs to another firm.' } });
    const own = await call<ActivityLog[]>('GET', '/api/activity-logs', tokenOf(actor as Actor));
    expect(own.status).toBe(200);
    expect(own.body.length).toBeGreaterThan(0);
    expect(own.body.every((e) => e.fileName === 'Beta ledger.pdf')).toBe(true);
  });

  it('needs a token, and a firm for a platform administrator', async () => {
    expect((await call('GET', `/api/${ACME}/activity-logs`)).status).toBe(401);
    expect(await call('GET', '/api/activity-logs', tokens.platform)).toEqual({ status: 400, body: { message: 'Select a tenant first.' } });
  });

  it('filters by action, file, client and user, and limits', async () => {
    const all = await allEntries(ACME);
    const q = async (query: string, who: Actor = 'admin') => (await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs?${query}`, tokenOf(who))).body;
    expect(await q('action=upload')).toEqual(all.filter((e) => e.action === 'upload'));
    expect(await q(`fileId=${files.ownAudit!.id}`)).toEqual(all.filter((e) => e.fileId === files.ownAudit!.id));
    expect(await q(`clientId=${OTHER()}`)).toEqual(all.filter((e) => e.clientId === OTHER()));
    expect(await q(`userId=${ids[`${ACME}_dta`]}&action=upload`)).toEqual(all.filter((e) => e.userId === ids[`${ACME}_dta`] && e.action === 'upload'));
    expect(await q('limit=2')).toEqual(all.slice(0, 2));
    // A filter never widens the caller's reach.
    expect(await q(`clientId=${OTHER()}`, 'cpa')).toEqual(all.filter((e) => e.clientId === OTHER() && e.userId === userIdOf('cpa')));
    expect(await q(`clientId=${OTHER()}`, 'client')).toEqual([]);
  });

  it.each(['action=edit', 'limit=0', 'limit=1001', 'fileId=abc', 'clientId=-1', 'userId=1.5'])('rejects the query %s with a 400 message', async (query) => {
    const r = await call('GET', `/api/${ACME}/activity-logs?${query}`, tokens[`${ACME}_admin`]);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message: expect.any(String) });
  });
});

describe('tenant dashboard (GET dashboard)', () => {
  const docs = (d: DashboardOverview) => Object.fromEntries(d.documentsByType.map((x) => [x.fileType, x.count]));

  it('shows the whole firm to Admin, DTA and platform administrators, consistent with the log', async () => {
    const all = await allEntries(ACME);
    for (const who of ['platform', 'admin', 'dta'] as const) {
      const d = await dashboardOf(ACME, tokenOf(who));
      expect(d.totalDocuments).toBe(5);
      expect(docs(d)).toEqual({ report: 2, company_document: 2, firm_document: 1 });
      expect(d.totalActivities).toBe(all.length);
      expect(d.totalClients).toBe(2);
      expect(d.actionCounts.map((a) => a.action)).toEqual([...ACTIVITY_ACTIONS]);
      for (const a of d.actionCounts) expect(a.count).toBe(all.filter((e) => e.action === a.action).length);
      expect(d.activeUsers).toBe(new Set(all.map((e) => e.userId)).size);
      expect(d.recentFiles.map((f) => f.fileName)).toEqual(['Own bylaws.pdf', 'Firm licence.pdf', 'Other incorporation.pdf', 'Own payroll march.pdf', 'Own audit 2024.pdf']);
      expect(d.recentFiles[4]).toEqual({
        fileId: files.ownAudit!.id, fileName: 'Own audit 2024.pdf', clientId: OWN(), clientName: 'Own Client', fileType: 'report',
        size: 1_500_000, uploaderName: fullName(ACME, 'admin'), uploadedAt: files.ownAudit!.uploadedAt,
      });
    }
  });

  it('ranks clients by activities, files by views + downloads + chats and users by actions, with the log\'s figures', async () => {
    const all = await allEntries(ACME);
    const d = await dashboardOf(ACME, tokens[`${ACME}_admin`]!);
    const ofClient = (id: number) => all.filter((e) => e.clientId === id);
    expect(d.topClients).toEqual([OWN(), OTHER()].map((clientId) => ({
      clientId, clientName: clientId === OWN() ? 'Own Client' : 'Other Client', documents: clientId === OWN() ? 3 : 1,
      activities: ofClient(clientId).length, lastActivityAt: ofClient(clientId)[0]!.timestamp,
    })).sort((a, b) => b.activities - a.activities));
    const fileTotals = (id: number) => {
      const of = (action: string) => all.filter((e) => e.fileId === id && e.action === action).length;
      return { views: of('view'), downloads: of('download'), chats: of('chat') };
    };
    expect(d.topFiles.length).toBe(4);
    for (const f of d.topFiles) expect(f).toMatchObject({ ...fileTotals(f.fileId), total: f.views + f.downloads + f.chats });
    expect(d.topFiles.map((f) => f.total)).toEqual(d.topFiles.map((f) => f.total).sort((a, b) => b - a));
    expect(d.topFiles[0]).toMatchObject({ fileName: 'Own audit 2024.pdf', clientName: 'Own Client' });
    const byUser = new Map<number, number>();
    for (const e of all) byUser.set(e.userId, (byUser.get(e.userId) ?? 0) + 1);
    expect(d.topUsers.length).toBe(byUser.size);
    for (const row of d.topUsers) {
      expect(row.actions).toBe(byUser.get(row.userId));
      expect(row.lastActiveAt).toBe(all.find((e) => e.userId === row.userId)!.timestamp);
      expect(row.userName).toBe(all.find((e) => e.userId === row.userId)!.userName);
    }
    expect(d.topUsers.map((row) => row.actions)).toEqual(d.topUsers.map((row) => row.actions).sort((a, b) => b - a));
  });

  it('charts the last 30 UTC days, oldest first, zero-filled', async () => {
    const d = await dashboardOf(ACME, tokens[`${ACME}_admin`]!);
    expect(d.activityByDay).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(d.activityByDay[29]!.date).toBe(today);
    expect(Date.parse(d.activityByDay[0]!.date)).toBe(Date.parse(today) - 29 * 86_400_000);
    expect(d.activityByDay.slice(0, 29).every((x) => x.count === 0)).toBe(true);
    expect(d.activityByDay[29]!.count).toBe(d.totalActivities);
  });

  it.each([
    ['cpa', { documents: 3, byType: { report: 1, company_document: 1, firm_document: 1 }, clients: 1, topFiles: ['Own audit 2024.pdf', 'Firm licence.pdf'] }],
    ['cpaNone', { documents: 1, byType: { report: 0, company_document: 0, firm_document: 1 }, clients: 0, topFiles: ['Firm licence.pdf'] }],
    ['client', { documents: 3, byType: { report: 2, company_document: 1, firm_document: 0 }, clients: 1, topFiles: ['Own audit 2024.pdf', 'Own payroll march.pdf'] }],
    ['otherClient', { documents: 1, byType: { report: 0, company_document: 1, firm_document: 0 }, clients: 1, topFiles: ['Other incorporation.pdf'] }],
  ] as const)('limits %s to its scope', async (actor, expected) => {
    const entries = (await allEntries(ACME)).filter((e) => counts(actor, e));
    const d = await dashboardOf(ACME, tokenOf(actor));
    expect(d.totalDocuments).toBe(expected.documents);
    expect(docs(d)).toEqual(expected.byType);
    expect(d.totalClients).toBe(expected.clients);
    expect(d.totalActivities).toBe(entries.length);
    expect(d.activeUsers).toBe(new Set(entries.map((e) => e.userId)).size);
    expect([...d.topFiles.map((f) => f.fileName)].sort()).toEqual([...expected.topFiles].sort());
    expect(d.activityByDay[29]!.count).toBe(entries.length);
    for (const a of d.actionCounts) expect(a.count).toBe(entries.filter((e) => e.action === a.action).length);
    const readable = actor === 'otherClient' ? [OTHER()] : actor === 'cpaNone' ? [] : [OWN()];
    expect(d.topClients.map((c) => c.clientId)).toEqual(readable);
    expect(d.recentFiles.length).toBe(expected.documents);
    if (actor === 'client' || actor === 'otherClient') {
      // Only their own row, whoever else worked on their client.
      expect(d.topUsers.map((row) => row.userId)).toEqual(entries.some((e) => e.userId === userIdOf(actor)) ? [userIdOf(actor)] : []);
    } else {
      expect(d.topUsers.map((row) => row.userId).sort()).toEqual([...new Set(entries.map((e) => e.userId))].sort());
    }
    expect((await call('GET', '/api/dashboard', tokenOf(actor))).body).toEqual(d);
  });

  it('shows another firm only its own figures, and refuses it this firm\'s', async () => {
    for (const actor of OTHER_FIRM) {
      expect(await call('GET', `/api/${ACME}/dashboard`, tokenOf(actor))).toEqual({ status: 403, body: { message: 'This account belongs to another firm.' } });
      const own = await call<DashboardOverview>('GET', '/api/dashboard', tokenOf(actor));
      expect(own.status).toBe(200);
      expect(own.body.totalDocuments).toBe(1);
      expect(own.body.recentFiles.map((f) => f.fileName)).toEqual(['Beta ledger.pdf']);
      expect(JSON.stringify(own.body)).not.toMatch(/Own Client|Other Client|Own audit/);
    }
    expect((await call('GET', `/api/${ACME}/dashboard`)).status).toBe(401);
  });
});

describe('detail dialogs', () => {
  it('gives staff a user\'s actions within their reach', async () => {
    const all = await allEntries(ACME);
    const adminId = ids[`${ACME}_admin`]!;
    for (const who of ['admin', 'dta', 'cpa', 'cpaNone'] as const) {
      const counted = all.filter((e) => e.userId === adminId && counts(who, e));
      const expected = all.filter((e) => e.userId === adminId && sees(who, e));
      const r = await call<UserActivityDetails>('GET', `/api/${ACME}/dashboard/users/${adminId}/activity`, tokenOf(who));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        userId: adminId, userName: counted.length ? fullName(ACME, 'admin') : '', totalActions: counted.length,
        actionCounts: ACTIVITY_ACTIONS.map((action) => ({ action, count: counted.filter((e) => e.action === action).length })),
        recent: expected,
      });
      expect((await call('GET', `/api/dashboard/users/${adminId}/activity`, tokenOf(who))).body).toEqual(r.body);
    }
  });

  it('lets a Client user open only their own activity', async () => {
    const me = await call<UserActivityDetails>('GET', `/api/${ACME}/dashboard/users/${userIdOf('client')}/activity`, tokenOf('client'));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userName: fullName(ACME, 'client'), totalActions: 1 });
    expect(me.body.recent.map((e) => e.action)).toEqual(['download']);
    expect(await call('GET', `/api/${ACME}/dashboard/users/${ids[`${ACME}_admin`]}/activity`, tokenOf('client')))
      .toEqual({ status: 403, body: { message: 'Access denied. You can only view your own activity.' } });
    // No activity yet: the screen's empty state, with the caller's own name.
    const quiet = await call<UserActivityDetails>('GET', `/api/${BETA}/dashboard/users/${ids[`${BETA}_quiet`]}/activity`, tokens[`${BETA}_quiet`]);
    expect(quiet.body).toEqual({
      userId: ids[`${BETA}_quiet`], userName: fullName(BETA, 'quiet'), totalActions: 0,
      actionCounts: ACTIVITY_ACTIONS.map((action) => ({ action, count: 0 })), recent: [],
    });
  });

  it('gives a client\'s engagement to those who read the client, and 404 to everyone else', async () => {
    const all = await allEntries(ACME);
    const own = all.filter((e) => e.clientId === OWN());
    const r = await call<ClientEngagementDetails>('GET', `/api/${ACME}/dashboard/clients/${OWN()}/engagement`, tokenOf('admin'));
    expect(r.body).toEqual({
      clientId: OWN(), clientName: 'Own Client', documents: 3, totalActions: own.length,
      actionCounts: ACTIVITY_ACTIONS.map((action) => ({ action, count: own.filter((e) => e.action === action).length })),
      recent: own,
    });
    // A CPA counts only the reports of their report types among the documents.
    expect((await call<ClientEngagementDetails>('GET', `/api/dashboard/clients/${OWN()}/engagement`, tokenOf('cpa'))).body)
      .toMatchObject({ documents: 2, totalActions: own.length });
    expect((await call<ClientEngagementDetails>('GET', `/api/${ACME}/dashboard/clients/${OWN()}/engagement`, tokenOf('client'))).body)
      .toMatchObject({ documents: 3, totalActions: own.length });
    const notFound = { status: 404, body: { message: 'Client not found' } };
    expect(await call('GET', `/api/${ACME}/dashboard/clients/${OTHER()}/engagement`, tokenOf('cpa'))).toEqual(notFound);
    expect(await call('GET', `/api/${ACME}/dashboard/clients/${OWN()}/engagement`, tokenOf('cpaNone'))).toEqual(notFound);
    expect(await call('GET', `/api/${ACME}/dashboard/clients/${OTHER()}/engagement`, tokenOf('client'))).toEqual(notFound);
    expect(await call('GET', `/api/${ACME}/dashboard/clients/${OWN()}/engagement`, tokenOf('otherClient'))).toEqual(notFound);
    expect(await call('GET', `/api/${ACME}/dashboard/clients/999999/engagement`, tokenOf('admin'))).toEqual(notFound);
    expect(await call('GET', `/api/${ACME}/dashboard/clients/${OWN()}/engagement`, tokenOf('betaAdmin'))).toEqual({ status: 403, body: { message: 'This account belongs to another firm.' } });
    // The same client id in another firm is that firm's client.
    expect(await call('GET', `/api/dashboard/clients/${OWN()}/engagement`, tokenOf('betaAdmin'))).toEqual(ids['Beta Client'] === OWN()
      ? { status: 200, body: expect.objectContaining({ clientName: 'Beta Client' }) } : notFound);
  });

  it.each([
    ['users/abc/activity', 'User id must be a whole number'],
    ['users/0/activity', 'User id must be a whole number'],
    ['users/1.5/activity', 'User id must be a whole number'],
    ['clients/abc/engagement', 'Client id must be a positive whole number'],
    ['clients/-3/engagement', 'Client id must be a positive whole number'],
    ['users/2147483648/activity', 'User id must be a whole number'],
    ['clients/9007199254740990/engagement', 'Client id must be a positive whole number'],
  ])('rejects dashboard/%s with "%s"', async (path, message) => {
    expect(await call('GET', `/api/${ACME}/dashboard/${path}`, tokenOf('admin'))).toMatchObject({ status: 400, body: { message } });
  });
});

describe('events from other services', () => {
  const entriesOfFile = async (tenant: string, fileId: number) => (await call<ActivityLog[]>('GET', `/api/${tenant}/activity-logs?fileId=${fileId}`, tokens.platform)).body;

  it('records an event delivered twice once', async () => {
    const before = await dashboardOf(ACME, tokens.platform!);
    const f = fileEvent(ACME, 'dta', 'Twice delivered.pdf', { clientId: OTHER(), clientName: 'Other Client', fileType: 'report' });
    const event = newEvent(FILE_UPLOADED, ACME, f);
    await publish(event, event);
    await publish(event);
    await eventually(async () => expect(await entriesOfFile(ACME, f.id)).toHaveLength(1), BUS_WAIT_MS);
    await settle();
    expect(await entriesOfFile(ACME, f.id)).toHaveLength(1);
    const after = await dashboardOf(ACME, tokens.platform!);
    expect(after.totalDocuments).toBe(before.totalDocuments + 1);
    expect(after.totalActivities).toBe(before.totalActivities + 1);
  });

  it('records a deletion by whoever deleted the file; the file leaves the dashboards, its history stays', async () => {
    const before = await dashboardOf(ACME, tokens.platform!);
    await publish(newEvent(FILE_DELETED, ACME, deletedEvent(ACME, 'dta', files.ownDoc!)));
    await eventually(async () => expect((await entriesOfFile(ACME, files.ownDoc!.id)).map((e) => e.action)).toEqual(['delete', 'upload']), BUS_WAIT_MS);
    const [deletion] = await entriesOfFile(ACME, files.ownDoc!.id);
    expect(deletion).toMatchObject({ userId: ids[`${ACME}_dta`], userName: fullName(ACME, 'dta'), clientId: OWN(), clientName: 'Own Client', fileName: 'Own bylaws.pdf' });
    // Every entry of the file now says it is gone, so screens offer no View or Download.
    expect((await entriesOfFile(ACME, files.ownDoc!.id)).map((e) => e.fileDeleted)).toEqual([true, true]);
    expect((await entriesOfFile(ACME, files.ownAudit!.id)).every((e) => e.fileDeleted === false)).toBe(true);
    const after = await dashboardOf(ACME, tokens.platform!);
    expect(after.totalDocuments).toBe(before.totalDocuments - 1);
    expect(after.recentFiles.map((f) => f.fileName)).not.toContain('Own bylaws.pdf');
    expect(after.documentsByType.find((d) => d.fileType === 'company_document')!.count).toBe(before.documentsByType.find((d) => d.fileType === 'company_document')!.count - 1);
    expect(await view(ACME, 'admin', files.ownDoc!)).toEqual({ status: 404, body: { message: 'File not found' } });
    expect((await call<ClientEngagementDetails>('GET', `/api/${ACME}/dashboard/clients/${OWN()}/engagement`, tokenOf('client'))).body.documents).toBe(2);
  });

  it('logs what the system deleted (a removed client\'s files) but never counts the system as a user', async () => {
    const before = await dashboardOf(ACME, tokens.platform!);
    const orphan = fileEvent(ACME, 'admin', 'Orphaned return.pdf', { clientId: OTHER(), clientName: 'Other Client', fileType: 'report' });
    await publish(newEvent(FILE_UPLOADED, ACME, orphan));
    await eventually(async () => expect(await entriesOfFile(ACME, orphan.id)).toHaveLength(1), BUS_WAIT_MS);
    const gone: FileDeletedEvent = { ...orphan, deletedById: SYSTEM_ACTOR.id, deletedByName: SYSTEM_ACTOR.name, deletedAt: new Date().toISOString() };
    await publish(newEvent(FILE_DELETED, ACME, gone));
    await eventually(async () => expect((await entriesOfFile(ACME, orphan.id))[0]).toMatchObject({ action: 'delete', userId: 0, userName: 'System' }), BUS_WAIT_MS);
    const after = await dashboardOf(ACME, tokens.platform!);
    expect(after.topUsers.map((u) => u.userId)).not.toContain(SYSTEM_ACTOR.id);
    expect(after.activeUsers).toBe(before.activeUsers);
  });

  it('keeps a file deleted when its upload arrives after the deletion', async () => {
    const before = await dashboardOf(ACME, tokens.platform!);
    const f = fileEvent(ACME, 'admin', 'Late upload.pdf', { clientId: OWN(), clientName: 'Own Client', fileType: 'company_document' });
    await publish(newEvent(FILE_DELETED, ACME, deletedEvent(ACME, 'admin', f)));
    await eventually(async () => expect(await entriesOfFile(ACME, f.id)).toHaveLength(1), BUS_WAIT_MS);
    await publish(newEvent(FILE_UPLOADED, ACME, f));
    await eventually(async () => expect((await entriesOfFile(ACME, f.id)).map((e) => e.action).sort()).toEqual(['delete', 'upload']), BUS_WAIT_MS);
    const after = await dashboardOf(ACME, tokens.platform!);
    expect(after.totalDocuments).toBe(before.totalDocuments);
    expect(after.recentFiles.map((x) => x.fileName)).not.toContain('Late upload.pdf');
    expect(await view(ACME, 'admin', f)).toEqual({ status: 404, body: { message: 'File not found' } });
  });

  it('records a chat about a file (from the chat service) and ranks it among the file\'s uses', async () => {
    const chat: FileChattedEvent = {
      fileId: files.otherDoc!.id, fileName: 'Other incorporation.pdf', clientId: OTHER(), clientName: 'Other Client',
      userId: userIdOf('otherClient'), userName: fullName(ACME, 'otherClient'), sessionId: 1, occurredAt: new Date().toISOString(),
    };
    await publish(newEvent(FILE_CHATTED, ACME, chat));
    await eventually(async () => expect((await entriesOfFile(ACME, chat.fileId))[0]).toMatchObject({ action: 'chat', userName: chat.userName, clientId: OTHER() }), BUS_WAIT_MS);
    const d = await dashboardOf(ACME, tokenOf('otherClient'));
    expect(d.topFiles.find((x) => x.fileName === 'Other incorporation.pdf')).toMatchObject({ chats: 1 });
    expect(d.actionCounts.find((a) => a.action === 'chat')!.count).toBe(1);
  });

  it('charts older activity on its day, leaves what is older than 30 days out, and counts neither as active', async () => {
    const before = await dashboardOf(ACME, tokens.platform!);
    ids[`${ACME}_archivist`] = 990_001;
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const tenDays = fileEvent(ACME, 'archivist', 'Ten days old.pdf', { clientId: OTHER(), clientName: 'Other Client', fileType: 'report', uploadedAt: daysAgo(10) });
    const fortyDays = fileEvent(ACME, 'archivist', 'Forty days old.pdf', { clientId: OTHER(), clientName: 'Other Client', fileType: 'report', uploadedAt: daysAgo(40) });
    await publish(newEvent(FILE_UPLOADED, ACME, tenDays), newEvent(FILE_UPLOADED, ACME, fortyDays));
    await eventually(async () => expect((await dashboardOf(ACME, tokens.platform!)).totalActivities).toBe(before.totalActivities + 2), BUS_WAIT_MS);
    const after = await dashboardOf(ACME, tokens.platform!);
    const day = tenDays.uploadedAt.slice(0, 10);
    expect(after.activityByDay.find((x) => x.date === day)!.count).toBe(before.activityByDay.find((x) => x.date === day)!.count + 1);
    expect(after.activityByDay.reduce((n, x) => n + x.count, 0)).toBe(before.activityByDay.reduce((n, x) => n + x.count, 0) + 1);
    expect(after.activeUsers).toBe(before.activeUsers);
    expect(after.totalDocuments).toBe(before.totalDocuments + 2);
    // Newest first by when it happened, not by when the event arrived.
    expect((await allEntries(ACME)).at(-1)!.fileName).toBe('Forty days old.pdf');
  });

  it('ignores events of an unknown firm or of none', async () => {
    const ghost = { ...fileEvent(ACME, 'admin', 'Ghost firm file.pdf', { clientId: null, clientName: null, fileType: 'firm_document' }) };
    await publish(newEvent(FILE_UPLOADED, `nosuchfirm${suffix}`, ghost), newEvent(FILE_UPLOADED, null, ghost));
    const marker = fileEvent(ACME, 'admin', 'After the ghosts.pdf', { clientId: null, clientName: null, fileType: 'firm_document' });
    await publish(newEvent(FILE_UPLOADED, ACME, marker));
    await eventually(async () => expect(await entriesOfFile(ACME, marker.id)).toHaveLength(1), BUS_WAIT_MS);
    await settle();
    for (const tenant of [ACME, BETA, GAMMA]) expect((await allEntries(tenant)).map((e) => e.fileName)).not.toContain('Ghost firm file.pdf');
    expect((await call('GET', `/api/${ACME}/dashboard`, tokens.platform)).status).toBe(200);
  });
});

describe('administrator dashboard (GET admin/analytics)', () => {
  it('adds up every active firm, names each row\'s firm, and leaves inactive firms out', async () => {
    const gamma = await dashboardOf(GAMMA, tokens.platform!);
    expect(gamma.totalDocuments).toBe(1);
    const before = await call<AdminAnalytics>('GET', '/api/admin/analytics', tokens.platform);
    expect(before.status).toBe(200);
    expect(before.body.topDocuments.map((d) => d.fileName)).not.toContain('Gamma secret.pdf'); // never opened: not ranked
    expect((await call('PUT', `/api/companies/${ids[GAMMA]}`, tokens.platform, { name: firmName(GAMMA), shortName: GAMMA, isActive: false })).status).toBe(200);
    const r = await call<AdminAnalytics>('GET', '/api/admin/analytics', tokens.platform);
    const acme = await dashboardOf(ACME, tokens.platform!);
    const beta = await dashboardOf(BETA, tokens.platform!);
    expect(r.body.totalDocuments).toBe(acme.totalDocuments + beta.totalDocuments);
    expect(before.body.totalDocuments).toBe(acme.totalDocuments + beta.totalDocuments + gamma.totalDocuments);
    expect(r.body.topClients.length).toBeLessThanOrEqual(ADMIN_DASHBOARD_LIMITS.topClients);
    expect(r.body.topClients).toEqual(expect.arrayContaining([
      { clientName: 'Own Client', tenantName: firmName(ACME), documents: acme.topClients.find((c) => c.clientId === OWN())!.documents, activities: acme.topClients.find((c) => c.clientId === OWN())!.activities },
      expect.objectContaining({ clientName: 'Beta Client', tenantName: firmName(BETA) }),
    ]));
    expect(r.body.topClients.map((c) => c.activities)).toEqual(r.body.topClients.map((c) => c.activities).sort((a, b) => b - a));
    expect(r.body.topDocuments).toContainEqual({
      fileName: 'Own audit 2024.pdf', clientName: 'Own Client', tenantName: firmName(ACME), sizeBytes: 1_500_000,
      ...(({ views, downloads, chats }) => ({ views, downloads, chats }))(acme.topFiles.find((f) => f.fileName === 'Own audit 2024.pdf')!),
    });
    expect(r.body.topDocuments).toContainEqual(expect.objectContaining({ fileName: 'Beta ledger.pdf', tenantName: firmName(BETA), sizeBytes: 2048 }));
    expect(r.body.topUsers.length).toBeLessThanOrEqual(ADMIN_DASHBOARD_LIMITS.topUsers);
    expect(r.body.topUsers).toContainEqual(expect.objectContaining({ userName: fullName(BETA, 'client'), tenantName: firmName(BETA), actions: 1 }));
    expect(JSON.stringify(r.body)).not.toContain(firmName(GAMMA));
  });

  it.each([['admin'], ['dta'], ['client'], ['betaAdmin']] as const)('refuses a firm user (%s) with 403', async (actor) => {
    expect(await call('GET', '/api/admin/analytics', tokenOf(actor))).toEqual({
      status: 403, body: { message: 'Access denied. Only platform administrators can view platform analytics.' },
    });
  });

  it('needs a token', async () => {
    expect((await call('GET', '/api/admin/analytics')).status).toBe(401);
  });
});

const filesServiceRuns = SERVICE_MODULES.some((m) => m.name === 'files');

describe('with the real files service', () => {
  (filesServiceRuns ? it : it.skip)('records an upload through POST /api/files and its deletion', async () => {
    const form = new FormData();
    form.set('fileType', 'report');
    form.set('clientId', String(OWN()));
    form.set('reportTypeId', String(ids.Audit));
    form.append('file', new Blob(['Quarterly audit notes\n'], { type: 'text/plain' }), 'real-upload.txt');
    const r = await fetch(`${portal.gatewayUrl}/api/${ACME}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens[`${ACME}_cpa`]}` }, body: form });
    expect(r.status).toBe(201);
    const uploaded = ((await r.json()) as { files: { id: number }[] }).files[0]!;
    await eventually(async () => expect((await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs?fileId=${uploaded.id}`, tokens.platform)).body[0])
      .toMatchObject({ action: 'upload', fileName: 'real-upload.txt', userId: ids[`${ACME}_cpa`], clientId: OWN(), clientName: 'Own Client' }), BUS_WAIT_MS);
    expect((await call('POST', `/api/${ACME}/activity-logs`, tokens[`${ACME}_client`], { action: 'view', fileId: uploaded.id })).status).toBe(201);
    expect((await call('DELETE', `/api/${ACME}/files/${uploaded.id}`, tokens[`${ACME}_admin`])).status).toBe(200);
    await eventually(async () => expect((await call<ActivityLog[]>('GET', `/api/${ACME}/activity-logs?fileId=${uploaded.id}`, tokens.platform)).body.map((e) => e.action))
      .toEqual(['delete', 'view', 'upload']), BUS_WAIT_MS);
  });
});

describe('list sizes at volume', () => {
  it('shows 10 recent files, top 8 of each list, admin tops of 8/10/10, and counts a user active 6 days ago', async () => {
    const before = await dashboardOf(ACME, tokens.platform!);
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    // 12 synthetic users each upload a report of their own synthetic client and chat about it once.
    const crowd = Array.from({ length: 12 }, (_, i) => {
      ids[`${ACME}_crowd${i}`] = 980_000 + i;
      return fileEvent(ACME, `crowd${i}`, `Crowd ${i}.pdf`, {
        clientId: 970_000 + i, clientName: `Crowd Client ${i}`, fileType: 'report', uploadedAt: i === 0 ? daysAgo(6) : secondsAgo(30 - i),
      });
    });
    const chats = crowd.map((f, i): FileChattedEvent => ({
      fileId: f.id, fileName: f.originalName, clientId: f.clientId, clientName: f.clientName,
      userId: 980_000 + i, userName: fullName(ACME, `crowd${i}`), sessionId: i + 1, occurredAt: secondsAgo(10),
    }));
    await publish(...crowd.map((f) => newEvent(FILE_UPLOADED, ACME, f)), ...chats.map((c) => newEvent(FILE_CHATTED, ACME, c)));
    await eventually(async () => expect((await dashboardOf(ACME, tokens.platform!)).totalActivities).toBe(before.totalActivities + 24), BUS_WAIT_MS);

    const d = await dashboardOf(ACME, tokens.platform!);
    expect(d.recentFiles).toHaveLength(DASHBOARD_LIMITS.recentFiles);
    expect(d.recentFiles[0]!.fileName).toBe('Crowd 11.pdf');
    expect([d.topClients.length, d.topFiles.length, d.topUsers.length]).toEqual([DASHBOARD_LIMITS.topLists, DASHBOARD_LIMITS.topLists, DASHBOARD_LIMITS.topLists]);
    // Within the 7-day window: all twelve, the one who uploaded 6 days ago included.
    expect(d.activeUsers).toBe(before.activeUsers + 12);

    const admin = (await call<AdminAnalytics>('GET', '/api/admin/analytics', tokens.platform)).body;
    expect([admin.topClients.length, admin.topDocuments.length, admin.topUsers.length])
      .toEqual([ADMIN_DASHBOARD_LIMITS.topClients, ADMIN_DASHBOARD_LIMITS.topDocuments, ADMIN_DASHBOARD_LIMITS.topUsers]);
  });
});
