import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { SecurityEvent } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { SIGNATURE_MESSAGES, TOTP_IDENTITY_METHOD, type SignatureRequest, type SigningView } from '@ledgerline/contracts/signatures.contracts.ts';

/**
 * Issue 41: a signed-in Client user proves a fresh authenticator code at the moment of signing
 * (sign_in_second_factor); identity checks it as them, once per step. The e-mailed code stays.
 */
const BUS_WAIT_MS = 20_000;
const STEP_MS = 30_000;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const mailbox = testMailbox();
const suffix = randomBytes(3).toString('hex');
const ACME = `totpacme${suffix}`;
const BETA = `totpbeta${suffix}`;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const clientEmail = `totp.taxpayer.${suffix}@example.com`;
let secret = '';

const base = `/api/${ACME}/signature-requests`;
const signing = (id: number) => `${base}/${id}/signing`;

async function uploadPdf(clientId: number): Promise<number> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Form 8879', { x: 50, y: 740, size: 14, font });
  const form = new FormData();
  form.set('fileType', 'report');
  form.set('clientId', String(clientId));
  form.set('reportTypeId', String(ids.f8879));
  form.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), 'form-8879.pdf');
  const r = await fetch(`${portal.gatewayUrl}/api/${ACME}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
  expect(r.status).toBe(201);
  return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
}

const newRequest = async (signer: Record<string, unknown>): Promise<SignatureRequest> => {
  const r = await call<SignatureRequest>('POST', base, tokens.admin, {
    clientId: ids.own, reportTypeId: ids.f8879, title: `Form 8879 ${randomBytes(2).toString('hex')}`, identity: 'sign_in_second_factor',
    documents: [{ fileId: ids.pdf }], signers: [signer], fields: [{ documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 }], sendNow: true,
  });
  expect(r.status).toBe(201);
  return r.body;
};

/** A 6-digit code that is none of the authenticator's codes around now. */
function wrongCode(): string {
  const near = new Set([-1, 0, 1, 2].map((d) => totpCode(secret, Date.now() + d * STEP_MS)));
  for (let i = 0; ; i++) {
    const c = String(i).padStart(6, '0');
    if (!near.has(c)) return c;
  }
}

beforeAll(async () => {
  // The built-in issuer even where CI exports KEYCLOAK_URL: a Keycloak firm's realm keeps its users' authenticators (that 409 is keycloak-second-factors.test.ts).
  portal = await startTestPortal({ KEYCLOAK_URL: '', SCHEDULER_POLL_MS: '100', ...mailbox.env }, { logger: mailbox.logger });
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [ACME, BETA]) expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} CPAs`, shortName })).status).toBe(201);
  const c = await call<Client>('POST', `/api/${ACME}/clients`, tokens.platform, testClient('Own Client'));
  expect(c.status).toBe(201);
  ids.own = c.body.id;
  const rt = await call<ReportType>('POST', `/api/${ACME}/report-types`, tokens.platform, { name: 'Form 8879' });
  expect(rt.status).toBe(201);
  ids.f8879 = rt.body.id;
  const user = async (tenant: string, who: string, roleId: number, clientIds: number[] | null, email?: string) => {
    const u = await createSignedInUser(call, tokens.platform!, tenant, { username: `${who}_${tenant}`, fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds: null, ...(email ? { email } : {}) } as never);
    ids[who] = u.id;
    tokens[who] = u.token;
  };
  await user(ACME, 'admin', 1, null);
  await user(ACME, 'client', 4, [ids.own!], clientEmail);
  await user(BETA, 'betaAdmin', 1, null);
  ids.pdf = await uploadPdf(ids.own!);
  // The signatures service learns the client's user from events.
  await eventually(async () => {
    const r = await call<SignatureRequest>('POST', base, tokens.admin, {
      clientId: ids.own, reportTypeId: ids.f8879, title: 'warm-up', identity: 'sign_in_second_factor', documents: [{ fileId: ids.pdf }], signers: [{ userId: ids.client, role: 'taxpayer' }],
    });
    expect(r.status).toBe(201);
    expect((await call('DELETE', `${base}/${r.body.id}`, tokens.admin)).status).toBe(200);
  }, BUS_WAIT_MS, 300);
}, 180_000);

afterAll(async () => {
  await portal?.stop();
});

describe('identity: a fresh authenticator code of the signed-in user (POST auth/mfa/check)', () => {
  it('answers 400 without an authenticator or for a code that is not 6 digits, 401 without a token', async () => {
    const none = await call<{ message: string }>('POST', `/api/${ACME}/auth/mfa/check`, tokens.client, { code: '123456' });
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('No authenticator app');
    expect((await call('POST', `/api/${ACME}/auth/mfa/check`, tokens.client, { code: 'abc' })).status).toBe(400);
    expect((await call('POST', `/api/${ACME}/auth/mfa/check`, null, { code: '123456' })).status).toBe(401);
  });
});

