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
 * file answered; the firm's readable copy (docs/using/firm-export.md) gives users, clients
 * and tasks as CSV and every client's documents laid out the same way.
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
const readable = (path: string, token: string) => fetch(`${portal.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });

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
  await upload(T('/files'), { fileType: 'firm_document' }, 'engagement-terms.txt', 'Our terms');
  await created(T('/tasks'), { title: 'Chase VAT papers', clientIds: [ids.client], priority: 'high', dueDate: '2027-01-15' });
  // The other firm has a client of its own.
  await created(`/api/${OTHER}/clients`, testClient('Hudson Bakery'), tokens.otherAdmin);
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

describe('the firm\'s readable copy', () => {
  it('gives an Admin users, clients, report types and tasks as CSV and each client\'s documents as in the client\'s ZIP', async () => {
    // After the client's ZIP above: the files service knows the request items by now.
    const r = await readable(T('/export/readable'), tokens.admin);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/zip');
    expect(r.headers.get('content-disposition')).toContain(`${FIRM}-${todayIn(ZONE)}-readable.zip`);
    const entries = unzip(Buffer.from(await r.arrayBuffer()));
    const thisYear = taxYearOf(todayIn(ZONE), 'UK').label;
    expect(Object.keys(entries)).toEqual([
      'README.txt', 'users.csv', 'clients.csv', 'report-types.csv',
      `documents/Thames Joinery/Reports/${thisYear}/VAT Return/ledger.txt`,
      `documents/Thames Joinery/Reports/${thisYear}/No report type/lease.txt`,
      'documents/Thames Joinery/Reports/2025-26/VAT Return/invoices.txt',
      'documents/Thames Joinery/Company documents/incorporation.txt',
      'documents/Thames Joinery/index.csv',
      'documents/Firm documents/engagement-terms.txt',
      'tasks.csv',
    ]);
    expect(entries['documents/Thames Joinery/Reports/2025-26/VAT Return/invoices.txt']!.toString()).toBe('Sales invoices April 2025 to March 2026');
    expect(csvLines(entries['documents/Thames Joinery/index.csv']!)).toContainEqual(
      expect.stringMatching(/^Reports\/2025-26\/VAT Return\/invoices\.txt,invoices\.txt,report,VAT Return,.*,2025-26,2025-26,VAT Return — 2025-26,Sales invoices$/));
    const users = csvLines(entries['users.csv']!);
    expect(users[0]).toBe('id,username,full name,email,role,client ids,report type ids,created at,last sign-in');
    expect(users.slice(1).map((u) => u.split(',').slice(1, 3))).toEqual([[`adm_${suffix}`, 'Ada Admin'], [`dta_${suffix}`, 'Dan Dta']]);
    // No credentials in it.
    expect(entries['users.csv']!.toString()).not.toMatch(/argon2|\$2[aby]\$/);
    const clients = csvLines(entries['clients.csv']!);
    expect(clients[0]!.split(',').slice(0, 4)).toEqual(['id', 'name', 'jurisdiction', 'entity type']);
    expect(clients.slice(1).map((c) => c.split(',').slice(0, 4))).toEqual([[String(ids.client), 'Thames Joinery', 'UK', 'company']]);
    expect(csvLines(entries['report-types.csv']!)).toEqual(['id,name,description', `${ids.vat},VAT Return,`]);
    const tasks = csvLines(entries['tasks.csv']!);
    expect(tasks[0]).toBe('id,title,description,status,priority,due date,assigned to,clients,report type,repeats,created at,completed at');
    expect(tasks.slice(1).map((t) => t.split(',').slice(1, 8))).toEqual([['Chase VAT papers', '', 'pending', 'high', '2027-01-15', '', 'Thames Joinery']]);
    expect(entries['README.txt']!.toString()).toContain('use the export archive (.tar) instead');
  }, 60_000);

  it('is the platform administrator\'s too, and nobody else\'s: not a DTA\'s, not another firm\'s Admin, whose own copy holds only their firm', async () => {
    const firms = await call<{ id: number; shortName: string }[]>('GET', '/api/companies', portal.adminToken);
    const firmId = firms.body.find((f) => f.shortName === FIRM)!.id;
    const platform = await readable(`/api/companies/${firmId}/export/readable`, portal.adminToken);
    expect(platform.status).toBe(200);
    expect(Object.keys(unzip(Buffer.from(await platform.arrayBuffer())))).toContain('documents/Thames Joinery/index.csv');
    expect(await (await readable(T('/export/readable'), tokens.dta)).json()).toEqual({ message: 'Only administrators can export the firm.' });
    expect((await readable(T('/export/readable'), tokens.otherAdmin)).status).toBe(403);
    expect((await readable(`/api/companies/${firmId}/export/readable`, tokens.admin)).status).toBe(403);
    const own = await readable(`/api/${OTHER}/export/readable`, tokens.otherAdmin);
    expect(own.status).toBe(200);
    const entries = unzip(Buffer.from(await own.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(['README.txt', 'users.csv', 'clients.csv', 'report-types.csv', 'tasks.csv']);
    expect(csvLines(entries['clients.csv']!).slice(1).map((c) => c.split(',')[1])).toEqual(['Hudson Bakery']);
    expect(Buffer.concat(Object.values(entries)).toString()).not.toMatch(/Thames|Ada Admin/);
  }, 60_000);
});
