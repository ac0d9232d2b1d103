import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newEvent, type EventEnvelope } from '@ledgerline/kit/bus/bus.ts';
import { CLIENT_UPSERTED } from '@ledgerline/kit/directory/directory-read-model.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { sampleDocument } from '@ledgerline/kit/testing/sample-documents.ts';
import { startOpenAiStandIn, type OpenAiStandIn } from '@ledgerline/kit/testing/openai-stand-in.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import {
  COMPLIANCE_ITEM_DELETED, COMPLIANCE_ITEM_UPSERTED, INSIGHTS_MATCH_DETECTED, type ComplianceItemEvent, type InsightsMatchDetected,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { FILE_TEXT_ASSERTION_HEADER, fileTextPath, type FileTextAssertion } from '@ledgerline/contracts/files.contracts.ts';
import { DEFAULT_RULE_SETTINGS, INSIGHT_MESSAGES, REGISTRATION_SCOPE, type AnalysisResult, type ComplianceInsight, type FirmAnalysisResult, type InsightBulkResult, type InsightRuleSettings } from '@ledgerline/contracts/insights.contracts.ts';

/*
 * The insights service through the gateway: tracker items arrive as the compliance
 * service's events (published on the portal's bus here), files through the real upload
 * and extraction. The AI provider is the local stand-in, so every report is also
 * classified: its default reply is not the schema's JSON (rules only), and the model
 * cases queue the replies they need.
 */

const BUS_WAIT_MS = 20_000;
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let standIn: OpenAiStandIn;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const ACME = `insacme${suffix}`;
const BETA = `insbeta${suffix}`;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const matches: InsightsMatchDetected[] = [];
let nextItemId = 700_000;

/** The first day of the month `offset` months from now, and its last day (UTC). */
function month(offset: number): { start: string; end: string; label: string; name: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const name = first.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10), label: name, name };
}
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function publishItem(tenant: string, over: Partial<ComplianceItemEvent> & { clientId: number; reportTypeId: number }, monthOffset: number, dueOffsetDays: number): Promise<number> {
  const m = month(monthOffset);
  const item: ComplianceItemEvent = {
    id: ++nextItemId, scheduleId: 1, period: m.label, periodStart: m.start, periodEnd: m.end, dueDate: day(dueOffsetDays), status: 'pending',
    filedDate: null, extensionDate: null, assignedToId: null, aiConfidence: 0, autoDetected: false, sourceFileId: null, ...over,
  };
  await portal.bus!.publish([newEvent(COMPLIANCE_ITEM_UPSERTED, tenant, item)]);
  return item.id;
}

async function upload(who: string, clientId: number, reportTypeId: number | null, name: string, text: string, tenant = ACME): Promise<number> {
  const form = new FormData();
  form.append('fileType', 'report');
  form.append('clientId', String(clientId));
  if (reportTypeId) form.append('reportTypeId', String(reportTypeId));
  form.append('file', new Blob([text], { type: 'text/plain' }), name);
  const r = await fetch(`${portal.gatewayUrl}/api/${tenant}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens[who]}` }, body: form });
  expect(r.status).toBe(201);
  return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
}

const insightsOf = async (who: string, query = '', tenant = ACME) => {
  const r = await call<ComplianceInsight[]>('GET', `/api/${tenant}/compliance-insights${query}`, tokens[who]);
  expect(r.status).toBe(200);
  return r.body;
};
/** The tracker items an insight is about: a grouped card's, or a match's one. */
const itemIdsOf = (i: ComplianceInsight): number[] => {
  const m = i.metadata as { items?: { trackerItemId: number }[]; trackerItemId?: number };
  return m.items ? m.items.map((x) => x.trackerItemId) : m.trackerItemId ? [m.trackerItemId] : [];
};
const about = (list: ComplianceInsight[], itemId: number, type: string) =>
  list.filter((i) => i.insightType === type && itemIdsOf(i).includes(itemId));
const analyze = (who: string | null, clientId: number, tenant = ACME) =>
  call<AnalysisResult>('POST', `/api/${tenant}/public/clients/${clientId}/analyze-compliance`, who ? tokens[who] : null);
