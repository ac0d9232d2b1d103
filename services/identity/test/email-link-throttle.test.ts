import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { startSmtpCapture, type CapturedMail } from '@ledgerline/kit/testing/smtp-capture.ts';

/*
 * One-click sign-in links (docs/using/sign-in-security.md): wrong links are counted per link
 * and per client address, never per firm, so a stranger's wrong links lock no client of the
 * firm out; a valid link always gets its own attempt. Mails go to a local SMTP server.
 */
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>> | undefined;
let mails: CapturedMail[] = [];
const suffix = randomBytes(3).toString('hex');
const FIRM = `lk${suffix}`;
const OTHER = `lo${suffix}`;
const IP_LIMIT = 14;
const address = (who: string) => `${who}-${suffix}@example.test`;
const wrongToken = () => randomBytes(32).toString('base64url');
const verify = (tenant: string, token: string) => call<{ message?: string; user?: { id: number } }>('POST', `/api/${tenant}/auth/email-code/verify`, null, { token });
const TOO_MANY = /^Too many failed login attempts\. Please try again in \d+ minutes?\.$/;

/** Asks for a sign-in mail and answers the link's token (the mail's text is quoted-printable). */
async function linkFor(email: string): Promise<string> {
  const before = mails.filter((m) => m.to === email).length;
  expect((await call('POST', `/api/${FIRM}/auth/email-code`, null, { email })).status).toBe(202);
  let body = '';
  await eventually(() => {
    const received = mails.filter((m) => m.to === email);
    expect(received.length).toBeGreaterThan(before);
    body = received.at(-1)!.body;
  }, 15_000);
  const text = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return decodeURIComponent(/signInToken=([A-Za-z0-9_%-]+)/.exec(text)![1]!);
}

const ids: Record<string, number> = {};

beforeAll(async () => {
  smtp = await startSmtpCapture();
  mails = smtp.mails;
  portal = await startTestPortal({
    KEYCLOAK_URL: '', SMTP_URL: smtp.url, SCHEDULER_POLL_MS: '200',
    LOGIN_MAX_FAILURES_PER_USER: '5', LOGIN_MAX_FAILURES_PER_IP: String(IP_LIMIT), EMAIL_CODE_REQUESTS_PER_ADDRESS: '20',
  });
  call = apiClient(portal.gatewayUrl);
  for (const shortName of [FIRM, OTHER]) expect((await call('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  expect((await call('PUT', `/api/${FIRM}/security-settings`, portal.adminToken, {
    requireMfaForStaff: false, requireMfaForClients: false, allowEmailCodeForStaff: false, allowEmailCodeForClients: true, clientEmailSignIn: true,
  })).status).toBe(200);
  for (const who of ['ada', 'ben', 'cy']) {
    const r = await call<{ id: number }>('POST', `/api/${FIRM}/users`, portal.adminToken, {
      username: `${who}_${FIRM}`, password: 'password1', fullName: who, roleId: 4, clientIds: [1], reportTypeIds: [], email: address(who),
    });
    expect(r.status).toBe(201);
    ids[who] = r.body.id;
  }
}, 180_000);

afterAll(async () => {
  await portal?.stop();
  await smtp?.close();
});

describe('one-click sign-in links', () => {
  it('five wrong links lock no other client of the firm out', async () => {
    for (let i = 0; i < 5; i++) expect((await verify(FIRM, wrongToken())).status).toBe(401);
    const ok = await verify(FIRM, await linkFor(address('ada')));
    expect(ok.status).toBe(200);
    expect(ok.body.user!.id).toBe(ids.ada);
  });

  it('limits one wrong link tried again and again', async () => {
    const token = wrongToken();
    for (let i = 0; i < 5; i++) expect((await verify(FIRM, token)).status).toBe(401);
    const limited = await verify(FIRM, token);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(TOO_MANY);
  });

  it('does not take a firm\'s link at another firm', async () => {
    const token = await linkFor(address('ben'));
    expect((await verify(OTHER, token)).status).toBe(401);
    expect((await verify(FIRM, token)).status).toBe(200);
  });

  it('limits one client address trying many links, and still lets a valid link from it sign in', async () => {
    let status = 0;
    for (let i = 0; i < IP_LIMIT && status !== 429; i++) status = (await verify(FIRM, wrongToken())).status;
    expect(status).toBe(429);
    const ok = await verify(FIRM, await linkFor(address('cy')));
    expect(ok.status).toBe(200);
    expect(ok.body.user!.id).toBe(ids.cy);
    // A wrong link from that address is still limited.
    expect((await verify(FIRM, wrongToken())).status).toBe(429);
  });
});
