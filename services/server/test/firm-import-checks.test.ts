import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { ArchiveSigningKey } from '@ledgerline/kit/portability/archive-signature.ts';
import { apiClient, createSignedInUser, startTestPortal, TEST_USER_PASSWORD, testClient } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';
import {
  archiveEntries, buildArchive, exportFirm, importArchive, importEnded, importReady, rewriteArchive, type ImportJob,
} from './support/firm-moves.ts';

/*
 * What a firm import refuses before it restores anything (docs/running/backup-restore.md):
 * reserved short names, archives whose entries do not match their manifest one for one,
 * manifests changed after signing; and what it asks the platform admin to confirm: archives
 * unsigned or signed by an installation this one does not know. An archive of this
 * installation, or of one listed in FIRM_ARCHIVE_TRUSTED_KEYS, imports without asking.
 */
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = randomBytes(3).toString('hex');
const FIRM = `ic${suffix}`;
/** Another installation this one trusts, and one it does not know. */
const trusted = new ArchiveSigningKey(randomBytes(32));
const stranger = new ArchiveSigningKey(randomBytes(32));
let original: Buffer;

type Entry = { name: string; body: Buffer };
const companyNames = async () => (await call<{ shortName: string }[]>('GET', '/api/companies', portal.adminToken)).body.map((c) => c.shortName).sort();
/** The archive with its manifest re-signed by `key` (or its signature left out). */
const signedBy = async (bytes: Buffer, key: ArchiveSigningKey | null): Promise<Buffer> => {
  const entries = (await archiveEntries(bytes)).filter((e) => e.name !== 'manifest.sig');
  const manifest = entries.at(-1)!.body;
  return buildArchive(key ? [...entries, { name: 'manifest.sig', body: Buffer.from(JSON.stringify(key.sign(manifest))) }] : entries);
};
/** The original archive's entries with `change` applied to the ones before the manifest; manifest and signature untouched. */
const withEntries = async (change: (entries: Entry[]) => Entry[]): Promise<Buffer> => {
  const entries = await archiveEntries(original);
  const tail = entries.splice(-2);
  return buildArchive([...change(entries), ...tail]);
};

