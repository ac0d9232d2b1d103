import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { addDays } from '@ledgerline/contracts/firm-time-zone.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { apiClient, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import { PortalCast } from '@ledgerline/server/portal-cast.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { ORGANIZER_PUSH } from '@ledgerline/contracts/organizers.constants.ts';
import { type OrganizerDetail, type OrganizerPush, type OrganizerTemplate } from '@ledgerline/contracts/organizers.contracts.ts';
import type { Pipeline } from '@ledgerline/contracts/stages.contracts.ts';

/*
 * A tracker item's organizer (issue 42): POST /compliance-tracker/{id}/organizer hands it to
 * the requests service with the item's client, report type, year and due date; the
 * organizer's events move the item (sent → Waiting on client; submitted with nothing else
 * outstanding → In preparation; an organizer still being answered keeps it waiting), and are
 * activity entries and pushes. Events travel the broker (RabbitMQ in CI): awaited with `eventually`.
 */
const BUS_WAIT_MS = 20_000;

let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `ocacme${suffix}`;
const BETA = `ocbeta${suffix}`;
const cast = new PortalCast();
const { ids, tokens } = cast;
ids.templates = 0;
const YEAR = new Date().getUTCFullYear() + 1;

const path = (p: string, tenant = ACME) => `/api/${tenant}${p}`;
const itemAs = async (who: string, id: number) => (await call<ComplianceItem>('GET', path(`/compliance-tracker/${id}`), tokens[who])).body;
const stageOf = async (id: number) => (await itemAs('admin', id)).stage;
const sendOrganizer = (who: string, itemId: number, body: Record<string, unknown> = {}, tenant = ACME) =>
  call<OrganizerDetail & { message: string }>('POST', path(`/compliance-tracker/${itemId}/organizer`, tenant), tokens[who], body);
