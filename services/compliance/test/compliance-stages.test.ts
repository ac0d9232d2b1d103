import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { DOCUMENT_REQUEST_CHANGED, type DocumentRequest, type DocumentRequestChanged } from '@ledgerline/contracts/requests.contracts.ts';
import { clientStageOf, DEFAULT_STAGES, STAGE_MESSAGES, type Pipeline, type StagePush } from '@ledgerline/contracts/stages.contracts.ts';
import { STAGE_PUSH } from '@ledgerline/contracts/stages.constants.ts';

/*
 * Stages of a return (issue 42; docs/using/stages.md): pipelines per report type, an item's
 * move, the list's filters, the automatic moves on document requests and filing, the activity
 * entry and the push of every move, and who sees what. Events travel the broker (RabbitMQ in
 * CI): what follows them is awaited with `eventually`.
 */
const BUS_WAIT_MS = 20_000;

let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `sacme${suffix}`;
const BETA = `sbeta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
const YEAR = new Date().getUTCFullYear() + 1;

const path = (p: string, tenant = ACME) => `/api/${tenant}${p}`;
const pipelines = (who: string, tenant = ACME) => call<Pipeline[]>('GET', path('/compliance-pipelines', tenant), tokens[who]);
const savePipeline = (who: string, reportTypeId: number, body: unknown, tenant = ACME) => call<Pipeline>('PUT', path(`/compliance-pipelines/${reportTypeId}`, tenant), tokens[who], body);
const move = (who: string, id: number, stage: unknown, tenant = ACME) => call<ComplianceItem>('PATCH', path(`/compliance-tracker/${id}`, tenant), tokens[who], { stage });
const itemAs = async (who: string, id: number) => (await call<ComplianceItem>('GET', path(`/compliance-tracker/${id}`), tokens[who])).body;
const listIds = async (who: string, query: string) => {
  const r = await call<ComplianceItem[]>('GET', path(`/compliance-tracker${query}`), tokens[who]);
  expect(r.status).toBe(200);
  return r.body.map((i) => i.id);
};
/** A new yearly item of the client and report type (a schedule per call: each its own item). */
const newItem = (clientId: number, reportTypeId: number, dueMonth: string) => cast.trackerItem(ACME, { clientId, reportTypeId, dueMonth, year: YEAR });

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '200' });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  for (const shortName of [ACME, BETA]) expect((await call<Company>('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  ids.own = await cast.created(path('/clients'), testClient('Own Client'));
  ids.other = await cast.created(path('/clients'), testClient('Other Client'));
  ids.rtOwn = await cast.created(path('/report-types'), { name: 'Individual Return' });
  ids.rtOther = await cast.created(path('/report-types'), { name: 'Audit Return' });
  ids.rtBeta = await cast.created(path('/report-types', BETA), { name: 'Beta Return' });
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'dta', 2, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!], [ids.rtOwn!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
  // The compliance service learns report types, clients and users from events: wait for them.
  await eventually(async () => {
    const known = (await pipelines('admin')).body.map((p) => p.reportTypeId);
    expect(known).toEqual(expect.arrayContaining([ids.rtOwn, ids.rtOther]));
    expect((await pipelines('cpa')).status).toBe(200);
  }, BUS_WAIT_MS, 300);
}, 180_000);

afterAll(async () => {
  cast.closeSockets();
  await portal?.stop();
});

describe('clientStageOf: what a client sees of a stage', () => {
  it('a visible stage shows its client name; a hidden one the last visible before it; none before: null', () => {
    expect(clientStageOf(DEFAULT_STAGES, 'in-preparation')).toBe('We are preparing it');
    expect(clientStageOf(DEFAULT_STAGES, 'in-review')).toBe('We are preparing it');
    expect(clientStageOf(DEFAULT_STAGES, 'ready-to-file')).toBe('Ready for your signature');
    expect(clientStageOf([{ id: 'a', name: 'A', clientName: null }, { id: 'b', name: 'B', clientName: 'Bee' }], 'a')).toBeNull();
  });
});

describe('pipelines', () => {
  it('every report type has the default pipeline until the firm saves one', async () => {
    const r = await pipelines('admin');
    expect(r.status).toBe(200);
    const own = r.body.find((p) => p.reportTypeId === ids.rtOwn)!;
    expect(own).toEqual({
      reportTypeId: ids.rtOwn, reportTypeName: 'Individual Return', stages: DEFAULT_STAGES, customised: false,
      automations: { requestSent: 'waiting-on-client', documentsIn: 'in-preparation', filed: 'filed', signatureSent: 'ready-to-sign' },
    });
    expect(own.stages.map((s) => s.name)).toEqual(['Not started', 'Waiting on client', 'In preparation', 'In review', 'Ready to sign', 'Ready to file', 'Filed']);
  });

  it('a CPA reads the pipelines of their report types only; a Client user none (403); another firm\'s Admin not this firm\'s', async () => {
    expect((await pipelines('cpa')).body.map((p) => p.reportTypeId)).toEqual([ids.rtOwn]);
    expect((await pipelines('client')).status).toBe(403);
    expect((await pipelines('betaAdmin', BETA)).body.map((p) => p.reportTypeName)).toEqual(['Beta Return']);
    expect([401, 403, 404]).toContain((await pipelines('betaAdmin')).status);
  });

  it.each([
    [{}, STAGE_MESSAGES.stages],
    [{ stages: [] }, STAGE_MESSAGES.stages],
    [{ stages: [{ name: '' }] }, STAGE_MESSAGES.name],
    [{ stages: [{ name: 'x'.repeat(61), clientName: null }] }, 'name must be at most 60 characters'],
    [{ stages: [{ id: 'Bad Id', name: 'A', clientName: null }] }, STAGE_MESSAGES.stageId],
    [{ stages: [{ name: 'A', clientName: null }, { name: 'a', clientName: null }] }, STAGE_MESSAGES.duplicateId],
    [{ stages: [{ id: 'one', name: 'A', clientName: null }, { id: 'two', name: 'a', clientName: null }] }, STAGE_MESSAGES.duplicateName],
    [{ stages: [{ name: 'A', clientName: 5 }] }, STAGE_MESSAGES.clientName],
    [{ stages: [{ name: 'A', clientName: null }], automations: { filed: 'filed' } }, STAGE_MESSAGES.automationStage],
  ])('PUT %j → 400 %s', async (body, message) => {
    const r = await savePipeline('admin', ids.rtOther!, body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ message });
  });

  it('only an Admin saves one (DTA and CPA 403, Client 403); an unknown report type is 404; another firm\'s Admin cannot', async () => {
    const body = { stages: [{ name: 'Open', clientName: 'Open' }] };
    for (const who of ['dta', 'cpa', 'client']) expect((await savePipeline(who, ids.rtOwn!, body)).status).toBe(403);
    expect((await savePipeline('admin', 999_999, body)).status).toBe(404);
    expect([401, 403, 404]).toContain((await savePipeline('betaAdmin', ids.rtOwn!, body)).status);
    expect((await pipelines('admin')).body.find((p) => p.reportTypeId === ids.rtOwn)!.customised).toBe(false);
  });

  it('a saved pipeline: ids made from names, hidden stages, automations defaulted to the stages it has; new items start on its first stage', async () => {
    const r = await savePipeline('admin', ids.rtOther!, {
      stages: [{ name: 'Intake', clientName: 'We have your file' }, { name: 'Waiting on client', clientName: 'Waiting for you' }, { name: 'Partner review', clientName: '  ' }, { name: 'Filed', clientName: 'Filed' }],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      reportTypeId: ids.rtOther, customised: true,
      stages: [
        { id: 'intake', name: 'Intake', clientName: 'We have your file' }, { id: 'waiting-on-client', name: 'Waiting on client', clientName: 'Waiting for you' },
        { id: 'partner-review', name: 'Partner review', clientName: null }, { id: 'filed', name: 'Filed', clientName: 'Filed' },
      ],
      automations: { requestSent: 'waiting-on-client', documentsIn: null, filed: 'filed', signatureSent: null },
    });
    const item = await newItem(ids.other!, ids.rtOther!, '5');
    expect(item).toMatchObject({ stage: 'intake', stageName: 'Intake', clientStage: 'We have your file' });
    // A stage items stand on cannot be removed: 409, the pipeline unchanged.
    const removing = await savePipeline('admin', ids.rtOther!, { stages: [{ name: 'Waiting on client', clientName: null }, { name: 'Filed', clientName: 'Filed' }] });
    expect(removing.status).toBe(409);
    expect((removing.body as unknown as { message: string }).message).toContain(STAGE_MESSAGES.stageInUse);
    expect((await pipelines('admin')).body.find((p) => p.reportTypeId === ids.rtOther)!.stages).toHaveLength(4);
  });
});

describe('moving an item', () => {
  let item: ComplianceItem;
  let otherTypeItem: ComplianceItem;
  beforeAll(async () => {
    item = await newItem(ids.own!, ids.rtOwn!, '4');
    otherTypeItem = await newItem(ids.own!, ids.rtOther!, '6');
  });

  it('starts on "Not started"; PATCH moves it by stage id or staff name; an unknown stage is 400', async () => {
    expect(item).toMatchObject({ stage: 'not-started', stageName: 'Not started', clientStage: 'Not started yet' });
    expect(await move('admin', item.id, 'in-preparation')).toMatchObject({ status: 200, body: { id: item.id, stage: 'in-preparation', stageName: 'In preparation', clientStage: 'We are preparing it' } });
    expect(await move('cpa', item.id, 'In Review')).toMatchObject({ status: 200, body: { stage: 'in-review', stageName: 'In review', clientStage: 'We are preparing it' } });
    expect(await move('admin', item.id, 'partner-review')).toMatchObject({ status: 400, body: { message: STAGE_MESSAGES.unknownStage } });
    for (const bad of ['', 5, null, 'x'.repeat(61)]) expect((await move('admin', item.id, bad)).status).toBe(400);
    expect((await itemAs('admin', item.id)).stage).toBe('in-review');
  });

  it('a Client user reads only what clients see (a hidden stage shows the last visible one) and cannot move it', async () => {
    expect(await itemAs('client', item.id)).toMatchObject({ stage: null, stageName: null, clientStage: 'We are preparing it' });
    expect((await move('client', item.id, 'filed')).status).toBe(403);
    expect(await listIds('client', '?stage=in-review')).toEqual([]);
  });

  it('a CPA without the item\'s report type sees neither the item nor its stage; another firm gets 404', async () => {
    expect((await move('cpa', otherTypeItem.id, 'in-review')).status).toBe(404);
    expect((await call('GET', path(`/compliance-tracker/${otherTypeItem.id}`), tokens.cpa)).status).toBe(404);
    expect(await listIds('cpa', '?stage=intake')).not.toContain(otherTypeItem.id);
    expect((await move('betaAdmin', item.id, 'filed', BETA)).status).toBe(404);
    expect([401, 403, 404]).toContain((await move('betaAdmin', item.id, 'filed')).status);
  });

  it('the list filters by stage, report type, assignee (0: unassigned) and due window; a bad filter is 400', async () => {
    expect(await listIds('admin', '?stage=in-review')).toEqual([item.id]);
    expect(await listIds('admin', '?stage=intake')).toEqual(expect.arrayContaining([otherTypeItem.id]));
    expect(await listIds('admin', '?stage=intake')).not.toContain(item.id);
    expect(await listIds('admin', `?reportTypeId=${ids.rtOwn}`)).toContain(item.id);
    expect(await listIds('admin', `?reportTypeId=${ids.rtOwn}`)).not.toContain(otherTypeItem.id);
    expect((await call('PUT', path(`/compliance-tracker/${item.id}`), tokens.admin, { assignedToId: ids.cpa })).status).toBe(200);
    expect(await listIds('admin', `?assignedToId=${ids.cpa}`)).toEqual([item.id]);
    expect(await listIds('admin', '?assignedToId=0')).not.toContain(item.id);
    expect(await listIds('admin', '?assignedToId=0')).toContain(otherTypeItem.id);
    const window = (from: string, to: string) => `?stage=in-review&startDate=${from}&endDate=${to}`;
    expect(await listIds('admin', window(item.dueDate, item.dueDate))).toEqual([item.id]);
    expect(await listIds('admin', window(`${YEAR}-07-01`, `${YEAR}-12-31`))).toEqual([]);
    for (const q of ['?stage=In%20Review', '?reportTypeId=x', '?assignedToId=-1']) expect((await call('GET', path(`/compliance-tracker${q}`), tokens.admin)).status).toBe(400);
  });

  it('every move is an activity entry (a CPA without the report type does not read it) and a push to those who reach the item', async () => {
    const staffPushes: StagePush[] = [];
    const clientPushes: StagePush[] = [];
    const cpaPushes: StagePush[] = [];
    (await cast.signedInSocket(tokens.admin!)).on(STAGE_PUSH, (p: StagePush) => staffPushes.push(p));
    (await cast.signedInSocket(tokens.client!)).on(STAGE_PUSH, (p: StagePush) => clientPushes.push(p));
    (await cast.signedInSocket(tokens.cpa!)).on(STAGE_PUSH, (p: StagePush) => cpaPushes.push(p));
    expect((await move('admin', item.id, 'ready-to-file')).status).toBe(200);
    expect((await move('admin', otherTypeItem.id, 'partner-review')).status).toBe(200);
    await eventually(() => {
      expect(staffPushes).toContainEqual({ itemId: item.id, clientId: ids.own, stage: 'ready-to-file', stageName: 'Ready to file', clientStage: 'Ready for your signature' });
      expect(clientPushes).toContainEqual({ itemId: item.id, clientId: ids.own, stage: null, stageName: null, clientStage: 'Ready for your signature' });
      expect(clientPushes).toContainEqual({ itemId: otherTypeItem.id, clientId: ids.own, stage: null, stageName: null, clientStage: 'Waiting for you' });
      expect(cpaPushes.map((p) => p.itemId)).toContain(item.id);
    }, BUS_WAIT_MS, 200);
    // Never of the report type the CPA lacks.
    expect(cpaPushes.map((p) => p.itemId)).not.toContain(otherTypeItem.id);
    const logs = async (who: string) => (await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=200`), tokens[who])).body.map((l) => l.details);
    await eventually(async () => expect(await logs('admin')).toEqual(expect.arrayContaining([
      `Moved Individual Return ${item.period} from "In review" to "Ready to file"`,
      `Moved Audit Return ${otherTypeItem.period} from "Intake" to "Partner review"`,
    ])), BUS_WAIT_MS, 300);
    const cpaLogs = await logs('cpa');
    expect(cpaLogs).toContain(`Moved Individual Return ${item.period} from "In review" to "Ready to file"`);
    expect(cpaLogs.some((d) => d?.includes('Audit Return'))).toBe(false);
    // The client's own users never read them: they name the firm's stages, some hidden from clients.
    const clientLogs = await call<ActivityLog[]>('GET', path('/activity-logs?limit=200'), tokens.client);
    expect(clientLogs.status).toBe(200);
    expect(clientLogs.body.filter((l) => l.details?.startsWith('Moved '))).toEqual([]);
  });
});

