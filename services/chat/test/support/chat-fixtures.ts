import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { createSignedInUser, startTestPortal, type TestUser } from '@ledgerline/server/portal-harness.ts';
import { filesClient, type FormPart } from '../../../files/test/support/files-client.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile, UploadResult } from '@ledgerline/contracts/files.contracts.ts';
import { CHAT_STREAM_EVENTS } from '@ledgerline/contracts/chat.contracts.ts';

/** Extraction (OCR included) runs in the background, on a CPU other suites share. */
export const EXTRACTION_WAIT_MS = 90_000;
export const BUS_WAIT_MS = 10_000;

export type ChatPortal = Awaited<ReturnType<typeof startChatPortal>>;

/**
 * The real portal with two firms: in ACME an Admin, a DTA, a CPA (Own Client, report type
 * Audit), a CPA with empty lists, a Client user of Own Client and one of Other Client; in
 * BETA an Admin.
 */
export async function startChatPortal(env: Record<string, string> = {}) {
  const portal = await startTestPortal(env);
  const api = filesClient(portal.gatewayUrl);
  const suffix = randomBytes(3).toString('hex');
  const ACME = `acme${suffix}`;
  const BETA = `beta${suffix}`;
  const tokens: Record<string, string> = { platform: portal.adminToken };
  const ids: Record<string, number> = {};
  const users: Record<string, TestUser> = {};
  for (const shortName of [ACME, BETA]) {
    expect((await api.json('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  }
  const T = (p: string, tenant = ACME) => `/api/${tenant}${p}`;
  for (const name of ['Own Client', 'Other Client']) {
    const r = await api.json<Client>('POST', T('/clients'), portal.adminToken, {
      name, address: '1 Main Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'IL-445', email: `${name.replace(/\W/g, '').toLowerCase()}@example.com`,
    });
    expect(r.status).toBe(201);
    ids[name] = r.body.id;
  }
  for (const name of ['Audit', 'Payroll']) {
    const r = await api.json<ReportType>('POST', T('/report-types'), portal.adminToken, { name });
    expect(r.status).toBe(201);
    ids[name] = r.body.id;
  }
  const user = async (tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null) => {
    users[who] = { username: `${who}_${suffix}`, fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds };
    const u = await createSignedInUser(api.json, portal.adminToken, tenant, users[who]);
    ids[who] = u.id;
    tokens[who] = u.token;
  };
  await user(ACME, 'admin', 1, null, null);
  await user(ACME, 'dta', 2, null, null);
  await user(ACME, 'cpa', 3, [ids['Own Client']!], [ids.Audit!]);
  await user(ACME, 'cpaNone', 3, [], []);
  await user(ACME, 'client', 4, [ids['Own Client']!], null);
  await user(ACME, 'otherClient', 4, [ids['Other Client']!], null);
  await user(BETA, 'betaAdmin', 1, null, null);

  const upload = async (parts: FormPart[], who = 'admin') => {
    const r = await api.upload<UploadResult>(T('/files'), tokens[who], parts);
    expect(r.status).toBe(201);
    return r.body.files.map((f) => f.id);
  };
  const report = (client: string, reportType: string): FormPart[] => [
    { field: 'fileType', value: 'report' }, { field: 'clientId', value: String(ids[client]) }, { field: 'reportTypeId', value: String(ids[reportType]) },
  ];
  const extracted = async (...fileIds: number[]) => {
    await eventually(async () => {
      const r = await api.json<PortalFile[]>('GET', T('/files?limit=1000'), tokens.admin);
      const processed = r.body.filter((f) => fileIds.includes(f.id) && f.processedAt !== null);
      expect(processed).toHaveLength(fileIds.length);
    }, EXTRACTION_WAIT_MS);
  };

  /** A POST that asks for server-sent events: the events in order, parsed. */
  const stream = async (path: string, who: string, body: unknown) => {
    const r = await fetch(`${portal.gatewayUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    const events = r.headers.get('content-type')?.startsWith('text/event-stream')
      ? text.split('\n\n').filter(Boolean).map((block) => {
        const [eventLine, dataLine] = block.split('\n');
        return { event: eventLine!.slice('event: '.length), data: JSON.parse(dataLine!.slice('data: '.length)) as Record<string, unknown> };
      })
      : [];
    return { status: r.status, events, text, deltas: events.filter((e) => e.event === CHAT_STREAM_EVENTS.delta).map((e) => e.data.text as string) };
  };

  return { portal, api, ACME, BETA, T, tokens, ids, users, upload, report, extracted, stream };
}

export const txt = (name: string, content: string): FormPart => ({ file: name, content });