const review = (who: string, id: number, body: Record<string, unknown>, tenant = ACME) =>
  call<ComplianceInsight & { message?: string }>('PUT', `/api/${tenant}/compliance-insights/${id}`, tokens[who], body);

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
  portal = await startTestPortal({ AI_MODEL: 'stand-in', OPENAI_BASE_URL: standIn.url, AI_MAX_RETRIES: '0' });
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const firm of [ACME, BETA]) expect((await call('POST', '/api/companies', tokens.platform, { name: `${firm} Tax`, shortName: firm })).status).toBe(201);
  // The firm's clients are Indian companies (the directory would otherwise take the firm's phone country).
  const client = async (tenant: string, name: string) => (await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, { ...testClient(name), jurisdiction: 'IN' })).body.id;
  ids.own = await client(ACME, 'Own Client');
  ids.other = await client(ACME, 'Other Client');
  ids.beta = await client(BETA, 'Beta Client');
  const type = async (tenant: string, name: string) => (await call<{ id: number }>('POST', `/api/${tenant}/report-types`, tokens.platform, { name })).body.id;
  ids.gst = await type(ACME, 'GSTR-3B');
  ids.tds = await type(ACME, 'TDS Return');
  const people: [string, string, number, number[] | null, number[] | null][] = [
    ['admin', ACME, 1, null, null], ['dta', ACME, 2, null, null], ['cpa', ACME, 3, [ids.own!], [ids.gst!, ids.tds!]], ['cpaTds', ACME, 3, [ids.own!, ids.other!], [ids.tds!]],
    ['client', ACME, 4, [ids.own!], null], ['betaAdmin', BETA, 1, null, null],
  ];
  for (const [who, tenant, roleId, clientIds, reportTypeIds] of people) {
    const u = await createSignedInUser(call, tokens.platform, tenant, { username: `${who}_${suffix}`, fullName: `${who} person`, roleId, clientIds, reportTypeIds });
    ids[who] = u.id;
    tokens[who] = u.token;
  }
  await portal.bus!.subscribe(`test-matches-${suffix}`, [INSIGHTS_MATCH_DETECTED], async (e: EventEnvelope) => { matches.push(e.payload as InsightsMatchDetected); });
}, 120_000);

afterAll(async () => {
  await portal?.stop();
  await standIn?.close();
});

describe('on-demand analysis', () => {
  let overdue: number;
  let dueSoon: number;

  beforeAll(async () => {
    overdue = await publishItem(ACME, { clientId: ids.own!, reportTypeId: ids.gst! }, -1, -10);
    dueSoon = await publishItem(ACME, { clientId: ids.own!, reportTypeId: ids.tds! }, 0, 3);
    await publishItem(ACME, { clientId: ids.own!, reportTypeId: ids.tds! }, 1, 40);
  });

  it('is for an Admin of the client\'s firm only: 401 without a token, 403 for other roles and firms, 404 for an unknown client', async () => {
    expect((await analyze(null, ids.own!)).status).toBe(401);
    for (const who of ['dta', 'cpa', 'client']) {
      const r = await analyze(who, ids.own!);
      expect(r.status).toBe(403);
      expect((r.body as unknown as { message: string }).message).toBe(INSIGHT_MESSAGES.adminOnly);
    }
    expect([401, 403]).toContain((await call('POST', `/api/${ACME}/public/clients/${ids.own}/analyze-compliance`, tokens.betaAdmin)).status);
    expect((await analyze('admin', 999_999)).status).toBe(404);
  });

  it('raises missing_document insights (high when overdue, medium within the reminder window, none beyond it) and never twice', async () => {
    let first: AnalysisResult | undefined;
    await eventually(async () => {
      const r = await analyze('admin', ids.own!);
      expect(r.status).toBe(200);
      first = first ?? (r.body.newInsights > 0 ? r.body : undefined);
      const list = await insightsOf('admin', `?clientId=${ids.own}`);
      expect(about(list, overdue, 'missing_document')).toHaveLength(1);
      expect(about(list, dueSoon, 'missing_document')).toHaveLength(1);
    }, BUS_WAIT_MS, 200);
    expect(first!.message).toMatch(/^Analysis complete: \d+ new insights?$/);
    const list = await insightsOf('admin', `?clientId=${ids.own}`);
    expect(about(list, overdue, 'missing_document')[0]).toMatchObject({ priority: 'high', status: 'pending', clientName: 'Own Client', fileId: null });
    expect(about(list, dueSoon, 'missing_document')[0]).toMatchObject({ priority: 'medium' });
    expect(list.filter((i) => i.insightType === 'missing_document')).toHaveLength(2);

    const again = await analyze('admin', ids.own!);
    expect(again.body).toMatchObject({ message: 'Analysis complete: 0 new insights', newInsights: 0 });
    expect(await insightsOf('admin', `?clientId=${ids.own}`)).toHaveLength(list.length);
  });

  it('matches an uploaded acknowledgement to its item, tells compliance, and retires the missing_document insight', async () => {
    const m = month(-1);
    // Another client's and another report type's acknowledgements for the same period are no match.
    await upload('admin', ids.other!, ids.gst!, `GSTR-3B acknowledgement ${m.name}.txt`, `ARN AA07${suffix}. Filed for ${m.name}.`);
    await upload('admin', ids.own!, ids.tds!, `TDS acknowledgement ${m.name}.txt`, `Filed for ${m.name}.`);
    const fileId = await upload('admin', ids.own!, ids.gst!, 'GSTR-3B acknowledgement.txt', `Acknowledgement. ARN AA07${suffix}. Return filed for ${m.name}.`);
    await eventually(async () => {
      const list = await insightsOf('admin', `?clientId=${ids.own}`);
      expect(about(list, overdue, 'compliance_match')).toEqual([expect.objectContaining({ fileId, fileName: 'GSTR-3B acknowledgement.txt', status: 'pending' })]);
      expect(about(list, overdue, 'missing_document')[0]).toMatchObject({ status: 'dismissed', reviewedById: null });
    }, BUS_WAIT_MS, 200);
    const match = about(await insightsOf('admin', `?clientId=${ids.own}`), overdue, 'compliance_match')[0]!;
    expect(match.confidence).toBeGreaterThan(0.5);
    await eventually(() => expect(matches).toContainEqual({ itemId: overdue, aiConfidence: match.confidence, sourceFileId: fileId }), BUS_WAIT_MS);
    expect(about(await insightsOf('admin', `?clientId=${ids.other}`), overdue, 'compliance_match')).toEqual([]);
  });

  it('retires the open insights of an item once it is filed', async () => {
    const m = month(0);
    await portal.bus!.publish([newEvent(COMPLIANCE_ITEM_UPSERTED, ACME, {
      id: dueSoon, scheduleId: 1, clientId: ids.own!, reportTypeId: ids.tds!, period: m.label, periodStart: m.start, periodEnd: m.end, dueDate: day(3),
      status: 'filed', filedDate: new Date().toISOString(), extensionDate: null, assignedToId: null, aiConfidence: 0, autoDetected: false, sourceFileId: null,
    } satisfies ComplianceItemEvent)]);
    await eventually(async () => expect(about(await insightsOf('admin'), dueSoon, 'missing_document')[0]?.status).toBe('dismissed'), BUS_WAIT_MS, 200);
    expect((await analyze('admin', ids.own!)).body.newInsights).toBe(0);
  });

  it('retires an item\'s insights when the item is deleted', async () => {
    const gone = await publishItem(ACME, { clientId: ids.other!, reportTypeId: ids.tds! }, -2, -20);
    await eventually(async () => {
      await analyze('admin', ids.other!);
      expect(about(await insightsOf('admin'), gone, 'missing_document')[0]?.status).toBe('pending');
    }, BUS_WAIT_MS, 200);
    await portal.bus!.publish([newEvent(COMPLIANCE_ITEM_DELETED, ACME, { id: gone, clientId: ids.other! })]);
    await eventually(async () => expect(about(await insightsOf('admin'), gone, 'missing_document')[0]?.status).toBe('dismissed'), BUS_WAIT_MS, 200);
  });
});

