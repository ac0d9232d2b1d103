import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { taxYearOf } from '@ledgerline/kit/calendar/tax-year.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { unzip } from '@ledgerline/kit/testing/unzip.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';

/*
 * What a firm hands over (docs/running/backup-restore.md "One client's documents"): a
 * client's ZIP groups reports by tax year and report type and names the request item each
 * file answered.
 */
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `za${suffix}`;
const OTHER = `zb${suffix}`;
const ZONE = 'Europe/London';
const tokens: Record<'admin' | 'dta' | 'otherAdmin', string> = { admin: '', dta: '', otherAdmin: '' };
const ids: Record<string, number> = {};

const T = (path: string) => `/api/${FIRM}${path}`;
async function created(path: string, body: unknown, token = tokens.admin): Promise<{ id: number } & Record<string, unknown>> {
  const r = await call<{ id: number }>('POST', path, token, body);
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
async function upload(path: string, fields: Record<string, string>, name: string, content: string): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([content], { type: 'text/plain' }), name);
  const r = await fetch(`${portal.gatewayUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${await r.text()}`);
}
const archive = (clientId: number, token: string) =>
  fetch(`${portal.gatewayUrl}${T(`/files/clients/${clientId}/archive`)}`, { headers: { authorization: `Bearer ${token}` } });
const csvLines = (csv: Buffer) => csv.toString().trimEnd().split('\r\n');

beforeAll(async () => {
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' });
  call = apiClient(portal.gatewayUrl);
  for (const [shortName, zone] of [[FIRM, ZONE], [OTHER, 'America/New_York']]) {
    expect((await call('POST', '/api/companies', portal.adminToken, { name: `Firm ${shortName}`, shortName, timeZone: zone })).status).toBe(201);
  }
  tokens.admin = (await createSignedInUser(call, portal.adminToken, FIRM, { username: `adm_${suffix}`, fullName: 'Ada Admin', roleId: 1, clientIds: null, reportTypeIds: null })).token;
  tokens.dta = (await createSignedInUser(call, portal.adminToken, FIRM, { username: `dta_${suffix}`, fullName: 'Dan Dta', roleId: 2, clientIds: null, reportTypeIds: null })).token;
  tokens.otherAdmin = (await createSignedInUser(call, portal.adminToken, OTHER, { username: `oth_${suffix}`, fullName: 'Otto Other', roleId: 1, clientIds: null, reportTypeIds: null })).token;

  ids.client = (await created(T('/clients'), { ...testClient('Thames Joinery'), jurisdiction: 'UK', entityType: 'company' })).id;
  ids.vat = (await created(T('/report-types'), { name: 'VAT Return' })).id;
  await created(T('/request-templates'), { name: 'VAT papers', reportTypeId: ids.vat, items: [{ title: 'Sales invoices' }] });
  // A yearly return due 31 January, covering the UK tax year that ended the April before.
  const schedule = (await created(T('/compliance-schedules'), { clientId: ids.client, reportTypeId: ids.vat, frequency: 'yearly', dueMonths: ['1'], dueDayOfMonth: 31, periodLagMonths: 10 })).id;
  expect((await call('POST', T(`/compliance-schedules/${schedule}/generate/2027`), tokens.admin)).status).toBeLessThan(300);
  const items = await call<{ id: number; period: string }[]>('GET', T(`/compliance-tracker?clientId=${ids.client}`), tokens.admin);
  const trackerItem = items.body[0]!;
  expect(trackerItem.period).toBe('2025-26');
  // The tracker item's request, and a file uploaded for its item.
  const trackerRequest = await created(T(`/compliance-tracker/${trackerItem.id}/document-request`), {}) as { id: number; title: string; items: { id: number }[] };
  await upload(T(`/document-requests/${trackerRequest.id}/items/${trackerRequest.items[0]!.id}/files`), {}, 'invoices.txt', 'Sales invoices April 2025 to March 2026');
  // A request of no tracker item, and a file for it.
  const loose = await created(T('/document-requests'), { clientId: ids.client, title: 'Move-in papers', dueDate: '2030-01-31', items: [{ title: 'Lease' }] }) as { id: number; items: { id: number }[] };
  await upload(T(`/document-requests/${loose.id}/items/${loose.items[0]!.id}/files`), {}, 'lease.txt', 'The lease');
  // A report uploaded directly, and a company document.
  await upload(T('/files'), { fileType: 'report', clientId: String(ids.client), reportTypeId: String(ids.vat) }, 'ledger.txt', 'Ledger');
  await upload(T('/files'), { fileType: 'company_document', clientId: String(ids.client) }, 'incorporation.txt', 'Certificate');
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('a client\'s ZIP', () => {
  it('groups reports by the tax year of the period they answer (else of their upload day in the firm\'s zone), and names their request item', async () => {
    const thisYear = taxYearOf(todayIn(ZONE), 'UK').label;
    let entries: Record<string, Buffer> = {};
    // The request items and the tracker's period reach the files service as events.
    await eventually(async () => {
      const r = await archive(ids.client!, tokens.admin);
      expect(r.status).toBe(200);
      entries = unzip(Buffer.from(await r.arrayBuffer()));
      expect(Object.keys(entries)).toContain('Reports/2025-26/VAT Return/invoices.txt');
    }, 20_000, 200);
    // Newest tax year first, reports of no report type after the others; company documents (of no one year) last.
    expect(Object.keys(entries)).toEqual([
      `Reports/${thisYear}/VAT Return/ledger.txt`,
      `Reports/${thisYear}/No report type/lease.txt`,
      'Reports/2025-26/VAT Return/invoices.txt',
      'Company documents/incorporation.txt',
      'index.csv',
    ]);
    expect(entries['Reports/2025-26/VAT Return/invoices.txt']!.toString()).toBe('Sales invoices April 2025 to March 2026');
    const [header, ...rows] = csvLines(entries['index.csv']!);
    expect(header).toBe('path,original name,type,report type,uploaded at,size,tax year,period,request,request item');
    const byPath = Object.fromEntries(rows.map((row) => [row.split(',')[0], row.split(',').slice(6)]));
    expect(byPath).toEqual({
      'Reports/2025-26/VAT Return/invoices.txt': ['2025-26', '2025-26', 'VAT Return — 2025-26', 'Sales invoices'],
      [`Reports/${thisYear}/No report type/lease.txt`]: [thisYear, '', 'Move-in papers', 'Lease'],
      [`Reports/${thisYear}/VAT Return/ledger.txt`]: [thisYear, '', '', ''],
      'Company documents/incorporation.txt': ['', '', '', ''],
    });
  }, 60_000);

  it('is refused to staff who are not Admins, and to another firm\'s Admin', async () => {
    expect((await archive(ids.client!, tokens.dta)).status).toBe(403);
    expect((await archive(ids.client!, tokens.otherAdmin)).status).toBe(403);
  });
});
