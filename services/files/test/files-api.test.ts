import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { deriveKey } from '@ledgerline/kit/crypto/master-key.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { unzip } from '@ledgerline/kit/testing/unzip.ts';
import { createSignedInUser, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { DRIVE_ACCESS_ASSERTION_HEADER, DRIVE_ACCESS_KEY_PURPOSE, driveAccessPath, type Client, type ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import {
  SNIPPET_MARK, UPLOAD_MESSAGES, extractionMessage,
  type ExtractContentResult, type PortalFile, type PublicFileLink, type UploadResult,
} from '@ledgerline/contracts/files.contracts.ts';
import { startGoogleStandIn, type GoogleStandIn } from '../../directory/test/support/google-stand-in.ts';
import { filesClient, storedObjectKeys, type FormPart, type Reply } from './support/files-client.ts';

/** Events (access lists, directory records, uploads) travel through the bus: RabbitMQ in CI. */
const BUS_WAIT_MS = 15_000;
/** Text extraction runs in the background after each upload. */
const EXTRACTION_WAIT_MS = 30_000;
const MAX_BYTES = 1024 * 1024; // UPLOAD_MAX_BYTES of this portal: 1 MB
const MAX_FILES = 3;
const CHUNK_BYTES = 256 * 1024; // Drive uploads above this go resumably

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let google: GoogleStandIn;
let api: ReturnType<typeof filesClient>;
const dataDir = mkdtempSync(path.join(tmpdir(), 'files-api-'));
const suffix = randomBytes(3).toString('hex');
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const ENCRYPTION_KEY = randomBytes(32).toString('hex');
const master = Buffer.from(ENCRYPTION_KEY, 'hex');
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const u = (name: string) => `${name}_${suffix}`;

const client = (name: string, extra: Record<string, unknown> = {}) => ({
  name, address: '1 Main Street, Springfield', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'IL-445',
  email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`, ...extra,
});

async function createUser(tenant: string, who: string, roleId: number, clientIds: number[] | null, reportTypeIds: number[] | null): Promise<void> {
  const user = await createSignedInUser(api.json, tokens.platform!, tenant, { username: u(`${tenant}_${who}`), fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds });
  ids[`${tenant}_${who}`] = user.id;
  tokens[who === 'admin' && tenant === BETA ? 'betaAdmin' : who] = user.token;
}

const T = (p: string) => `/api/${ACME}${p}`;
const uploadAs = (who: string, parts: FormPart[], tenantPath = true) => api.upload<UploadResult & { message: string }>(tenantPath ? T('/files') : '/api/files', tokens[who], parts);
const report = (clientId: number, reportTypeId?: number): FormPart[] => [
  { field: 'fileType', value: 'report' }, { field: 'clientId', value: String(clientId) },
  ...(reportTypeId ? [{ field: 'reportTypeId', value: String(reportTypeId) }] : []),
];
const txt = (name: string, content: string): FormPart => ({ file: name, content });
const list = (who: string, query = '', tenantPath = true) => api.json<PortalFile[]>('GET', `${tenantPath ? T('/files') : '/api/files'}${query}`, tokens[who]);
const listedIds = async (who: string, query = '') => {
  const r = await list(who, query);
  expect(r.status).toBe(200);
  return r.body.map((f) => f.id).sort((a, b) => a - b);
};
const fileCount = async () => Number((await list('admin', '?limit=1')).headers.get('x-total-count'));
const objectKeys = () => storedObjectKeys(dataDir, ACME);

/** Runs a failing upload and proves it left nothing behind: no row, no object. */
async function expectNothingStored(run: () => Promise<Reply<unknown>>): Promise<Reply<unknown>> {
  const rowsBefore = await fileCount();
  const keysBefore = await objectKeys();
  const driveBefore = google.driveFiles.size;
  const r = await run();
  expect(r.status).toBeGreaterThanOrEqual(400);
  expect(r.status).toBeLessThan(500);
  expect(typeof (r.body as { message?: unknown }).message).toBe('string');
  expect(await fileCount()).toBe(rowsBefore);
  expect(await objectKeys()).toEqual(keysBefore);
  expect(google.driveFiles.size).toBe(driveBefore);
  return r;
}

async function connectDrive(clientId: number): Promise<void> {
  expect((await api.json('POST', T(`/clients/${clientId}/google-drive/credentials`), tokens.admin, google.app)).status).toBe(200);
  const { body: { authUrl } } = await api.json<{ authUrl: string }>('GET', T(`/clients/${clientId}/google-drive/auth-url`), tokens.admin);
  const atGoogle = await fetch(authUrl, { redirect: 'manual' });
  const back = new URL(atGoogle.headers.get('location')!);
  const callback = await fetch(`${portal.gatewayUrl}${back.pathname}${back.search}`, { redirect: 'manual' });
  expect(callback.headers.get('location')).toBe(`/${ACME}/clients?google-drive-setup=success`);
}

async function pdfWith(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([400, 200]);
  page.drawText(text, { x: 20, y: 100, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
  return Buffer.from(await doc.save());
}

beforeAll(async () => {
  google = await startGoogleStandIn();
  portal = await startTestPortal({
    ...google.env,
    PORTAL_DATA_DIR: dataDir,
    PORTAL_ENCRYPTION_KEY: ENCRYPTION_KEY,
    UPLOAD_MAX_BYTES: String(MAX_BYTES),
    UPLOAD_MAX_FILES: String(MAX_FILES),
    GOOGLE_DRIVE_UPLOAD_CHUNK_BYTES: String(CHUNK_BYTES),
    ...(process.env.TEST_LOG_LEVEL ? { LOG_LEVEL: process.env.TEST_LOG_LEVEL } : {}),
  });
  api = filesClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) {
    expect((await api.json('POST', '/api/companies', tokens.platform, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  }
  for (const [name, extra] of [['Own Client', {}], ['Other Client', {}], ['Drive Client', { uploadDestination: 'google_drive' }], ['Unconnected Drive', { uploadDestination: 'google_drive' }]] as const) {
    const r = await api.json<Client>('POST', T('/clients'), tokens.platform, client(name, extra));
    expect(r.status).toBe(201);
    ids[name] = r.body.id;
  }
  for (const name of ['Audit', 'Payroll']) {
    const r = await api.json<ReportType>('POST', T('/report-types'), tokens.platform, { name });
    expect(r.status).toBe(201);
    ids[name] = r.body.id;
  }
  await createUser(ACME, 'admin', 1, null, null);
  await createUser(ACME, 'dta', 2, null, null);
  await createUser(ACME, 'cpa', 3, [ids['Own Client']!, ids['Drive Client']!], [ids.Audit!]);
  await createUser(ACME, 'cpaNone', 3, [], []);
  await createUser(ACME, 'client', 4, [ids['Own Client']!, ids['Other Client']!], null);
  await createUser(ACME, 'otherClient', 4, [ids['Other Client']!], null);
  await createUser(BETA, 'admin', 1, null, null);
  await connectDrive(ids['Drive Client']!);
  // The files service learns access lists and directory records from events: wait for them.
  const probe = await uploadAs('admin', [...report(ids['Own Client']!, ids.Audit), txt('probe.txt', 'access probe')]);
  expect(probe.status).toBe(201);
  await eventually(async () => {
    expect(await listedIds('cpa')).toContain(probe.body.files[0]!.id);
    expect(await listedIds('client')).toContain(probe.body.files[0]!.id);
    expect(await listedIds('otherClient')).not.toContain(probe.body.files[0]!.id);
  }, BUS_WAIT_MS);
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  await google?.close();
});

describe('upload', () => {
  it('stores a report, in the plain and the tenant form, and answers 201 with the spec message', async () => {
    for (const tenantPath of [true, false]) {
      const r = await uploadAs('admin', [...report(ids['Own Client']!, ids.Audit), txt(`Quarterly summary ${tenantPath}.txt`, 'Revenue rose by 12 percent.')], tenantPath);
      expect(r.status).toBe(201);
      expect(r.body.message).toBe(UPLOAD_MESSAGES.success);
      expect(r.body.files).toHaveLength(1);
      expect(r.body.files[0]).toEqual({
        id: expect.any(Number), originalName: `Quarterly summary ${tenantPath}.txt`, filename: `Quarterly summary ${tenantPath}.txt`,
        mimeType: 'text/plain', size: 27, clientId: ids['Own Client'], clientName: 'Own Client', fileType: 'report', documentType: null,
        reportTypeId: ids.Audit, reportTypeName: 'Audit', uploadedById: ids[`${ACME}_admin`], uploaderName: `admin of ${ACME}`,
        uploadedAt: expect.any(String), createdAt: expect.any(String), processedAt: null,
      });
      const read = await api.send('GET', T(`/files/${r.body.files[0]!.id}`), tokens.admin);
      expect(read.bytes.toString()).toBe('Revenue rose by 12 percent.');
    }
  });

  it('takes several files in one request, in the order sent, each with its media type from the extension', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
    const r = await uploadAs('dta', [
      { field: 'fileType', value: 'company_document' }, { field: 'clientId', value: String(ids['Own Client']) },
      txt('first.csv', 'a,b\n1,2\n'), { file: 'Logo.PNG', content: png }, { file: 'notes', content: 'no extension' },
    ]);
    expect(r.status).toBe(201);
    expect(r.body.files.map((f) => [f.originalName, f.mimeType, f.size, f.fileType, f.reportTypeId])).toEqual([
      ['first.csv', 'text/csv', 8, 'company_document', null],
      ['Logo.PNG', 'image/png', png.length, 'company_document', null],
      ['notes', 'application/octet-stream', 12, 'company_document', null],
    ]);
  });

  it('stores firm documents with or without a client, with the default document type', async () => {
    const r = await uploadAs('cpa', [{ field: 'fileType', value: 'firm_document' }, { field: 'clientId', value: '' }, txt('Firm PAN.txt', 'PAN of the firm')]);
    expect(r.status).toBe(201);
    expect(r.body.files[0]).toMatchObject({ fileType: 'firm_document', documentType: 'other', clientId: null, clientName: null, uploaderName: `cpa of ${ACME}` });
    const typed = await uploadAs('admin', [{ field: 'fileType', value: 'firm_document' }, { field: 'documentType', value: 'pan_card' }, { field: 'clientId', value: String(ids['Drive Client']) }, txt('PAN card.txt', 'card')]);
    expect(typed.status).toBe(201);
    // The firm's own documents stay in the firm's store, even for a client whose uploads go to Drive.
    expect(typed.body.files[0]).toMatchObject({ documentType: 'pan_card', clientId: ids['Drive Client'], clientName: 'Drive Client' });
    expect(google.driveFiles.size === 0 || ![...google.driveFiles.values()].some((f) => f.name === 'PAN card.txt')).toBe(true);
  });

  it("records a platform administrator's upload under their negated id, never a firm user's", async () => {
    const platformId = Number(JSON.parse(Buffer.from(tokens.platform!.split('.')[1]!, 'base64url').toString('utf8')).sub);
    const r = await uploadAs('platform', [{ field: 'fileType', value: 'firm_document' }, txt('Platform note.txt', 'from the platform')]);
    expect(r.status).toBe(201);
    expect(r.body.files[0]).toMatchObject({ uploadedById: -platformId, uploaderName: 'Platform Administrator' });
    // A firm user is not its uploader, whatever their own id.
    expect((await api.send('DELETE', T(`/files/${r.body.files[0]!.id}`), tokens.dta)).status).toBe(403);
    expect((await api.send('DELETE', T(`/files/${r.body.files[0]!.id}`), tokens.platform)).status).toBe(200);
  });

  it('accepts the form fields after the files', async () => {
    const r = await uploadAs('admin', [txt('late fields.txt', 'fields come last'), ...report(ids['Own Client']!, ids.Audit)]);
    expect(r.status).toBe(201);
    expect(r.body.files[0]).toMatchObject({ clientId: ids['Own Client'], reportTypeId: ids.Audit, fileType: 'report' });
  });

  it('keeps odd names harmless: paths cut, control characters dropped, stored name without special characters', async () => {
    const r = await uploadAs('admin', [...report(ids['Own Client']!), txt('C:\\Users\\me\\Bericht über "Q3"\t <final>.txt', 'x')]);
    expect(r.status).toBe(201);
    expect(r.body.files[0]).toMatchObject({ originalName: 'Bericht über "Q3" <final>.txt', filename: 'Bericht über _Q3_ _final_.txt' });
    const read = await api.send('GET', T(`/files/${r.body.files[0]!.id}?download=1`), tokens.admin);
    expect(read.headers.get('content-disposition')).toBe(`attachment; filename="Bericht uber _Q3_ <final>.txt"; filename*=UTF-8''Bericht%20%C3%BCber%20%22Q3%22%20%3Cfinal%3E.txt`);
  });

  describe('refuses bad input with a 4xx and a message, and stores nothing', () => {
    const own = () => String(ids['Own Client']);
    it.each([
      ['no files', () => [...report(ids['Own Client']!)], 400, UPLOAD_MESSAGES.noFiles],
      ['an empty file input only', () => [...report(ids['Own Client']!), { file: '', content: '' }], 400, UPLOAD_MESSAGES.noFiles],
      ['a report without a client', () => [{ field: 'fileType', value: 'report' }, txt('a.txt', 'a')], 400, UPLOAD_MESSAGES.noClient],
      ['an unknown file type', () => [{ field: 'fileType', value: 'memo' }, txt('a.txt', 'a')], 400, UPLOAD_MESSAGES.badFileType],
      ['a report type on a company document', () => [{ field: 'fileType', value: 'company_document' }, { field: 'clientId', value: own() }, { field: 'reportTypeId', value: String(ids.Audit) }, txt('a.txt', 'a')], 400, UPLOAD_MESSAGES.reportTypeOnlyForReports],
      ['a document type on a report', () => [...report(ids['Own Client']!), { field: 'documentType', value: 'pan_card' }, txt('a.txt', 'a')], 400, UPLOAD_MESSAGES.documentTypeOnlyForFirmDocuments],
      ['an unknown document type', () => [{ field: 'fileType', value: 'firm_document' }, { field: 'documentType', value: 'passport' }, txt('a.txt', 'a')], 400, UPLOAD_MESSAGES.badDocumentType],
      ['a malformed client id', () => [{ field: 'fileType', value: 'report' }, { field: 'clientId', value: 'abc' }, txt('a.txt', 'a')], 400, undefined],
      ['a field sent twice', () => [...report(ids['Own Client']!), { field: 'clientId', value: own() }, txt('a.txt', 'a')], 400, 'The field "clientId" was sent more than once.'],
      ['a file under another field name', () => [...report(ids['Own Client']!), { file: 'a.txt', content: 'a', field: 'attachment' }], 400, 'Unexpected file field "attachment". Send each file as "file".'],
      ['an unknown client', () => [...report(999_999), txt('a.txt', 'a')], 404, 'Client not found'],
      ['an unknown report type', () => [...report(ids['Own Client']!, 999_999), txt('a.txt', 'a')], 404, 'Report type not found'],
      ['an empty file', () => [...report(ids['Own Client']!), txt('empty.txt', '')], 400, 'The file "empty.txt" is empty.'],
      ['a file over the limit', () => [...report(ids['Own Client']!), { file: 'big.txt', content: Buffer.alloc(MAX_BYTES + 1, 'a') }], 413, 'File is too large. The limit is 1 MB.'],
      ['a second file over the limit (the first is deleted again)', () => [...report(ids['Own Client']!), txt('fine.txt', 'fine'), { file: 'big.csv', content: Buffer.alloc(MAX_BYTES + 10, 'b') }], 413, 'File is too large. The limit is 1 MB.'],
      ['too many files', () => [...report(ids['Own Client']!), ...Array.from({ length: MAX_FILES + 1 }, (_, i) => txt(`f${i}.txt`, `file ${i}`))], 413, `Too many files. Upload at most ${MAX_FILES} files at a time.`],
      ['an ELF program named .pdf', () => [...report(ids['Own Client']!), { file: 'invoice.pdf', content: Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), randomBytes(200)]) }], 415, 'The file "invoice.pdf" is not a real .pdf file: its content does not match its extension.'],
      ['a Windows program named .pdf', () => [...report(ids['Own Client']!), { file: 'setup.pdf', content: Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), randomBytes(5000)]) }], 415, 'The file "setup.pdf" is not a real .pdf file: its content does not match its extension.'],
      ['a zip archive named .pdf', () => [...report(ids['Own Client']!), { file: 'archive.pdf', content: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]), randomBytes(100)]) }], 415, 'The file "archive.pdf" is not a real .pdf file: its content does not match its extension.'],
      ['binary bytes named .txt', () => [...report(ids['Own Client']!), { file: 'readme.txt', content: Buffer.from([0x48, 0x69, 0x00, 0x01, 0x02]) }], 415, 'The file "readme.txt" is not a real .txt file: its content does not match its extension.'],
      ['a PDF named .png (after a good file)', () => [...report(ids['Own Client']!), txt('ok.txt', 'ok'), { file: 'scan.png', content: '%PDF-1.7\n%\u00e2\u00e3\n1 0 obj' }], 415, 'The file "scan.png" is not a real .png file: its content does not match its extension.'],
    ] as [string, () => FormPart[], number, string | undefined][])('%s', async (_name, parts, status, message) => {
      const r = await expectNothingStored(() => uploadAs('admin', parts()));
      expect(r.status).toBe(status);
      if (message) expect((r.body as { message: string }).message).toBe(message);
    });

    it('refuses an upload that is not multipart, or whose multipart body is malformed or cut short', async () => {
      const boundary = 'XyZzy123';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="fileType"\r\n\r\nreport\r\n--${boundary}\r\nContent-Disposition: form-data; name="clientId"\r\n\r\n${ids['Own Client']}\r\n`;
      const cases: [() => Promise<Reply<unknown>>, string][] = [
        [() => api.json('POST', T('/files'), tokens.admin, { fileType: 'report' }), 'Send the upload as multipart/form-data.'],
        [() => api.rawUpload(T('/files'), tokens.admin, head, 'multipart/form-data'), 'Send the upload as multipart/form-data.'],
        [() => api.rawUpload(T('/files'), tokens.admin, `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\n\r\nthe body stops here`, `multipart/form-data; boundary=${boundary}`),
          'The upload could not be read: the multipart body is malformed or incomplete.'],
        [() => api.rawUpload(T('/files'), tokens.admin, 'garbage without any boundary', `multipart/form-data; boundary=${boundary}`),
          'The upload could not be read: the multipart body is malformed or incomplete.'],
      ];
      for (const [run, message] of cases) {
        const r = await expectNothingStored(run);
        expect(r).toMatchObject({ status: 400, body: { message } });
      }
    });

    it('refuses Client users (403) and unauthenticated callers (401)', async () => {
      expect((await expectNothingStored(() => uploadAs('client', [...report(ids['Own Client']!), txt('mine.txt', 'mine')]))).body).toEqual({ message: 'Access denied. Client users cannot upload files.' });
      const r = await expectNothingStored(() => api.upload(T('/files'), null, [...report(ids['Own Client']!), txt('anon.txt', 'anon')]));
      expect(r.status).toBe(401);
    });

    it('hides clients and report types outside a CPA\'s lists (404)', async () => {
      expect((await expectNothingStored(() => uploadAs('cpa', [...report(ids['Other Client']!), txt('x.txt', 'x')]))).body).toEqual({ message: 'Client not found' });
      expect((await expectNothingStored(() => uploadAs('cpa', [...report(ids['Own Client']!, ids.Payroll), txt('x.txt', 'x')]))).body).toEqual({ message: 'Report type not found' });
    });
  });
});