describe('a Client user signs in the portal with an authenticator code', () => {
  let request: SignatureRequest;

  it('offers the e-mailed code alone until the user has an authenticator, then both', async () => {
    request = await newRequest({ userId: ids.client, role: 'taxpayer' });
    expect((await call<SigningView>('GET', signing(request.id), tokens.client)).body.you.factors).toEqual(['email']);
    const setup = await call<{ secret: string }>('POST', `/api/${ACME}/auth/mfa/totp/setup`, tokens.client, {});
    expect(setup.status).toBe(200);
    secret = setup.body.secret;
    expect((await call('POST', `/api/${ACME}/auth/mfa/totp/confirm`, tokens.client, { code: totpCode(secret) })).status).toBe(200);
    expect((await call<SigningView>('GET', signing(request.id), tokens.client)).body.you.factors).toEqual(['totp', 'email']);
  });

  it('refuses a wrong code (not verified, audit and security event), takes a fresh one, refuses it again', async () => {
    expect((await call('POST', `${signing(request.id)}/consent`, tokens.client)).status).toBe(200);
    expect((await fetch(`${portal.gatewayUrl}${signing(request.id)}/document`, { headers: { authorization: `Bearer ${tokens.client}` } })).status).toBe(200);

    const wrong = await call<{ message: string }>('POST', `${signing(request.id)}/identity`, tokens.client, { totp: wrongCode() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('not valid or was already used');
    expect((await call<SigningView>('GET', signing(request.id), tokens.client)).body.you.identityVerifiedAt).toBeNull();
    expect((await call('POST', `${signing(request.id)}/sign`, tokens.client, { adoption: { kind: 'typed', text: 'Client' }, confirm: true })).status).toBe(409);
    const failures = await call<SecurityEvent[]>('GET', `/api/${ACME}/security-events?kind=second-factor-check-failed`, tokens.admin);
    expect(failures.body).toEqual([expect.objectContaining({ userId: ids.client, method: 'totp' })]);

    // The confirmation used the current step: the next one is fresh.
    const fresh = totpCode(secret, Date.now() + STEP_MS);
    const passed = await call<SigningView>('POST', `${signing(request.id)}/identity`, tokens.client, { totp: fresh });
    expect(passed.status).toBe(200);
    expect(passed.body.you.identityVerifiedAt).not.toBeNull();
    expect(passed.body.you.factors).toEqual(['totp', 'email']);

    const replay = await call<{ message: string }>('POST', `${signing(request.id)}/identity`, tokens.client, { totp: fresh });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toContain('already used');
    // Nor does identity take it again elsewhere.
    expect((await call('POST', `/api/${ACME}/auth/mfa/check`, tokens.client, { code: fresh })).status).toBe(400);
  });

  it('records "authenticator app (TOTP)" in the audit trail and on the certificate', async () => {
    const signed = await call<SigningView>('POST', `${signing(request.id)}/sign`, tokens.client, { adoption: { kind: 'typed', text: 'Client' }, confirm: true });
    expect(signed.status).toBe(200);
    const done = await call<SignatureRequest>('GET', `${base}/${request.id}`, tokens.admin);
    expect(done.body.status).toBe('completed');
    expect(done.body.signers[0]!.identityResult).toBe(`passed: ${TOTP_IDENTITY_METHOD} of the signed-in user`);
    const actions = done.body.events.map((e) => `${e.action}: ${e.detail}`);
    expect(actions).toContain(`identity passed: ${TOTP_IDENTITY_METHOD}`);
    expect(actions.filter((a) => a.startsWith('identity failed'))).toHaveLength(2);
    const certificate = await fetch(`${portal.gatewayUrl}${base}/${request.id}/certificate`, { headers: { authorization: `Bearer ${tokens.admin}` } });
    expect(certificate.status).toBe(200);
  });

  it('keeps the e-mailed code, and refuses an authenticator code from a link signer and from another firm', async () => {
    const byMail = await newRequest({ userId: ids.client, role: 'taxpayer' });
    expect((await call('POST', `${signing(byMail.id)}/consent`, tokens.client)).status).toBe(200);
    expect((await call('POST', `${signing(byMail.id)}/code`, tokens.client)).status).toBe(200);
    let code = '';
    await eventually(async () => {
      const subjects = (await mailbox.messagesTo(clientEmail)).map((m) => m.Subject);
      code = subjects.map((s) => /Your signing code: (\d{6})/.exec(s)?.[1]).find(Boolean) ?? '';
      expect(code).not.toBe('');
    }, BUS_WAIT_MS, 200);
    const passed = await call<SigningView>('POST', `${signing(byMail.id)}/identity`, tokens.client, { code });
    expect(passed.status).toBe(200);
    expect(passed.body.you.identityVerifiedAt).not.toBeNull();
    expect((await call<SignatureRequest>('GET', `${base}/${byMail.id}`, tokens.admin)).body.signers[0]!.identityResult).toBe(`passed: code e-mailed to ${clientEmail}`);

    const linkSigner = `link.${suffix}@example.com`;
    await newRequest({ name: 'Pat Spouse', email: linkSigner, role: 'spouse' });
    const link = /\/sign\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec((await mailbox.waitForMail(linkSigner, 1, BUS_WAIT_MS)).Text)![1]!;
    expect((await call<SigningView>('GET', `/api/public/signing/${link}`, null)).body.you.factors).toEqual(['email']);
    const byLink = await call<{ message: string }>('POST', `/api/public/signing/${link}/identity`, null, { totp: totpCode(secret, Date.now() + 2 * STEP_MS) });
    expect(byLink.status).toBe(400);
    expect(byLink.body.message).toBe(SIGNATURE_MESSAGES.totpSignedInOnly);

    expect([403, 404]).toContain((await call('POST', `${signing(byMail.id)}/identity`, tokens.betaAdmin, { totp: '123456' })).status);
  });
});