describe('automatic moves', () => {
  const trackerRequest = (id: number) => call<DocumentRequest>('POST', path(`/compliance-tracker/${id}/document-request`), tokens.admin, {});
  const stageOf = async (id: number) => (await itemAs('admin', id)).stage;
  beforeAll(async () => {
    // The firm's own checklist for the report type: one item, so the client completes the request with one answer.
    expect((await call('POST', path('/request-templates'), tokens.admin, { name: 'Individual checklist', reportTypeId: ids.rtOwn, items: [{ title: 'W-2' }] })).status).toBe(201);
  });

  it('a request made for the item → Waiting on client; all its documents in → In preparation; marked filed → Filed', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '7');
    const request = await trackerRequest(item.id);
    expect(request.status).toBe(201);
    await eventually(async () => expect(await stageOf(item.id)).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
    expect((await itemAs('client', item.id)).clientStage).toBe('We are waiting for you');
    const decided = await call('PATCH', path(`/document-requests/${request.body.id}/items/${request.body.items[0]!.id}`), tokens.client, { status: 'not_applicable', comment: 'No W-2 this year' });
    expect(decided.status).toBe(200);
    await eventually(async () => expect(await stageOf(item.id)).toBe('in-preparation'), BUS_WAIT_MS, 300);
    expect((await itemAs('client', item.id)).clientStage).toBe('We are preparing it');
    expect(await call('PUT', path(`/compliance-tracker/${item.id}`), tokens.admin, { status: 'filed' })).toMatchObject({ status: 200, body: { status: 'filed', stage: 'filed', stageName: 'Filed' } });
    await eventually(async () => expect((await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=200`), tokens.admin)).body.map((l) => l.details)).toEqual(expect.arrayContaining([
      `Moved Individual Return ${item.period} from "Not started" to "Waiting on client" (a document request was sent)`,
      `Moved Individual Return ${item.period} from "Waiting on client" to "In preparation" (every requested document is in)`,
      `Moved Individual Return ${item.period} from "In preparation" to "Filed" (marked filed)`,
    ])), BUS_WAIT_MS, 300);
  });

  it('they only move forward: an item already further along stays where staff put it', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '8');
    expect((await move('admin', item.id, 'in-review')).status).toBe(200);
    const request = await trackerRequest(item.id);
    expect(request.status).toBe(201);
    // The request's state reaching the item shows its event was handled; the stage stayed.
    await eventually(async () => expect((await itemAs('admin', item.id)).documentRequest).toMatchObject({ id: request.body.id }), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('in-review');
  });

  it('events arriving out of order (the broker may reorder them) never undo a later stage', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '10');
    // A request made elsewhere (its events only): "completed" at revision 3 arrives before "created" at revision 1.
    const change = (revision: number, action: 'created' | 'completed', on = item.id) => newEvent<DocumentRequestChanged>(DOCUMENT_REQUEST_CHANGED, ACME, {
      requestId: 900_000 + on, clientId: ids.own!, clientName: 'Own Client', title: 'Year-end pack', reportTypeId: ids.rtOwn!, trackerItemId: on,
      status: action === 'completed' ? 'completed' : 'open', progress: { required: 1, done: action === 'completed' ? 1 : 0 }, revision, action, actorId: ids.admin!, actorName: 'admin',
    });
    await portal.bus!.publish([change(3, 'completed')]);
    await eventually(async () => expect(await stageOf(item.id)).toBe('in-preparation'), BUS_WAIT_MS, 300);
    // The late "created", then another item's change behind it on the same queue: once that one is
    // handled, so (almost always, with RabbitMQ's prefetch; always on the embedded bus) is the late one.
    const marker = await newItem(ids.own!, ids.rtOwn!, '11');
    await portal.bus!.publish([change(1, 'created')]);
    await portal.bus!.publish([change(1, 'created', marker.id)]);
    await eventually(async () => expect(await stageOf(marker.id)).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('in-preparation');
  });

  it('a firm turns a move off on the pipeline: the item stays put', async () => {
    const rt = await cast.created(path('/report-types'), { name: `Trust Return ${suffix}` });
    await eventually(async () => expect((await pipelines('admin')).body.map((p) => p.reportTypeId)).toContain(rt), BUS_WAIT_MS, 300);
    const saved = await savePipeline('admin', rt, { stages: DEFAULT_STAGES, automations: { requestSent: null, filed: null } });
    expect(saved).toMatchObject({ status: 200, body: { automations: { requestSent: null, documentsIn: 'in-preparation', filed: null, signatureSent: 'ready-to-sign' } } });
    expect((await call('POST', path('/request-templates'), tokens.admin, { name: 'Trust checklist', reportTypeId: rt, items: [{ title: 'Trust deed' }] })).status).toBe(201);
    const item = await newItem(ids.own!, rt, '9');
    const request = await trackerRequest(item.id);
    expect(request.status).toBe(201);
    await eventually(async () => expect((await itemAs('admin', item.id)).documentRequest).toMatchObject({ id: request.body.id }), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('not-started');
    expect((await call('PUT', path(`/compliance-tracker/${item.id}`), tokens.admin, { status: 'filed' })).body).toMatchObject({ status: 'filed', stage: 'not-started' });
  });
});