describe('download', () => {
  let file: PortalFile;
  const content = 'The quick brown fox jumps over the lazy dog';

  beforeAll(async () => {
    file = (await uploadAs('admin', [...report(ids['Own Client']!, ids.Audit), txt('fox.txt', content)])).body.files[0]!;
  });

  it('streams the bytes inline with type, length and name headers, in both path forms', async () => {
    for (const p of [T(`/files/${file.id}`), `/api/files/${file.id}`]) {
      const r = await api.send('GET', p, tokens.dta);
      expect(r.status).toBe(200);
      expect(r.bytes.toString()).toBe(content);
      expect(r.headers.get('content-type')).toBe('text/plain');
      expect(r.headers.get('content-length')).toBe(String(content.length));
      expect(r.headers.get('content-disposition')).toBe(`inline; filename="fox.txt"; filename*=UTF-8''fox.txt`);
      expect(r.headers.get('accept-ranges')).toBe('bytes');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const attachment = await api.send('GET', T(`/files/${file.id}?download=1`), tokens.client);
    expect(attachment.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect((await api.send('GET', T(`/files/${file.id}?download=maybe`), tokens.admin)).status).toBe(400);
  });

  it('serves single byte ranges (206) and answers 416 beyond the end', async () => {
    const range = async (value: string) => api.send('GET', T(`/files/${file.id}`), tokens.admin, { headers: { range: value } });
    const first = await range('bytes=4-8');
    expect(first.status).toBe(206);
    expect(first.bytes.toString()).toBe('quick');
    expect(first.headers.get('content-range')).toBe(`bytes 4-8/${content.length}`);
    expect(first.headers.get('content-length')).toBe('5');
    const tail = await range('bytes=-3');
    expect([tail.status, tail.bytes.toString()]).toEqual([206, 'dog']);
    const open = await range('bytes=40-');
    expect([open.status, open.bytes.toString(), open.headers.get('content-range')]).toEqual([206, 'dog', `bytes 40-42/${content.length}`]);
    const beyond = await range('bytes=1000-');
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${content.length}`);
    // Several ranges or a malformed header: the whole file.
    for (const value of ['bytes=0-1,4-5', 'pages=1-2', 'bytes=9-3']) {
      const r = await range(value);
      expect([r.status, r.bytes.toString()]).toEqual([200, content]);
    }
  });

  it('answers 404 for a missing id, 400 for a malformed one, 401 without a token', async () => {
    expect((await api.json('GET', T('/files/999999'), tokens.admin))).toMatchObject({ status: 404, body: { message: 'File not found' } });
    expect((await api.json('GET', T('/files/abc'), tokens.admin)).status).toBe(400);
    expect((await api.json('GET', T(`/files/${file.id}`), null)).status).toBe(401);
  });

  it('serves SVG sandboxed, so an uploaded image cannot run script as the portal', async () => {
    const svg = await uploadAs('admin', [...report(ids['Own Client']!), txt('chart.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')]);
    expect(svg.status).toBe(201);
    const r = await api.send('GET', T(`/files/${svg.body.files[0]!.id}`), tokens.admin);
    expect(r.headers.get('content-type')).toBe('image/svg+xml');
    expect(r.headers.get('content-security-policy')).toContain('sandbox');
  });
});

describe('a client\'s ZIP', () => {
  it('writes names a spreadsheet would run as formulas into index.csv as plain text', async () => {
    const created = await api.json<Client>('POST', T('/clients'), tokens.admin, client('Formula Client'));
    expect(created.status).toBe(201);
    const clientId = created.body.id;
    const names = ["=cmd|' -C calc'!A0.pdf", '+HYPERLINK("evil.example","Open").txt', '-2+3 cmd.txt', '@SUM(A1) note.txt'];
    for (const name of names) {
      const content = name.endsWith('.pdf') ? await pdfWith('formula') : `content of ${name}`;
      expect((await uploadAs('admin', [...report(clientId, ids.Audit), { file: name, content }])).status).toBe(201);
    }
    const zip = await api.send('GET', T(`/files/clients/${clientId}/archive`), tokens.admin);
    expect(zip.status).toBe(200);
    const index = unzip(zip.bytes)['index.csv']!.toString('utf8');
    // Each line's cells as written: quoted ones whole, with their quotes.
    const cells = index.trim().split('\r\n').slice(1).map((line) => line.match(/"(?:[^"]|"")*"|[^,]+|(?<=,)(?=,|$)/g)!);
    expect(cells.map((row) => row[1]).sort()).toEqual([
      '"\'+HYPERLINK(""evil.example"",""Open"").txt"', "'-2+3 cmd.txt", "'=cmd|' -C calc'!A0.pdf", "'@SUM(A1) note.txt",
    ]);
    // No cell of the index starts as a formula, quoted or not.
    for (const cell of cells.flat()) expect(cell).not.toMatch(/^"?[=+\-@\t\r]/);
  });
});

describe('visibility (Admin, DTA, CPA with and without access, Client of own and other client, other firm)', () => {
  const files: Record<string, number> = {};
  const ALL = ['ownAudit', 'ownPayroll', 'otherAudit', 'ownCompany', 'otherCompany', 'firmDoc', 'firmDocOfCpa', 'firmDocOfClient'] as const;
  const expected: Record<string, readonly string[]> = {
    platform: ALL, admin: ALL, dta: ALL,
    cpa: ['ownAudit', 'ownCompany', 'firmDoc', 'firmDocOfCpa', 'firmDocOfClient'],
    cpaNone: ['firmDoc', 'firmDocOfCpa'],
    client: ['ownAudit', 'ownPayroll', 'ownCompany'],
    otherClient: ['otherAudit', 'otherCompany'],
  };
  const word = `matrix${suffix}`;

  beforeAll(async () => {
    const up = async (key: string, who: string, parts: FormPart[]) => {
      const r = await uploadAs(who, [...parts, txt(`${word} ${key}.txt`, `visibility ${key}`)]);
      expect(r.status).toBe(201);
      files[key] = r.body.files[0]!.id;
    };
    await up('ownAudit', 'admin', report(ids['Own Client']!, ids.Audit));
    await up('ownPayroll', 'admin', report(ids['Own Client']!, ids.Payroll));
    await up('otherAudit', 'admin', report(ids['Other Client']!, ids.Audit));
    await up('ownCompany', 'admin', [{ field: 'fileType', value: 'company_document' }, { field: 'clientId', value: String(ids['Own Client']) }]);
    await up('otherCompany', 'dta', [{ field: 'fileType', value: 'company_document' }, { field: 'clientId', value: String(ids['Other Client']) }]);
    await up('firmDoc', 'admin', [{ field: 'fileType', value: 'firm_document' }]);
    await up('firmDocOfCpa', 'cpa', [{ field: 'fileType', value: 'firm_document' }, { field: 'documentType', value: 'gst_registration' }]);
    // A firm document tied to a client is still the firm's: never shown to that client's users.
    await up('firmDocOfClient', 'admin', [{ field: 'fileType', value: 'firm_document' }, { field: 'clientId', value: String(ids['Own Client']) }]);
  });

  const visibleKeys = (got: number[]) => ALL.filter((k) => got.includes(files[k]!));

  it.each(Object.keys(expected))('lists, searches, opens and links exactly what %s may see', async (who) => {
    expect(visibleKeys(await listedIds(who))).toEqual(expected[who]);
    expect(visibleKeys(await listedIds(who, `?search=${word}`))).toEqual(expected[who]);
    for (const key of ALL) {
      const allowed = expected[who]!.includes(key);
      const get = await api.send('GET', T(`/files/${files[key]}`), tokens[who]);
      expect([key, get.status]).toEqual([key, allowed ? 200 : 404]);
      if (!allowed) expect(get.body).toEqual({ message: 'File not found' });
      const link = await api.json('POST', T(`/files/${files[key]}/public-link`), tokens[who]);
      expect([key, link.status]).toEqual([key, allowed ? 200 : 404]);
    }
  });

  it('shows a firm nothing of another firm, whatever the path', async () => {
    expect(await api.json('GET', T('/files'), tokens.betaAdmin)).toMatchObject({ status: 403, body: { message: 'This account belongs to another firm.' } });
    expect((await api.send('GET', T(`/files/${files.ownAudit}`), tokens.betaAdmin)).status).toBe(403);
    const own = await api.json<PortalFile[]>('GET', '/api/files', tokens.betaAdmin);
    expect(own.status).toBe(200);
    expect(own.body).toEqual([]);
    expect(own.headers.get('x-total-count')).toBe('0');
    // The same id in the other firm's own schema is not this firm's file.
    expect((await api.send('GET', `/api/${BETA}/files/${files.ownAudit}`, tokens.betaAdmin)).status).toBe(404);
    expect((await api.send('DELETE', `/api/files/${files.ownAudit}`, tokens.betaAdmin)).status).toBe(404);
    expect((await api.send('GET', `/api/files/${files.ownAudit}`, tokens.admin)).status).toBe(200);
  });

  describe('deletion', () => {
    const fresh = async (parts: FormPart[], who = 'admin') => {
      const r = await uploadAs(who, [...parts, txt(`doomed ${randomBytes(3).toString('hex')}.txt`, 'doomed')]);
      expect(r.status).toBe(201);
      return r.body.files[0]!;
    };
    const del = (who: string, id: number, tenantPath = true) => api.json('DELETE', tenantPath ? T(`/files/${id}`) : `/api/files/${id}`, tokens[who]);

    it('lets Admin delete anything, with the spec message, and removes the bytes', async () => {
      for (const [parts, tenantPath] of [[report(ids['Other Client']!, ids.Payroll), true], [[{ field: 'fileType', value: 'firm_document' }], false]] as const) {
        const f = await fresh([...parts], 'dta');
        const keys = await objectKeys();
        expect(await del('admin', f.id, tenantPath)).toMatchObject({ status: 200, body: { message: `File "${f.originalName}" deleted successfully.` } });
        expect((await api.send('GET', T(`/files/${f.id}`), tokens.admin)).status).toBe(404);
        expect((await objectKeys()).length).toBe(keys.length - 1);
      }
    });

    it('lets DTA and CPA delete what they see, but a firm document only if they uploaded it', async () => {
      expect((await del('dta', (await fresh(report(ids['Other Client']!, ids.Payroll))).id)).status).toBe(200);
      expect((await del('cpa', (await fresh(report(ids['Own Client']!, ids.Audit))).id)).status).toBe(200);
      expect(await del('cpa', (await fresh(report(ids['Own Client']!, ids.Payroll))).id)).toMatchObject({ status: 404, body: { message: 'File not found' } });
      expect(await del('cpa', (await fresh(report(ids['Other Client']!, ids.Audit))).id)).toMatchObject({ status: 404, body: { message: 'File not found' } });
      const adminsFirmDoc = await fresh([{ field: 'fileType', value: 'firm_document' }]);
      for (const who of ['dta', 'cpa']) {
        expect(await del(who, adminsFirmDoc.id)).toEqual({ status: 403, body: { message: 'Access denied. Only an Admin or the uploader can delete a firm document.' }, headers: expect.anything(), bytes: expect.anything() });
      }
      expect((await del('cpa', (await fresh([{ field: 'fileType', value: 'firm_document' }], 'cpa')).id, false)).status).toBe(200);
      expect((await del('admin', adminsFirmDoc.id)).status).toBe(200);
    });

    it('never lets a Client user delete (403), not even their own client\'s report', async () => {
      const f = await fresh(report(ids['Own Client']!, ids.Audit));
      expect(await del('client', f.id)).toMatchObject({ status: 403, body: { message: 'Access denied. Client users cannot delete files.' } });
      expect((await api.send('GET', T(`/files/${f.id}`), tokens.client)).status).toBe(200);
    });
  });
});

describe('public links', () => {
  let file: PortalFile;
  beforeAll(async () => {
    file = (await uploadAs('admin', [...report(ids['Own Client']!, ids.Audit), txt('shared.txt', 'shared content')])).body.files[0]!;
  });
  const linkOf = async (who: string, tenantPath = true) => {
    const r = await api.json<PublicFileLink>('POST', tenantPath ? T(`/files/${file.id}/public-link`) : `/api/files/${file.id}/public-link`, tokens[who]);
    expect(r.status).toBe(200);
    return r.body;
  };

  it('opens the file without a bearer token through a signed, expiring link', async () => {
    for (const [who, tenantPath] of [['client', true], ['dta', false]] as const) {
      const link = await linkOf(who, tenantPath);
      expect(link.url).toMatch(new RegExp(`^/api/${ACME}/public/files/${file.id}\\?token=[\\w-]+\\.[\\w-]+$`));
      const ttl = new Date(link.expiresAt).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(290_000);
      expect(ttl).toBeLessThanOrEqual(300_000);
      const r = await api.send('GET', link.url, null);
      expect([r.status, r.bytes.toString(), r.headers.get('content-disposition')]).toEqual([200, 'shared content', `inline; filename="shared.txt"; filename*=UTF-8''shared.txt`]);
      // The plain path works too: the token names the firm.
      const plain = await api.send('GET', link.url.replace(`/api/${ACME}/`, '/api/'), null);
      expect(plain.bytes.toString()).toBe('shared content');
      expect((await api.send('GET', link.url, null, { headers: { range: 'bytes=0-5' } })).bytes.toString()).toBe('shared');
    }
  });

  it('answers 403 for a missing, tampered, expired, other-file or other-firm token', async () => {
    const link = await linkOf('admin');
    const token = new URL(link.url, 'http://x').searchParams.get('token')!;
    const signer = new TokenSigner<{ t: string; f: number }>(deriveKey(master, 'public-file-link'));
    const other = (await uploadAs('admin', [...report(ids['Own Client']!), txt('other.txt', 'other')])).body.files[0]!;
    const bad = [
      `/api/${ACME}/public/files/${file.id}`,
      `/api/${ACME}/public/files/${file.id}?token=${token.slice(0, -2)}xx`,
      `/api/${ACME}/public/files/${file.id}?token=${signer.sign({ t: ACME, f: file.id }, 60, Date.now() - 120_000).token}`,
      `/api/${ACME}/public/files/${other.id}?token=${token}`,
      `/api/${BETA}/public/files/${file.id}?token=${token}`,
      `/api/${ACME}/public/files/${file.id}?token=${new TokenSigner(deriveKey(master, 'client-portal-link')).sign({ t: ACME, f: file.id }, 60).token}`,
    ];
    for (const url of bad) expect([url, await api.json('GET', url, null)]).toMatchObject([url, { status: 403, body: { message: 'This link is invalid or has expired.' } }]);
  });

  it('answers 404 once the file is gone, and 401 for a link request without a token', async () => {
    const victim = (await uploadAs('admin', [...report(ids['Own Client']!), txt('gone.txt', 'gone')])).body.files[0]!;
    const link = (await api.json<PublicFileLink>('POST', T(`/files/${victim.id}/public-link`), tokens.admin)).body;
    expect((await api.json('DELETE', T(`/files/${victim.id}`), tokens.admin)).status).toBe(200);
    expect((await api.json('GET', link.url, null))).toMatchObject({ status: 404, body: { message: 'File not found' } });
    expect((await api.json('POST', T(`/files/${victim.id}/public-link`), null)).status).toBe(401);
  });
});

describe('list filters', () => {
  it('filters by client, report type, file type and whole days, pages with X-Total-Count, and accepts _t', async () => {
    const word = `filters${suffix}`;
    for (const [parts, name] of [[report(ids['Own Client']!, ids.Audit), 'a'], [report(ids['Own Client']!, ids.Payroll), 'b'], [report(ids['Other Client']!, ids.Audit), 'c']] as const) {
      expect((await uploadAs('admin', [...parts, txt(`${word} ${name}.txt`, name)])).status).toBe(201);
    }
    const names = async (query: string) => (await list('admin', `?search=${word}${query}`)).body.map((f) => f.originalName).sort();
    expect(await names('')).toEqual([`${word} a.txt`, `${word} b.txt`, `${word} c.txt`]);
    expect(await names(`&clientId=${ids['Own Client']}`)).toEqual([`${word} a.txt`, `${word} b.txt`]);
    expect(await names(`&reportTypeId=${ids.Audit}`)).toEqual([`${word} a.txt`, `${word} c.txt`]);
    expect(await names(`&clientId=${ids['Own Client']}&reportTypeId=${ids.Payroll}&fileType=report`)).toEqual([`${word} b.txt`]);
    expect(await names('&fileType=firm_document')).toEqual([]);
    expect(await names('&reportTypeId=&clientId=')).toHaveLength(3);
    const today = new Date().toISOString().slice(0, 10);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(await names(`&startDate=${today}&endDate=${today}`)).toHaveLength(3);
    expect(await names(`&startDate=${day(1)}`)).toEqual([]);
    expect(await names(`&endDate=${day(-1)}`)).toEqual([]);
    // Instants are exact bounds (the screens send the local start and end of the picked days).
    const at = (offsetMs: number) => encodeURIComponent(new Date(Date.now() + offsetMs).toISOString());
    expect(await names(`&startDate=${at(-3_600_000)}&endDate=${at(60_000)}`)).toHaveLength(3);
    expect(await names(`&startDate=${at(60_000)}`)).toEqual([]);
    expect(await names(`&endDate=${at(-3_600_000)}`)).toEqual([]);
    // The same instant written in another offset: an hour from now, in India's time.
    const inIndia = new Date(Date.now() + 3_600_000 + 330 * 60_000).toISOString().replace('Z', '+05:30');
    expect(await names(`&startDate=${encodeURIComponent(inIndia)}`)).toEqual([]);
    expect(await names(`&endDate=${encodeURIComponent(inIndia)}`)).toHaveLength(3);

    const page = await list('admin', `?search=${word}&limit=2&offset=0&_t=${Date.now()}`);
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('x-total-count')).toBe('3');
    expect((await list('admin', `?search=${word}&limit=2&offset=2`)).body).toHaveLength(1);
    const newestFirst = (await list('admin', '?limit=5')).body.map((f) => f.uploadedAt);
    expect(newestFirst).toEqual([...newestFirst].sort().reverse());
  });

  it.each([
    ['?startDate=2024-13-45', 'Start date must be a valid date (YYYY-MM-DD)'],
    ['?endDate=yesterday', 'Dates must be YYYY-MM-DD or an ISO timestamp with a time zone'],
    ['?startDate=2024-03-01T10:00', 'Dates must be YYYY-MM-DD or an ISO timestamp with a time zone'],
    ['?endDate=2024-13-01T10:00:00Z', 'End date must be a valid date'],
    ['?startDate=2024-02-30', 'Start date must be a valid date (YYYY-MM-DD)'],
    ['?startDate=0000-01-01', 'Start date must be a valid date (YYYY-MM-DD)'],
    ['?endDate=0000-12-31T23:00:00Z', 'End date must be a valid date'],
    ['?clientId=9007199254740990', 'clientId must be a valid id'],
    ['?reportTypeId=2147483648', 'reportTypeId must be a valid id'],
    ['?offset=2147483648', 'offset must be a whole number from 0 to 2147483647'],
    ['?fileType=memo', UPLOAD_MESSAGES.badFileType],
    ['?limit=0', undefined],
    ['?limit=5000', undefined],
    ['?clientId=abc', undefined],
  ])('refuses %s with 400', async (query, message) => {
    const r = await list('admin', query);
    expect(r.status).toBe(400);
    if (message) expect(r.body).toMatchObject({ message });
  });
});

describe('content extraction and search', () => {
  it('extracts a text file\'s words in the background and finds them, with a highlighted snippet', async () => {
    const word = `zanzibarquokka${suffix}`;
    for (const tenantPath of [true, false]) {
      const r = await uploadAs('admin', [...report(ids['Own Client']!, ids.Audit), txt(`Ledger notes ${tenantPath}.txt`, `Opening balance.\nThe ${word} account was reconciled in March.\nClosing balance.`)], tenantPath);
      expect(r.status).toBe(201);
    }
    let found: PortalFile[] = [];
    await eventually(async () => {
      found = (await list('admin', `?search=${word}`, false)).body;
      expect(found).toHaveLength(2);
    }, EXTRACTION_WAIT_MS);
    expect(found.every((f) => f.processedAt !== null)).toBe(true);
    expect(found[0]!.snippet).toContain(`${SNIPPET_MARK.start}${word}${SNIPPET_MARK.end}`);
    // Partial words match as prefixes, in the name and in the content.
    expect((await list('admin', `?search=${word.slice(0, 12)}`)).body.map((f) => f.id).sort()).toEqual(found.map((f) => f.id).sort());
    expect((await list('admin', `?search=${encodeURIComponent(`${word} reconc`)}`)).body).toHaveLength(2);
    // Phrases, exclusions and OR, as in a web search box.
    expect((await list('admin', `?search=${encodeURIComponent(`"${word} account"`)}`)).body).toHaveLength(2);
    expect((await list('admin', `?search=${encodeURIComponent(`"account ${word}"`)}`)).body).toHaveLength(0);
    expect((await list('admin', `?search=${encodeURIComponent(`${word} -march`)}`)).body).toHaveLength(0);
    expect((await list('admin', `?search=${encodeURIComponent(`nosuchword${suffix} OR ${word}`)}`)).body).toHaveLength(2);
    // Clients only find what they may see.
    expect((await list('otherClient', `?search=${word}`)).body).toEqual([]);
    expect((await list('admin', '?search=%22%22')).body).toEqual([]);
  });

  it('ranks a match in the name above one in the content', async () => {
    const word = `rankword${suffix}`;
    const inContent = await uploadAs('admin', [...report(ids['Own Client']!), txt('content match.txt', `this mentions ${word} once`)]);
    const inName = await uploadAs('admin', [...report(ids['Own Client']!), txt(`${word} summary.txt`, 'nothing here')]);
    await eventually(async () => expect((await list('admin', `?search=${word}`)).body).toHaveLength(2), EXTRACTION_WAIT_MS);
    expect((await list('admin', `?search=${word}`)).body.map((f) => f.id)).toEqual([inName.body.files[0]!.id, inContent.body.files[0]!.id]);
  });

  it('extracts PDF text end to end', async () => {
    const word = `pdfpelican${suffix}`;
    const r = await uploadAs('admin', [...report(ids['Own Client']!, ids.Audit), { file: 'statement.pdf', content: await pdfWith(`Annual statement ${word} total due`) }]);
    expect(r.status).toBe(201);
    expect(r.body.files[0]!.mimeType).toBe('application/pdf');
    await eventually(async () => {
      const hits = (await list('admin', `?search=${word}`)).body;
      expect(hits.map((f) => f.id)).toEqual([r.body.files[0]!.id]);
      expect(hits[0]!.snippet).toContain(`${SNIPPET_MARK.start}${word}${SNIPPET_MARK.end}`);
    }, EXTRACTION_WAIT_MS);
  });

  it('reports nothing left to extract once every file is processed, and refuses Client users', async () => {
    await eventually(async () => {
      const r = await api.json<ExtractContentResult>('POST', T('/files/extract-content'), tokens.admin);
      expect(r).toMatchObject({ status: 200, body: { filesToProcess: 0 } });
    }, EXTRACTION_WAIT_MS);
    expect(extractionMessage(0)).toBe('All documents already have searchable content extracted!');
    expect((await api.json<ExtractContentResult>('POST', '/api/files/extract-content', tokens.cpa)).body).toEqual({ filesToProcess: 0 });
    expect(await api.json('POST', T('/files/extract-content'), tokens.client)).toMatchObject({ status: 403, body: { message: 'Access denied. Client users cannot start content extraction.' } });
  });
});

describe('Google Drive', () => {
  const drive = () => ids['Drive Client']!;

  it('uploads a small file in one request to the client\'s folder and reads it back, ranges included', async () => {
    const r = await uploadAs('cpa', [...report(drive(), ids.Audit), txt('drive small.txt', 'stored in Google Drive')]);
    expect(r.status).toBe(201);
    const stored = [...google.driveFiles.values()].find((f) => f.name === 'drive small.txt')!;
    expect(stored.data.toString()).toBe('stored in Google Drive');
    expect(stored.parents).toHaveLength(1);
    expect(google.uploads.find((x) => x.fileId === stored.id)?.type).toBe('multipart');
    const id = r.body.files[0]!.id;
    const read = await api.send('GET', T(`/files/${id}`), tokens.cpa);
    expect([read.status, read.bytes.toString(), read.headers.get('content-length')]).toEqual([200, 'stored in Google Drive', '22']);
    const part = await api.send('GET', `/api/files/${id}`, tokens.cpa, { headers: { range: 'bytes=10-15' } });
    expect([part.status, part.bytes.toString()]).toEqual([206, 'Google']);
    const link = (await api.json<PublicFileLink>('POST', T(`/files/${id}/public-link`), tokens.cpa)).body;
    expect((await api.send('GET', link.url, null)).bytes.toString()).toBe('stored in Google Drive');
  });

  it('uploads a larger file resumably, chunk by chunk, byte for byte', async () => {
    const content = randomBytes(CHUNK_BYTES * 2 + 1234);
    const r = await uploadAs('admin', [...report(drive()), { file: 'drive big.bin', content }]);
    expect(r.status).toBe(201);
    expect(r.body.files[0]!.size).toBe(content.length);
    const stored = [...google.driveFiles.values()].find((f) => f.name === 'drive big.bin')!;
    expect(stored.data.equals(content)).toBe(true);
    expect(google.uploads.find((x) => x.fileId === stored.id)).toEqual({ type: 'resumable', fileId: stored.id, chunks: 3 });
    expect((await api.send('GET', T(`/files/${r.body.files[0]!.id}`), tokens.admin)).bytes.equals(content)).toBe(true);
    // Exactly two chunks: the end is only known after the last full chunk.
    const even = randomBytes(CHUNK_BYTES * 2);
    const evenUpload = await uploadAs('admin', [...report(drive()), { file: 'drive even.bin', content: even }]);
    expect(evenUpload.status).toBe(201);
    expect([...google.driveFiles.values()].find((f) => f.name === 'drive even.bin')!.data.equals(even)).toBe(true);
  });

  it('moves files to Drive when the fields come after them, leaving nothing in the object store', async () => {
    const keys = await objectKeys();
    const r = await uploadAs('admin', [txt('drive late.txt', 'late fields'), ...report(drive())]);
    expect(r.status).toBe(201);
    expect([...google.driveFiles.values()].find((f) => f.name === 'drive late.txt')?.data.toString()).toBe('late fields');
    expect(await objectKeys()).toEqual(keys);
  });

  it('extracts text from a Drive file in the background', async () => {
    const word = `driveotter${suffix}`;
    const r = await uploadAs('admin', [...report(drive()), txt('drive words.txt', `words about ${word} here`)]);
    await eventually(async () => expect((await list('admin', `?search=${word}`)).body.map((f) => f.id)).toEqual([r.body.files[0]!.id]), EXTRACTION_WAIT_MS);
  });

  it('leaves a file it could not read unprocessed, and extracts it once asked again', async () => {
    const word = `driveheron${suffix}`;
    google.setDownloadsUnavailable(true);
    try {
      const refusedBefore = google.refusedDownloads;
      const r = await uploadAs('admin', [...report(drive()), txt('drive heron.txt', `notes on ${word}`)]);
      expect(r.status).toBe(201);
      await eventually(() => google.refusedDownloads > refusedBefore, EXTRACTION_WAIT_MS);
      // Not recorded as processed without text: the next request queues it again.
      await eventually(async () => {
        expect((await api.json<ExtractContentResult>('POST', T('/files/extract-content'), tokens.admin)).body.filesToProcess).toBeGreaterThanOrEqual(1);
      }, EXTRACTION_WAIT_MS);
    } finally {
      google.setDownloadsUnavailable(false);
    }
    await api.json('POST', T('/files/extract-content'), tokens.admin);
    await eventually(async () => expect((await list('admin', `?search=${word}`)).body.map((f) => f.originalName)).toEqual(['drive heron.txt']), EXTRACTION_WAIT_MS);
  });

  it('deletes the file from Drive', async () => {
    const r = await uploadAs('admin', [...report(drive()), txt('drive doomed.txt', 'doomed')]);
    const before = google.driveFiles.size;
    expect((await api.json('DELETE', T(`/files/${r.body.files[0]!.id}`), tokens.admin)).status).toBe(200);
    expect(google.driveFiles.size).toBe(before - 1);
  });

  it('answers 409 while Drive is selected but not connected, and stores nothing', async () => {
    const r = await expectNothingStored(() => uploadAs('admin', [...report(ids['Unconnected Drive']!), txt('nowhere.txt', 'x')]));
    expect(r).toMatchObject({ status: 409, body: { message: 'Google Drive is selected for this client but not yet configured.' } });
  });

  it('deletes what reached Drive when a later file of the same upload fails', async () => {
    const r = await expectNothingStored(() => uploadAs('admin', [...report(drive()), txt('drive first.txt', 'fine'), { file: 'drive bad.pdf', content: 'not a pdf at all' }]));
    expect(r.status).toBe(415);
  });

  it('answers 409 with a message when Google no longer grants the portal access, and stores nothing', async () => {
    google.setRevoked(true);
    try {
      const r = await expectNothingStored(() => uploadAs('admin', [...report(drive()), txt('refused.txt', 'x')]));
      expect(r).toMatchObject({ status: 409, body: { message: 'Google Drive refused access to this client\'s folder. Please reconnect Google Drive for this client.' } });
    } finally {
      google.setRevoked(false);
    }
  });
});

describe('the directory\'s internal Google Drive access call', () => {
  const directoryUrl = () => portal.serviceUrls.get('directory')!;
  const access = (clientId: number, headers: Record<string, string>) =>
    fetch(`${directoryUrl()}${driveAccessPath(clientId)}`, { headers }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }));
  const asUser = (who: string) => ({ authorization: `Bearer ${tokens[who]}`, 'x-portal-tenant': ACME });
  const assertion = (claims: { t: string; c: number }, key = DRIVE_ACCESS_KEY_PURPOSE, ttl = 60) =>
    ({ [DRIVE_ACCESS_ASSERTION_HEADER]: new TokenSigner(deriveKey(master, key)).sign(claims, ttl).token });

  const asFiles = (clientId: number) => assertion({ t: ACME, c: clientId });

  it('hands the files service a short-lived token and the folder, never the refresh token', async () => {
    const r = await access(ids['Drive Client']!, asFiles(ids['Drive Client']!));
    expect(r).toEqual({ status: 200, body: { accessToken: expect.any(String), expiresAt: expect.any(String), folderId: expect.stringMatching(/^folder-/) } });
    expect(google.issuedTokens).toContain(r.body.accessToken);
    expect(JSON.stringify(r.body)).not.toMatch(/refresh-token/);
  });

  it('answers a service assertion bound to the firm and client, and refuses any other', async () => {
    expect((await access(ids['Drive Client']!, assertion({ t: ACME, c: ids['Drive Client']! }))).status).toBe(200);
    for (const headers of [
      assertion({ t: ACME, c: ids['Own Client']! }),
      assertion({ t: ACME, c: ids['Drive Client']! }, 'public-file-link'),
      assertion({ t: ACME, c: ids['Drive Client']! }, DRIVE_ACCESS_KEY_PURPOSE, -1),
      { [DRIVE_ACCESS_ASSERTION_HEADER]: 'forged.token' },
    ]) {
      expect(await access(ids['Drive Client']!, headers)).toEqual({ status: 403, body: { message: 'This service assertion is invalid or has expired.' } });
    }
  });

  it('refuses every user\'s token, an Admin\'s and the client\'s own included (403), and answers 409 for a client without Drive', async () => {
    for (const headers of [asUser('admin'), asUser('cpa'), asUser('client'), asUser('cpaNone'), { authorization: `Bearer ${tokens.betaAdmin}`, 'x-portal-tenant': ACME }, {}]) {
      expect(await access(ids['Drive Client']!, headers)).toEqual({ status: 403, body: { message: 'Google Drive access is for the files service only.' } });
    }
    expect(await access(ids['Unconnected Drive']!, asFiles(ids['Unconnected Drive']!))).toEqual({ status: 409, body: { message: 'Google Drive is selected for this client but not yet configured.' } });
    // The gateway never routes /internal to a service (at most the app's page answers).
    const viaGateway = await fetch(`${portal.gatewayUrl}${driveAccessPath(ids['Drive Client']!)}`, { headers: asUser('admin') });
    expect(await viaGateway.text()).not.toContain('accessToken');
  });

  it('refreshes an access token about to expire through the sealed refresh token, and keeps the fresh one', async () => {
    google.setAccessTokenTtl(60);
    try {
      const c = await api.json<Client>('POST', T('/clients'), tokens.admin, client('Short Token Co', { uploadDestination: 'google_drive' }));
      await connectDrive(c.body.id);
      const before = google.refreshes;
      const first = await access(c.body.id, asFiles(c.body.id));
      expect(first.status).toBe(200);
      expect(google.refreshes).toBe(before + 1);
      google.setAccessTokenTtl(3599);
      const r = await uploadAs('admin', [...report(c.body.id), txt('fresh token.txt', 'uploaded with a refreshed token')]);
      expect(r.status).toBe(201);
      expect(google.refreshes).toBe(before + 2);
      // A token with an hour to live is reused.
      expect((await access(c.body.id, asFiles(c.body.id))).body.accessToken).toBe((await access(c.body.id, asFiles(c.body.id))).body.accessToken);
      expect(google.refreshes).toBe(before + 2);
    } finally {
      google.setAccessTokenTtl(3599);
    }
  });
});

describe('names and deletions from the directory', () => {
  it('shows a renamed client\'s new name beside its files', async () => {
    const c = await api.json<Client>('POST', T('/clients'), tokens.admin, client('Rename Me'));
    await eventually(async () => expect((await uploadAs('admin', [...report(c.body.id), txt('renamed.txt', 'r')])).status).toBe(201), BUS_WAIT_MS);
    expect((await api.json('PUT', T(`/clients/${c.body.id}`), tokens.admin, client('Renamed Co'))).status).toBe(200);
    await eventually(async () => expect((await list('admin', `?clientId=${c.body.id}`)).body.map((f) => f.clientName)).toEqual(['Renamed Co']), BUS_WAIT_MS);
  });

  it('removes a deleted client\'s files, rows and bytes', async () => {
    const c = await api.json<Client>('POST', T('/clients'), tokens.admin, client('Leaving Co'));
    const r = await uploadAs('admin', [...report(c.body.id), txt('leaving.txt', 'bye')]);
    expect(r.status).toBe(201);
    const keys = await objectKeys();
    expect((await api.json('DELETE', T(`/clients/${c.body.id}`), tokens.admin)).status).toBe(200);
    await eventually(async () => expect((await api.send('GET', T(`/files/${r.body.files[0]!.id}`), tokens.admin)).status).toBe(404), BUS_WAIT_MS);
    // The bytes go after the rows (object storage is not in the rows' transaction).
    await eventually(async () => expect((await objectKeys()).length).toBe(keys.length - 1), BUS_WAIT_MS);
  });
});