beforeAll(async () => {
  portal = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000', KEYCLOAK_URL: '', FIRM_ARCHIVE_TRUSTED_KEYS: ` ${trusted.publicKey} ,` });
  call = apiClient(portal.gatewayUrl);
  expect((await call('POST', '/api/companies', portal.adminToken, { name: `Checks ${suffix}`, shortName: FIRM })).status).toBe(201);
  const client = await call<{ id: number }>('POST', `/api/${FIRM}/clients`, portal.adminToken, testClient('Quillon Traders'));
  expect(client.status).toBe(201);
  const reportType = await call<{ id: number }>('POST', `/api/${FIRM}/report-types`, portal.adminToken, { name: 'Payroll' });
  expect(reportType.status).toBe(201);
  await createSignedInUser(call, portal.adminToken, FIRM, { username: `checker_${suffix}`, fullName: 'Cora Checker', roleId: 1, clientIds: null, reportTypeIds: null });
  await createSignedInUser(call, portal.adminToken, FIRM, { username: `limited_${suffix}`, fullName: 'Lia Limited', roleId: 3, clientIds: [client.body.id], reportTypeIds: [reportType.body.id] });
  original = (await exportFirm(portal, '/api/companies/' + (await call<{ id: number; shortName: string }[]>('GET', '/api/companies', portal.adminToken)).body.find((c) => c.shortName === FIRM)!.id, portal.adminToken)).bytes;
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('a firm import', () => {
  it.each(['admin', 'api', 'login', 'users', 'files', 'socket', 'auth'])('refuses the reserved short name "%s", as creating a firm does', async (reserved) => {
    const before = await companyNames();
    expect(await importArchive(portal, original, 'Reserved', reserved, true)).toEqual({
      status: 400, body: expect.objectContaining({ message: `"${reserved}" is reserved by the portal; choose another short name` }),
    });
    expect(await companyNames()).toEqual(before);
  });

  it('refuses an archive that repeats an entry, even when every copy matches its checksum', async () => {
    const before = await companyNames();
    const repeated = await withEntries((entries) => {
      const users = entries.find((e) => e.name.startsWith('identity/tables/users.'))!;
      return [users, ...entries];
    });
    const name = (await archiveEntries(original)).find((e) => e.name.startsWith('identity/tables/users.'))!.name;
    expect(await importArchive(portal, repeated, 'Repeated', `rp${suffix}`, true)).toEqual({
      status: 400, body: { message: `The archive is damaged or was changed: it holds ${name} more than once.` },
    });
    expect(await companyNames()).toEqual(before);
  });

  it('refuses an archive with an entry its manifest does not list, or without one it lists', async () => {
    const extra = await withEntries((entries) => [...entries, { name: 'identity/tables/users.extra.ndjson', body: Buffer.from('{"id": 99}\n') }]);
    expect(await importArchive(portal, extra, 'Extra', `xt${suffix}`, true)).toEqual({
      status: 400, body: { message: 'The archive is damaged or was changed: it holds identity/tables/users.extra.ndjson, which its manifest does not list.' },
    });
    let dropped = '';
    const missing = await withEntries((entries) => entries.filter((e) => {
      if (dropped || !e.name.startsWith('directory/tables/clients.')) return true;
      dropped = e.name;
      return false;
    }));
    expect(await importArchive(portal, missing, 'Missing', `ms${suffix}`, true)).toEqual({
      status: 400, body: { message: `The archive is incomplete: its manifest lists ${dropped}, which it does not hold.` },
    });
  });

  it('refuses a manifest changed after it was signed', async () => {
    const entries = await archiveEntries(original);
    const manifest = entries.at(-2)!;
    manifest.body = Buffer.from(manifest.body.toString().replace(`Checks ${suffix}`, `Chexks ${suffix}`));
    expect(await importArchive(portal, await buildArchive(entries), 'Changed', `cm${suffix}`, true)).toEqual({
      status: 400, body: { message: 'The archive is damaged or was changed: its manifest does not match its signature.' },
    });
  });

  it('imports an archive of this installation without asking, and says so', async () => {
    const key = await call<{ keyId: string; publicKey: string }>('GET', '/api/companies/imports/signing-key', portal.adminToken);
    expect(key.status).toBe(200);
    expect(key.body.keyId).toMatch(/^[0-9a-f]{16}$/);
    const done = await importReady(portal, original, `Own ${suffix}`, `ow${suffix}`);
    expect(done.origin).toEqual({ signer: 'this-installation', keyId: key.body.keyId });
    expect((await call('POST', `/api/ow${suffix}/auth/login`, null, { username: `checker_${suffix}`, password: TEST_USER_PASSWORD })).status).toBe(200);
    // Only the platform admin sees the key.
    const firmAdmin = (await call<{ token: string }>('POST', `/api/${FIRM}/auth/login`, null, { username: `checker_${suffix}`, password: TEST_USER_PASSWORD })).body.token;
    expect((await call('GET', '/api/companies/imports/signing-key', firmAdmin)).status).toBe(403);
  }, 60_000);

  it('imports an archive of a trusted installation without asking', async () => {
    const done = await importReady(portal, await signedBy(original, trusted), `Trusted ${suffix}`, `tr${suffix}`);
    expect(done.origin).toEqual({ signer: 'trusted-installation', keyId: trusted.keyId });
  }, 60_000);

  it('asks the platform admin to confirm an unsigned archive or one of an unknown installation, and imports it once confirmed', async () => {
    const before = await companyNames();
    const unsigned = await rewriteArchive(original, (_, body) => body);
    const asked = await importArchive(portal, unsigned, 'Unsigned', `us${suffix}`);
    expect(asked.status).toBe(409);
    expect(asked.body.message).toMatch(/^This archive is not signed: nothing shows which installation made it or that it is unchanged since\. .*confirm to import it\.$/);
    expect(asked.body.details).toEqual({ origin: { signer: 'unsigned', keyId: null } });
    const foreign = await importArchive(portal, await signedBy(original, stranger), 'Foreign', `fo${suffix}`);
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toContain(`signed by an installation this one does not know (key ${stranger.keyId})`);
    expect(foreign.body.details).toEqual({ origin: { signer: 'unknown-installation', keyId: stranger.keyId } });
    expect(await companyNames()).toEqual(before);
    const confirmed: ImportJob = await importReady(portal, unsigned, 'Unsigned', `us${suffix}`, true);
    expect(confirmed.origin).toEqual({ signer: 'unsigned', keyId: null });
    const job = await importArchive(portal, await signedBy(original, stranger), 'Foreign', `fo${suffix}`, true);
    expect(job.status).toBe(202);
    expect((await importEnded(portal, job.body.id!)).origin).toEqual({ signer: 'unknown-installation', keyId: stranger.keyId });
  }, 90_000);

  it('refuses a row that breaks a key with a message naming the table and the row, creating nothing', async () => {
    const before = await companyNames();
    let userId = 0;
    const repeated = await rewriteArchive(original, (name, body) => {
      if (!name.startsWith('identity/tables/users.')) return body;
      const lines = body.toString().trimEnd().split('\n');
      userId = (JSON.parse(lines.at(-1)!) as { id: number }).id;
      return Buffer.from(`${[...lines, lines.at(-1)!].join('\n')}\n`);
    });
    const job = await importArchive(portal, repeated, 'Repeated row', `rr${suffix}`, true);
    expect(job.status).toBe(202);
    const failed = await importEnded(portal, job.body.id!);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(new RegExp(`^The identity service could not import its part: The archive's users table, row \\d+ \\(id ${userId}\\), repeats a key another row already has: Key \\(id\\)=\\(${userId}\\) already exists\\.$`));
    expect(failed.message).not.toContain('Internal server error');

    const orphan = await rewriteArchive(original, (name, body) => (name.startsWith('identity/tables/users.')
      ? Buffer.from(body.toString().replace(/"role_id": \d+/, '"role_id": 999999')) : body));
    const orphanJob = await importArchive(portal, orphan, 'Orphan row', `or${suffix}`, true);
    const orphanFailed = await importEnded(portal, orphanJob.body.id!);
    expect(orphanFailed.message).toMatch(/^The identity service could not import its part: The archive's users table, row 1 \(id \d+\), names a row the archive does not contain: Key \(role_id\)=\(999999\) is not present in table "roles"\.$/);

    const badValue = await rewriteArchive(original, (name, body) => (name.startsWith('directory/tables/clients.')
      ? Buffer.from(body.toString().replace(/"id": \d+/, '"id": "not a number"')) : body));
    const badJob = await importArchive(portal, badValue, 'Bad value', `bv${suffix}`, true);
    expect((await importEnded(portal, badJob.body.id!)).message).toMatch(/^The directory service could not import its part: The archive's clients table, row 1 \(id "not a number"\), holds a value its table does not take: invalid input syntax for type integer: "not a number"$/);
    expect(await companyNames()).toEqual(before);
  }, 90_000);

  it('refuses access lists naming a client or report type the archive does not contain', async () => {
    const before = await companyNames();
    const otherClient = await rewriteArchive(original, (name, body) => (name.startsWith('identity/tables/user_client_access.')
      ? Buffer.from(body.toString().replace(/"client_id": \d+/, '"client_id": 999999')) : body));
    const clientJob = await importArchive(portal, otherClient, 'Other client', `oc${suffix}`, true);
    expect((await importEnded(portal, clientJob.body.id!)).message).toMatch(/^The archive's user_client_access table, the row of user \d+, names client 999999, which the archive does not contain\.$/);
    const otherType = await rewriteArchive(original, (name, body) => (name.startsWith('identity/tables/users.')
      ? Buffer.from(body.toString().replace(/"report_type_ids": \[\d+\]/, '"report_type_ids": [999999]')) : body));
    const typeJob = await importArchive(portal, otherType, 'Other type', `ot${suffix}`, true);
    expect((await importEnded(portal, typeJob.body.id!)).message).toMatch(/^The archive's users table, user \d+, names report type 999999, which the archive does not contain\.$/);
    expect(await companyNames()).toEqual(before);
  }, 90_000);
});