const newItem = (clientId: number, reportTypeId: number, dueMonth: string) => cast.trackerItem(ACME, { clientId, reportTypeId, dueMonth, year: YEAR });
const answer = (who: string, id: number, answers: Record<string, unknown>) => call<OrganizerDetail>('PUT', path(`/organizers/${id}/answers`), tokens[who], { answers });
/** Each client, template and year has one organizer: the items of one client and year below take templates of their own. */
async function newTemplate(): Promise<number> {
  const t = await call<OrganizerTemplate>('POST', path('/organizer-templates'), tokens.admin, {
    name: `Individual organizer ${(ids.templates = (ids.templates ?? 0) + 1)}`, reportTypeId: ids.rtOwn,
    sections: [{ id: 'income', title: 'Income', questions: [{ id: 'sold_shares', type: 'yes_no', title: 'Did you sell shares?', required: true }] }],
  });
  expect(t.status).toBe(201);
  return t.body.id;
}
const submit = (who: string, id: number) => call<OrganizerDetail>('POST', path(`/organizers/${id}/submit`), tokens[who]);

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '200' });
  call = apiClient(portal.gatewayUrl);
  cast.attach(portal);
  for (const shortName of [ACME, BETA]) expect((await call<Company>('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  ids.own = await cast.created(path('/clients'), testClient('Own Client'));
  ids.rtOwn = await cast.created(path('/report-types'), { name: 'Individual Return' });
  ids.rtBare = await cast.created(path('/report-types'), { name: 'Trust Return' });
  ids.rtOther = await cast.created(path('/report-types'), { name: 'Audit Return' });
  await cast.user(ACME, 'admin', 1, null);
  await cast.user(ACME, 'cpa', 3, [ids.own!], [ids.rtOwn!]);
  await cast.user(ACME, 'cpaAudit', 3, [ids.own!], [ids.rtOther!]);
  await cast.user(ACME, 'client', 4, [ids.own!]);
  await cast.user(BETA, 'betaAdmin', 1, null);
  await eventually(async () => {
    const known = (await call<Pipeline[]>('GET', path('/compliance-pipelines'), tokens.admin)).body.map((p) => p.reportTypeId);
    expect(known).toEqual(expect.arrayContaining([ids.rtOwn, ids.rtBare]));
    // The requests service knows the report type too: a template can name it.
    const t = await call<OrganizerTemplate>('POST', path('/organizer-templates'), tokens.admin, {
      name: 'Individual organizer', reportTypeId: ids.rtOwn,
      sections: [{ id: 'income', title: 'Income', questions: [
        { id: 'sold_shares', type: 'yes_no', title: 'Did you sell shares?', required: true, requestItem: { when: true, title: '1099-B from your broker' } },
      ] }],
    });
    expect(t.status).toBe(201);
    ids.template = t.body.id;
  }, BUS_WAIT_MS, 300);
  expect((await call('POST', path('/request-templates'), tokens.admin, { name: 'Individual checklist', reportTypeId: ids.rtOwn, items: [{ title: 'W-2' }] })).status).toBe(201);
}, 180_000);

afterAll(async () => {
  cast.closeSockets();
  await portal?.stop();
});

describe('POST /compliance-tracker/{id}/organizer', () => {
  it('a report type without a template is 400 saying so', async () => {
    const item = await newItem(ids.own!, ids.rtBare!, '4');
    const r = await sendOrganizer('admin', item.id);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('No organizer template fits Trust Return: make one for this report type, or choose one (templateId).');
  });

  it('makes the item\'s organizer (its client, report type, year; due the lead days before the item) and sends it: the item waits on the client', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '9');
    const socket = await cast.signedInSocket(tokens.client!);
    const pushed: OrganizerPush[] = [];
    socket.on(ORGANIZER_PUSH, (p: OrganizerPush) => pushed.push(p));
    const r = await sendOrganizer('cpa', item.id);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      clientId: ids.own, reportTypeId: ids.rtOwn, trackerItemId: item.id, templateId: ids.template, status: 'sent',
      year: Number(item.periodStart.slice(0, 4)), dueDate: addDays(item.dueDate, -7),
    });
    await eventually(async () => expect(await stageOf(item.id)).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
    await eventually(async () => expect(pushed.map((p) => [p.organizerId, p.status])).toContainEqual([r.body.id, 'sent']), BUS_WAIT_MS, 200);
    await eventually(async () => expect((await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=200`), tokens.admin)).body.map((l) => l.details))
      .toContain(`Sent the organizer "${r.body.title}" to Own Client`), BUS_WAIT_MS, 300);
    // The same item, template and year again: the organizer exists (409).
    expect((await sendOrganizer('admin', item.id, { templateId: ids.template })).status).toBe(409);
    ids.sentItem = item.id;
    ids.sentOrganizer = r.body.id;
  });

  it('a CPA without the item\'s report type, a Client user and another firm cannot', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '10');
    expect((await sendOrganizer('cpaAudit', item.id)).status).toBe(404);
    expect([403, 404]).toContain((await sendOrganizer('client', item.id)).status);
    expect((await sendOrganizer('betaAdmin', item.id, {}, BETA)).status).toBe(404);
    expect((await sendOrganizer('cpaAudit', item.id, { templateId: ids.template })).status).toBe(404);
  });

  it('a body due date and a draft (sendNow false) are kept; a draft does not move the item', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '11');
    const r = await sendOrganizer('admin', item.id, { templateId: await newTemplate(), dueDate: addDays(item.dueDate, -30), sendNow: false });
    expect(r.body).toMatchObject({ status: 'draft', dueDate: addDays(item.dueDate, -30) });
    expect(await stageOf(item.id)).toBe('not-started');
  });
});

describe('stage moves from organizers', () => {
  it('documents all in while the organizer is still being answered: the item keeps waiting; submitted with nothing outstanding → In preparation', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '8');
    const organizer = (await sendOrganizer('admin', item.id, { templateId: await newTemplate() })).body;
    expect(organizer.status).toBe('sent');
    const request = await call<DocumentRequest>('POST', path(`/compliance-tracker/${item.id}/document-request`), tokens.admin, {});
    expect(request.status).toBe(201);
    await eventually(async () => expect(await stageOf(item.id)).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
    expect((await answer('client', organizer.id, { sold_shares: false })).status).toBe(200);
    const decided = await call('PATCH', path(`/document-requests/${request.body.id}/items/${request.body.items[0]!.id}`), tokens.client, { status: 'not_applicable', comment: 'No W-2' });
    expect(decided.status).toBe(200);
    // The request's completion is kept by the tracker (its "Documents in"), yet the organizer is still open: no move.
    await eventually(async () => expect((await itemAs('admin', item.id)).documentRequest?.status).toBe('completed'), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('waiting-on-client');
    expect((await submit('client', organizer.id)).status).toBe(200);
    await eventually(async () => expect(await stageOf(item.id)).toBe('in-preparation'), BUS_WAIT_MS, 300);
    expect((await itemAs('client', item.id)).clientStage).toBe('We are preparing it');
    // Reopened for changes: the item waits on the client again, and moves on at the resubmission.
    expect((await call('POST', path(`/organizers/${organizer.id}/reopen`), tokens.admin)).status).toBe(200);
    await eventually(async () => expect(await stageOf(item.id)).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
    expect((await submit('client', organizer.id)).status).toBe(200);
    await eventually(async () => expect(await stageOf(item.id)).toBe('in-preparation'), BUS_WAIT_MS, 300);
  });

  it('reopened after staff moved the item on: the item stays where staff put it', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '9');
    const organizer = (await sendOrganizer('admin', item.id, { templateId: await newTemplate() })).body;
    expect((await answer('client', organizer.id, { sold_shares: false })).status).toBe(200);
    expect((await submit('client', organizer.id)).status).toBe(200);
    await eventually(async () => expect(await stageOf(item.id)).toBe('in-preparation'), BUS_WAIT_MS, 300);
    const pipeline = (await call<Pipeline[]>('GET', path('/compliance-pipelines'), tokens.admin)).body.find((p) => p.reportTypeId === ids.rtOwn)!;
    const later = pipeline.stages[pipeline.stages.findIndex((s) => s.id === 'in-preparation') + 1]!;
    expect((await call('PATCH', path(`/compliance-tracker/${item.id}`), tokens.admin, { stage: later.id })).status).toBe(200);
    expect((await call('POST', path(`/organizers/${organizer.id}/reopen`), tokens.admin)).status).toBe(200);
    await eventually(async () => expect((await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=300`), tokens.admin)).body.map((l) => l.details))
      .toContain(`Reopened the organizer "${organizer.title}" for changes`), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe(later.id);
  });

  it('a revoked organizer link is in the activity log; the item stays where it is', async () => {
    const item = await newItem(ids.own!, ids.rtOwn!, '5');
    const organizer = (await sendOrganizer('admin', item.id, { templateId: await newTemplate() })).body;
    await eventually(async () => expect(await stageOf(item.id)).toBe('waiting-on-client'), BUS_WAIT_MS, 300);
    const link = (await call<{ id: number }>('POST', path(`/organizers/${organizer.id}/links`), tokens.admin, {})).body;
    expect((await call('DELETE', path(`/organizers/${organizer.id}/links/${link.id}`), tokens.admin)).status).toBe(200);
    await eventually(async () => expect((await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=300`), tokens.admin)).body.map((l) => l.details))
      .toContain(`Revoked a link to the organizer "${organizer.title}": it no longer opens it`), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('waiting-on-client');
  });

  it('submitted with answers that call for documents: the item keeps waiting on the client until they are in', async () => {
    const organizer = ids.sentOrganizer!;
    expect((await answer('client', organizer, { sold_shares: true })).status).toBe(200);
    const done = await submit('client', organizer);
    expect(done.status).toBe(200);
    const request = (await call<DocumentRequest>('GET', path(`/document-requests/${done.body.requestId}`), tokens.admin)).body;
    expect(request).toMatchObject({ trackerItemId: ids.sentItem, reportTypeId: ids.rtOwn });
    expect(request.items.map((i) => i.title)).toEqual(['1099-B from your broker']);
    await eventually(async () => expect((await itemAs('admin', ids.sentItem!)).documentRequest?.id).toBe(request.id), BUS_WAIT_MS, 300);
    await eventually(async () => expect((await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=200`), tokens.admin)).body.map((l) => l.details))
      .toContain(`Submitted the organizer "${done.body.title}": the answers are filed as a PDF and the documents they call for were requested`), BUS_WAIT_MS, 300);
    expect(await stageOf(ids.sentItem!)).toBe('waiting-on-client');
    expect((await call('PATCH', path(`/document-requests/${request.id}/items/${request.items[0]!.id}`), tokens.client, { status: 'not_applicable', comment: 'Sold nothing after all' })).status).toBe(200);
    await eventually(async () => expect(await stageOf(ids.sentItem!)).toBe('in-preparation'), BUS_WAIT_MS, 300);
  });

  it('a firm that turned the "request sent" move off: sending an organizer leaves the item where it is', async () => {
    const pipeline = (await call<Pipeline[]>('GET', path('/compliance-pipelines'), tokens.admin)).body.find((p) => p.reportTypeId === ids.rtOwn)!;
    expect((await call('PUT', path(`/compliance-pipelines/${ids.rtOwn}`), tokens.admin, { stages: pipeline.stages, automations: { ...pipeline.automations, requestSent: null } })).status).toBe(200);
    const item = await newItem(ids.own!, ids.rtOwn!, '6');
    const organizer = (await sendOrganizer('admin', item.id, { templateId: await newTemplate() })).body;
    expect(organizer.status).toBe('sent');
    await eventually(async () => expect((await call<ActivityLog[]>('GET', path(`/activity-logs?clientId=${ids.own}&limit=300`), tokens.admin)).body.map((l) => l.details))
      .toContain(`Sent the organizer "${organizer.title}" to Own Client`), BUS_WAIT_MS, 300);
    expect(await stageOf(item.id)).toBe('not-started');
  });
});