describe('threshold_alert', () => {
  it('flags a turnover above the firm\'s threshold after extraction, and follows the firm\'s settings', async () => {
    const fileId = await upload('admin', ids.other!, null, 'financials.txt', 'Statement of accounts\nAggregate turnover: Rs. 45,00,000\n');
    await eventually(async () => {
      const alert = (await insightsOf('admin')).find((i) => i.fileId === fileId && i.insightType === 'threshold_alert');
      // An Indian client is held to India's ₹20 lakh, shown in rupees.
      expect(alert).toMatchObject({
        priority: 'high', clientName: 'Other Client', title: 'Turnover of ₹45,00,000 is above the IN threshold of ₹20,00,000',
        metadata: { amount: 4_500_000, keyword: 'turnover', threshold: 2_000_000, currency: 'INR', jurisdiction: 'IN' },
      });
    }, BUS_WAIT_MS, 200);
    const defaults = (await call<InsightRuleSettings>('GET', `/api/${ACME}/compliance-insights/rules`, tokens.cpa)).body;
    expect(defaults.defaultJurisdiction).toBe('IN');
    expect(defaults.thresholds.map((t) => [t.jurisdiction, t.currency, t.threshold])).toEqual([['IN', 'INR', 2_000_000], ['UK', 'GBP', 90_000], ['AU', 'AUD', 75_000], ['US', 'USD', 100_000], ['CA', 'CAD', 30_000]]);

    expect((await call('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.dta, { keywords: ['turnover'], thresholds: [] })).status).toBe(403);
    const bad = await call<{ message: string }>('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { keywords: [], thresholds: [{ jurisdiction: 'IN', threshold: -1 }] });
    expect(bad.status).toBe(400);
    expect((await call('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { keywords: ['turnover'], thresholds: [{ jurisdiction: 'XX', threshold: 1 }] })).body)
      .toMatchObject({ message: 'Jurisdiction must be one of US, CA, IN, UK, AU' });
    expect((await call('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { keywords: ['turnover'], thresholds: [{ jurisdiction: 'UK', currency: 'USD', threshold: 1 }] })).body)
      .toMatchObject({ message: 'Thresholds for UK are in GBP' });
    // A firm without an Indian rule gets no alert on its Indian clients.
    const saved = await call<InsightRuleSettings>('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { keywords: ['Turnover'], thresholds: [{ jurisdiction: 'UK', threshold: 90_000, obligation: 'VAT registration' }] });
    expect(saved.body).toEqual({ keywords: ['turnover'], defaultJurisdiction: 'IN', thresholds: [{ jurisdiction: 'UK', currency: 'GBP', threshold: 90_000, reportTypeId: null, obligation: 'VAT registration', source: null, ...REGISTRATION_SCOPE }] });
    expect((await call('GET', `/api/${ACME}/compliance-insights/rules`, tokens.cpa)).body).toEqual(saved.body);
    await analyze('admin', ids.other!);
    expect((await insightsOf('admin')).find((i) => i.fileId === fileId && i.insightType === 'threshold_alert')?.status).toBe('dismissed');
    // Once the client is a UK one, the same ₹45,00,000 (read as 4,500,000) crosses the £90,000 VAT threshold, said in pounds.
    expect((await call('PUT', `/api/${ACME}/clients/${ids.other}`, tokens.platform, { ...testClient('Other Client'), jurisdiction: 'UK' })).status).toBe(200);
    await eventually(async () => {
      await analyze('admin', ids.other!);
      expect((await insightsOf('admin')).find((i) => i.fileId === fileId && i.insightType === 'threshold_alert' && i.status === 'pending'))
        .toMatchObject({ title: 'Turnover of £4,500,000 is above the UK threshold of £90,000', metadata: { currency: 'GBP', jurisdiction: 'UK' } });
    }, BUS_WAIT_MS, 500);
    expect((await call('PUT', `/api/${ACME}/clients/${ids.other}`, tokens.platform, { ...testClient('Other Client'), jurisdiction: 'IN' })).status).toBe(200);
    await call('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { ...DEFAULT_RULE_SETTINGS });
  });
});

describe('reviewing and visibility', () => {
  let pending: ComplianceInsight;
  let otherClients: ComplianceInsight;

  beforeAll(async () => {
    const a = await publishItem(ACME, { clientId: ids.own!, reportTypeId: ids.tds! }, -3, -60);
    const b = await publishItem(ACME, { clientId: ids.other!, reportTypeId: ids.gst! }, -3, -60);
    await eventually(async () => {
      await analyze('admin', ids.own!);
      await analyze('admin', ids.other!);
      const list = await insightsOf('admin');
      pending = about(list, a, 'missing_document')[0]!;
      otherClients = about(list, b, 'missing_document')[0]!;
      expect(pending && otherClients).toBeTruthy();
    }, BUS_WAIT_MS, 200);
  });

  it('records the caller as reviewer whatever the body says, and enforces the transitions (409)', async () => {
    const reviewed = await review('cpa', pending.id, { status: 'reviewed', reviewedById: ids.admin });
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toMatchObject({ status: 'reviewed', reviewedById: ids.cpa, reviewedByName: 'cpa person' });
    expect(reviewed.body.reviewedAt).not.toBeNull();
    const back = await review('admin', pending.id, { status: 'pending' });
    expect(back.status).toBe(409);
    expect(back.body.message).toBe(INSIGHT_MESSAGES.transition('reviewed', 'pending'));
    expect((await review('admin', pending.id, { status: 'reviewed' })).status).toBe(409);
    expect((await review('dta', pending.id, { status: 'acted_upon' })).body).toMatchObject({ status: 'acted_upon', reviewedById: ids.dta });
    expect((await review('admin', pending.id, { status: 'dismissed' })).status).toBe(409);
    expect((await review('admin', pending.id, { status: 'archived' })).status).toBe(400);
  });

  it('keeps a subject a person acted upon closed on re-run', async () => {
    await analyze('admin', ids.own!);
    const subject = itemIdsOf(pending)[0]!;
    expect(about(await insightsOf('admin'), subject, 'missing_document').map((i) => i.status)).toEqual(['acted_upon']);
  });

  it('lets Admin and DTA read every client, CPA and Client users their own, and only staff review', async () => {
    const all = await insightsOf('admin');
    expect(new Set(all.map((i) => i.clientId))).toEqual(new Set([ids.own, ids.other]));
    expect(await insightsOf('dta')).toHaveLength(all.length);
    for (const who of ['cpa', 'client']) {
      const mine = await insightsOf(who);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((i) => i.clientId === ids.own)).toBe(true);
    }
    expect(await insightsOf('cpa', `?clientId=${ids.other}`)).toEqual([]);
    const clientReview = await review('client', pending.id, { status: 'dismissed' });
    expect(clientReview.status).toBe(403);
    expect(clientReview.body.message).toBe(INSIGHT_MESSAGES.readOnly);
    expect((await review('cpa', otherClients.id, { status: 'reviewed' })).status).toBe(404);
    expect((await review('admin', 999_999, { status: 'reviewed' })).status).toBe(404);
  });

  it('shows a CPA only the insights of the report types in their list, as files do (an insight about no type goes by its client)', async () => {
    const gstFile = await upload('admin', ids.other!, ids.gst!, 'gst-turnover.txt', 'Turnover working for GST\nAggregate turnover: Rs. 61,00,000\n');
    let alert: ComplianceInsight | undefined;
    await eventually(async () => {
      alert = (await insightsOf('admin')).find((i) => i.fileId === gstFile && i.insightType === 'threshold_alert');
      expect(alert).toMatchObject({ status: 'pending', metadata: { reportTypeId: ids.gst } });
    }, BUS_WAIT_MS, 200);
    // The file is hidden from the CPA whose list holds only TDS; so is everything quoted from it.
    expect((await fetch(`${portal.gatewayUrl}/api/${ACME}/files/${gstFile}`, { headers: { authorization: `Bearer ${tokens.cpaTds}` } })).status).toBe(404);
    const seen = await insightsOf('cpaTds');
    expect(seen.some((i) => i.fileId === gstFile)).toBe(false);
    expect(JSON.stringify(seen)).not.toContain('gst-turnover.txt');
    expect(seen.every((i) => i.metadata.reportTypeId === undefined || i.metadata.reportTypeId === null || i.metadata.reportTypeId === ids.tds)).toBe(true);
    expect(seen.some((i) => i.metadata.reportTypeId === ids.tds)).toBe(true);
    expect(await review('cpaTds', alert!.id, { status: 'dismissed' })).toMatchObject({ status: 404, body: { message: INSIGHT_MESSAGES.notFound } });
    expect((await insightsOf('admin')).find((i) => i.id === alert!.id)?.status).toBe('pending');
    // Staff whose reach is every report type see it.
    expect((await insightsOf('dta')).some((i) => i.id === alert!.id)).toBe(true);
  });

  it('filters by status and priority, and refuses unknown filter values', async () => {
    expect((await insightsOf('admin', '?status=acted_upon')).every((i) => i.status === 'acted_upon')).toBe(true);
    expect((await insightsOf('admin', '?priority=high&status=')).every((i) => i.priority === 'high')).toBe(true);
    expect((await call('GET', `/api/${ACME}/compliance-insights?status=archived`, tokens.admin)).status).toBe(400);
  });

  it('keeps firms apart', async () => {
    expect(await insightsOf('betaAdmin', '', BETA)).toEqual([]);
    expect([401, 403]).toContain((await call('GET', `/api/${BETA}/compliance-insights`, tokens.admin)).status);
    expect([401, 403]).toContain((await review('betaAdmin', pending.id, { status: 'dismissed' }, ACME)).status);
    expect((await review('betaAdmin', pending.id, { status: 'dismissed' }, BETA)).status).toBe(404);
  });
});

describe('reading a report\'s text without a user', () => {
  it('the files service answers only a genuine assertion naming that file and firm', async () => {
    const filesUrl = portal.serviceUrls.get('files')!;
    const asked = standIn.requests.length;
    const fileId = await upload('admin', ids.own!, ids.gst!, 'notes.txt', 'Plain notes');
    // Its classification is asked of the stand-in too: let it happen before the model cases queue their replies.
    await eventually(() => expect(standIn.requests.length).toBeGreaterThan(asked), BUS_WAIT_MS);
    const ask = (headers: Record<string, string>) => fetch(`${filesUrl}${fileTextPath(fileId)}`, { headers: { [TENANT_HEADER]: ACME, ...headers } });
    expect((await ask({})).status).toBe(401);
    expect((await ask({ [FILE_TEXT_ASSERTION_HEADER]: 'forged.assertion' })).status).toBe(403);
    const other = new TokenSigner<FileTextAssertion>(randomBytes(32)).sign({ t: ACME, f: fileId }, 60).token;
    expect((await ask({ [FILE_TEXT_ASSERTION_HEADER]: other })).status).toBe(403);
  });
});

describe('model mode (the stand-in)', () => {
  /** An overdue GST item of the own client `monthsBack` months ago, and an acknowledgement naming its period in the text only. */
  async function matchWith(monthsBack: number, queue: () => void): Promise<ComplianceInsight> {
    const m = month(-monthsBack);
    const itemId = await publishItem(ACME, { clientId: ids.own!, reportTypeId: ids.gst! }, -monthsBack, -monthsBack * 30 + 20);
    await eventually(async () => { await analyze('admin', ids.own!); expect(about(await insightsOf('admin'), itemId, 'missing_document')).toHaveLength(1); }, BUS_WAIT_MS, 200);
    const asked = standIn.requests.length;
    queue();
    await upload('admin', ids.own!, ids.gst!, `scan-${monthsBack}.txt`, `Acknowledgement\nReturn filed for ${m.name}\n`);
    await eventually(() => expect(standIn.requests.length).toBeGreaterThan(asked), BUS_WAIT_MS);
    let insight: ComplianceInsight | undefined;
    await eventually(async () => {
      insight = about(await insightsOf('admin'), itemId, 'compliance_match')[0];
      expect(insight).toBeDefined();
    }, BUS_WAIT_MS, 200);
    return insight!;
  }
  const classification = (monthsBack: number, filed: boolean) => {
    const m = month(-monthsBack);
    return JSON.stringify({ reportType: 'GSTR-3B', period: { start: m.start, end: m.end }, filed, amounts: [] });
  };

  it('a valid answer that agrees raises the confidence above the rules\' own; one that disagrees lowers it', async () => {
    const agreed = await matchWith(5, () => standIn.enqueue({ reply: classification(5, true) }));
    const disagreed = await matchWith(6, () => standIn.enqueue({ reply: classification(6, false) }));
    const invalid = await matchWith(7, () => standIn.enqueue({ reply: 'This looks like a GST acknowledgement for the month.' }));
    const missing = await matchWith(8, () => standIn.enqueue({ status: 500 }));
    expect(invalid.confidence).toBe(0.55);
    expect(missing.confidence).toBe(0.55);
    expect(agreed.confidence).toBeGreaterThan(invalid.confidence);
    expect(disagreed.confidence).toBeLessThan(invalid.confidence);
    expect(agreed.metadata).toMatchObject({ model: true });
    expect(invalid.metadata).toMatchObject({ model: false });
    // The prompt carries the document as data and asks for the schema.
    const prompt = standIn.requests.at(-1)!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Reply with one JSON object');
    expect(prompt).toContain('Return filed for');
  });
});

describe('thresholds by the client\'s jurisdiction', () => {
  it('a US client is held to the US threshold in dollars, an Indian one to India\'s in rupees', async () => {
    const usClient = (await call<Client>('POST', `/api/${ACME}/clients`, tokens.platform, testClient('Delaware Widgets Inc'))).body;
    // The directory's client events carry the client's jurisdiction (issue 23); published here as it would.
    await portal.bus!.publish([newEvent(CLIENT_UPSERTED, ACME, { id: usClient.id, name: usClient.name, uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US' })]);
    const usFile = await upload('admin', usClient.id, null, 'us-financials.txt', 'Income statement\nGross receipts: $150,000\n');
    const inFile = await upload('admin', ids.own!, null, 'in-financials.txt', 'Statement of accounts\nGross receipts: Rs. 1,50,000\n');
    await eventually(async () => {
      const alert = (await insightsOf('admin')).find((i) => i.fileId === usFile && i.insightType === 'threshold_alert');
      expect(alert).toMatchObject({ title: 'Gross receipts of $150,000 is above the US threshold of $100,000', metadata: { currency: 'USD', jurisdiction: 'US', threshold: 100_000 } });
      expect(alert!.description).toContain('state sales-tax economic nexus');
      expect(alert!.description).not.toContain('GST');
    }, BUS_WAIT_MS, 200);
    await analyze('admin', ids.own!);
    expect((await insightsOf('admin')).filter((i) => i.fileId === inFile && i.insightType === 'threshold_alert')).toEqual([]);
  });

  it('an individual\'s prior-year 1040 raises no sales-tax nexus alert from its "Total income" (issue 44)', async () => {
    const person = (await call<Client>('POST', `/api/${ACME}/clients`, tokens.platform, testClient('Eleanor Whitfield'))).body;
    await portal.bus!.publish([newEvent(CLIENT_UPSERTED, ACME, {
      id: person.id, name: person.name, uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: 'individual',
    })]);
    const text = sampleDocument('us-1040-2024.txt');
    const returnFile = await upload('admin', person.id, null, 'Whitfield 2024 return.txt', text);
    const invoiceFile = await upload('admin', person.id, null, 'invoice.txt', 'INVOICE\nTotal $121,411.20\n');
    await eventually(async () => {
      await analyze('admin', person.id);
      const files = (await call<{ id: number; processedAt: string | null }[]>('GET', `/api/${ACME}/files?limit=1000`, tokens.admin)).body;
      expect(files.filter((f) => [returnFile, invoiceFile].includes(f.id) && f.processedAt)).toHaveLength(2);
    }, BUS_WAIT_MS, 500);
    await call<FirmAnalysisResult>('POST', `/api/${ACME}/compliance-insights/analyze-all`, tokens.admin);
    // Neither the return nor (the client being a private individual) an invoice of hers.
    expect((await insightsOf('admin', `?clientId=${person.id}`)).filter((i) => i.insightType === 'threshold_alert')).toEqual([]);
    // Once her record says she is a sole proprietor, the invoice counts, its cents printed; the return still does not.
    await portal.bus!.publish([newEvent(CLIENT_UPSERTED, ACME, {
      id: person.id, name: person.name, uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: 'sole_proprietor',
    })]);
    await eventually(async () => {
      await analyze('admin', person.id);
      const alerts = (await insightsOf('admin', `?clientId=${person.id}`)).filter((i) => i.insightType === 'threshold_alert');
      expect(alerts.map((a) => [a.fileId, a.title])).toEqual([[invoiceFile, 'Total of $121,411.20 is above the US threshold of $100,000']]);
      expect(alerts[0]!.metadata).toMatchObject({ documentKind: 'invoice' });
    }, BUS_WAIT_MS, 500);
  });

  it('a threshold says which client types and document kinds it is about', async () => {
    const put = (thresholds: unknown[]) => call<InsightRuleSettings & { message: string }>('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { keywords: ['turnover'], thresholds });
    const scoped = await put([{ jurisdiction: 'US', threshold: 1_000_000, entityTypes: ['c_corp', 'c_corp'], documentKinds: ['sales_tax_return'] }]);
    expect(scoped.body.thresholds[0]).toMatchObject({ entityTypes: ['c_corp'], documentKinds: ['sales_tax_return'] });
    expect((await put([{ jurisdiction: 'US', threshold: 1, entityTypes: ['llc'] }])).status).toBe(400);
    expect((await put([{ jurisdiction: 'US', threshold: 1, documentKinds: ['w2'] }])).body.message).toMatch(/^Document kinds must be among wage_statement, /);
    await call('PUT', `/api/${ACME}/compliance-insights/rules`, tokens.admin, { ...DEFAULT_RULE_SETTINGS });
  });
});

describe('analysing every client and moving several insights at once', () => {
  it('an Admin analyses every client of the firm at once; nobody else may', async () => {
    expect((await call('POST', `/api/${ACME}/compliance-insights/analyze-all`, tokens.cpa)).status).toBe(403);
    expect((await call('POST', `/api/${ACME}/compliance-insights/analyze-all`, tokens.dta)).status).toBe(403);
    const first = await publishItem(ACME, { clientId: ids.own!, reportTypeId: ids.gst! }, -9, -240);
    const second = await publishItem(ACME, { clientId: ids.other!, reportTypeId: ids.tds! }, -9, -240);
    await eventually(async () => {
      const r = await call<FirmAnalysisResult>('POST', `/api/${ACME}/compliance-insights/analyze-all`, tokens.admin);
      expect(r.status).toBe(200);
      expect(r.body.clients).toBeGreaterThanOrEqual(2);
      expect(r.body.message).toMatch(/^Analysis complete: \d+ new insights? across \d+ clients$/);
      const list = await insightsOf('admin');
      expect(about(list, first, 'missing_document')).toHaveLength(1);
      expect(about(list, second, 'missing_document')).toHaveLength(1);
    }, BUS_WAIT_MS, 300);
    // Another firm's run does not touch this one.
    const beta = await call<FirmAnalysisResult>('POST', `/api/${BETA}/compliance-insights/analyze-all`, tokens.betaAdmin);
    expect(beta.status).toBe(200);
    expect((await insightsOf('betaAdmin', '', BETA)).every((i) => i.clientId === ids.beta)).toBe(true);
  });

  it('moves several insights by the same transitions; one out of reach or final is refused by name, the others move', async () => {
    const list = await insightsOf('admin');
    const pending = list.filter((i) => i.status === 'pending');
    const own = pending.find((i) => i.clientId === ids.own)!;
    const other = pending.find((i) => i.clientId === ids.other)!;
    const final = list.find((i) => i.status === 'dismissed')!;
    const bulk = (who: string, body: Record<string, unknown>, tenant = ACME) => call<InsightBulkResult & { message?: string }>('POST', `/api/${tenant}/compliance-insights/bulk-status`, tokens[who], body);

    expect((await bulk('client', { ids: [own.id], status: 'reviewed' })).status).toBe(403);
    expect((await bulk('admin', { ids: [], status: 'reviewed' })).body.message).toBe('Select at least one insight');
    expect((await bulk('admin', { ids: [own.id], status: 'closed' })).status).toBe(400);
    // Another firm's Admin reaches none of them.
    const foreign = await bulk('betaAdmin', { ids: [own.id], status: 'dismissed' }, BETA);
    expect(foreign.body).toEqual({ updated: [], refused: [{ id: own.id, message: INSIGHT_MESSAGES.notFound }] });

    // The CPA serves only the own client: the other client's insight is refused as not found.
    const byCpa = await bulk('cpa', { ids: [own.id, other.id, final.id], status: 'reviewed' });
    expect(byCpa.status).toBe(200);
    expect(byCpa.body.updated.map((i) => [i.id, i.status, i.reviewedByName])).toEqual([[own.id, 'reviewed', 'cpa person']]);
    expect(byCpa.body.refused).toEqual(expect.arrayContaining([
      { id: other.id, message: INSIGHT_MESSAGES.notFound },
    ]));
    const byAdmin = await bulk('admin', { ids: [own.id, other.id, final.id], status: 'acted_upon' });
    expect(byAdmin.body.updated.map((i) => i.id).sort()).toEqual([own.id, other.id].sort());
    expect(byAdmin.body.refused).toEqual([{ id: final.id, message: INSIGHT_MESSAGES.transition('dismissed', 'acted_upon') }]);
  });
});

describe('a November onboarding: missing periods grouped per client and report type', () => {
  let onboard: number;
  let gstCard: ComplianceInsight;
  const gstItems: number[] = [];
  const labels: string[] = [];

  beforeAll(async () => {
    onboard = (await call<Client>('POST', `/api/${ACME}/clients`, tokens.platform, { ...testClient('Onboard Traders'), jurisdiction: 'IN' })).body.id;
    // The year's covered periods so far, as "Generate" makes them: two monthly returns for each of
    // the last ten months (due 11th and 20th of the month after) and a quarterly TDS return.
    for (let back = 10; back >= 1; back--) {
      gstItems.push(await publishItem(ACME, { clientId: onboard, reportTypeId: ids.gst! }, -back, -back * 30 + 20));
      labels.push(month(-back).label);
      await publishItem(ACME, { clientId: onboard, reportTypeId: ids.tds! }, -back, -back * 30 + 11);
    }
  });

  it('gives one card per report type with the count and the periods, not one per month; re-analysis changes nothing', async () => {
    let cards: ComplianceInsight[] = [];
    await eventually(async () => {
      await analyze('admin', onboard);
      cards = (await insightsOf('admin', `?clientId=${onboard}`)).filter((i) => i.status === 'pending');
      expect(cards.map((c) => c.insightType).sort()).toEqual(['missing_document', 'missing_document']);
      // Every item's event has arrived (the bus may deliver them in any order).
      expect(cards.map((c) => c.periods.length)).toEqual([10, 10]);
    }, BUS_WAIT_MS, 300);
    gstCard = cards.find((c) => c.metadata.reportTypeId === ids.gst)!;
    expect(gstCard).toMatchObject({ title: 'GSTR-3B overdue for 10 periods', priority: 'high', periods: labels, clientName: 'Onboard Traders' });
    expect(itemIdsOf(gstCard)).toEqual(gstItems);
    expect(cards.find((c) => c.metadata.reportTypeId === ids.tds)!.periods).toHaveLength(10);

    const again = await analyze('admin', onboard);
    expect(again.body.newInsights).toBe(0);
    expect((await insightsOf('admin', `?clientId=${onboard}`)).filter((i) => i.status === 'pending').map((c) => [c.id, c.periods])).toEqual(cards.map((c) => [c.id, c.periods]));
  });

  it('drops a filed period from the same card', async () => {
    const m = month(-10);
    await portal.bus!.publish([newEvent(COMPLIANCE_ITEM_UPSERTED, ACME, {
      id: gstItems[0]!, scheduleId: 1, clientId: onboard, reportTypeId: ids.gst!, period: m.label, periodStart: m.start, periodEnd: m.end, dueDate: day(-280),
      status: 'filed', filedDate: new Date().toISOString(), extensionDate: null, assignedToId: null, aiConfidence: 0, autoDetected: false, sourceFileId: null,
    } satisfies ComplianceItemEvent)]);
    await eventually(async () => {
      const card = (await insightsOf('admin', `?clientId=${onboard}`)).find((i) => i.id === gstCard.id)!;
      expect(card).toMatchObject({ status: 'pending', title: 'GSTR-3B overdue for 9 periods', periods: labels.slice(1) });
    }, BUS_WAIT_MS, 200);
  });

  it('is seen by those who serve the client and the report type only, and by no other firm', async () => {
    const tdsOnly = await createSignedInUser(call, portal.adminToken, ACME, { username: `onboardtds_${suffix}`, fullName: 'TDS only', roleId: 3, clientIds: [onboard], reportTypeIds: [ids.tds!] });
    tokens.onboardTds = tdsOnly.token;
    const seen = await insightsOf('onboardTds', `?clientId=${onboard}`);
    expect(seen.map((i) => i.metadata.reportTypeId)).toEqual([ids.tds]);
    expect(await insightsOf('cpa', `?clientId=${onboard}`)).toEqual([]);
    expect(await insightsOf('betaAdmin', '', BETA)).not.toContainEqual(expect.objectContaining({ clientId: onboard }));
    expect((await review('onboardTds', gstCard.id, { status: 'reviewed' })).status).toBe(404);
  });

  it('a dismissal is undone by its dismisser, who gets the card back as it was; nobody else undoes it', async () => {
    const undo = (who: string, ids2: number[], tenant = ACME) => call<InsightBulkResult & { message?: string }>('POST', `/api/${tenant}/compliance-insights/undo-dismissal`, tokens[who], { ids: ids2 });
    expect((await review('cpa', gstCard.id, { status: 'reviewed' })).status).toBe(404);
    expect((await review('dta', gstCard.id, { status: 'reviewed' })).body).toMatchObject({ status: 'reviewed', reviewedByName: 'dta person' });
    expect((await review('admin', gstCard.id, { status: 'dismissed' })).body).toMatchObject({ status: 'dismissed', reviewedById: ids.admin });
    expect((await undo('client', [gstCard.id])).status).toBe(403);
    expect((await undo('dta', [gstCard.id])).body).toEqual({ updated: [], refused: [{ id: gstCard.id, message: INSIGHT_MESSAGES.notUndoable }] });
    expect((await undo('betaAdmin', [gstCard.id], BETA)).body).toEqual({ updated: [], refused: [{ id: gstCard.id, message: INSIGHT_MESSAGES.notFound }] });
    expect((await undo('admin', [])).status).toBe(400);
    const back = await undo('admin', [gstCard.id]);
    expect(back.status).toBe(200);
    expect(back.body.updated).toEqual([expect.objectContaining({ id: gstCard.id, status: 'reviewed', reviewedByName: 'dta person', periods: labels.slice(1) })]);
    // Undone once; a second undo finds nothing to undo, and a run leaves the card as it is.
    expect((await undo('admin', [gstCard.id])).body.refused).toEqual([{ id: gstCard.id, message: INSIGHT_MESSAGES.notUndoable }]);
    expect((await analyze('admin', onboard)).body.newInsights).toBe(0);
    expect((await insightsOf('admin', `?clientId=${onboard}`)).find((i) => i.id === gstCard.id)?.status).toBe('reviewed');
  });

  it('a dismissed card stays closed for its periods; a period missing later makes a new card of its own', async () => {
    expect((await review('admin', gstCard.id, { status: 'dismissed' })).status).toBe(200);
    expect((await analyze('admin', onboard)).body.newInsights).toBe(0);
    const later = await publishItem(ACME, { clientId: onboard, reportTypeId: ids.gst! }, 0, -2);
    await eventually(async () => {
      await analyze('admin', onboard);
      const open = (await insightsOf('admin', `?clientId=${onboard}`)).filter((i) => i.status === 'pending' && i.metadata.reportTypeId === ids.gst);
      expect(open.map((c) => [c.periods, itemIdsOf(c)])).toEqual([[[month(0).label], [later]]]);
    }, BUS_WAIT_MS, 200);
    // The new card holds the subject: the older dismissal can no longer be undone.
    const undone = await call<InsightBulkResult>('POST', `/api/${ACME}/compliance-insights/undo-dismissal`, tokens.admin, { ids: [gstCard.id] });
    expect(undone.body.refused).toEqual([{ id: gstCard.id, message: INSIGHT_MESSAGES.undoSuperseded }]);
  });
});
