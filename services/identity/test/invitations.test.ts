import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { apiClient, startTestPortal, type ApiReply } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { NOTIFICATION_REQUESTED, type EmailKind } from '@ledgerline/contracts/notifications.contracts.ts';
import { INVITATION_INVALID, type InvitationInfo, type InvitationSent, type User } from '@ledgerline/contracts/identity.contracts.ts';

/*
 * Invitations and e-mail to the person (issue 40), through the gateway, on the built-in
 * issuer or (CI) Keycloak; mails read from Mailpit in CI, else from the log mailer's lines.
 */
const mail = testMailbox();
const keycloak = Boolean(process.env.KEYCLOAK_URL);
let portal: RunningPortal & { gatewayUrl: string; adminToken: string };
let call: ReturnType<typeof apiClient>;
const suffix = Math.random().toString(36).slice(2, 7);
const ACME = `inva${suffix}`;
const BETA = `invb${suffix}`;
const tokens: Record<string, string> = {};
const address = (who: string) => `${who}-${suffix}@example.test`;
const tokenIn = (text: string) => decodeURIComponent(/invitation\?token=([A-Za-z0-9_%-]+)/.exec(text)![1]!);
const login = (tenant: string, username: string, password: string) => call<{ token: string }>('POST', `/api/${tenant}/auth/login`, null, { username, password });

async function createUser(tenant: string, body: Record<string, unknown>, token = portal.adminToken): Promise<ApiReply<User>> {
  return call<User>('POST', `/api/${tenant}/users`, token, { fullName: 'Someone', roleId: 4, clientIds: [5], reportTypeIds: [], ...body });
}

beforeAll(async () => {
  portal = await startTestPortal({ ...mail.env, SCHEDULER_POLL_MS: '100', OUTBOX_POLL_MS: '100', PUBLIC_BASE_URL: 'http://portal.test', LOGIN_MAX_FAILURES_PER_IP: '15' }, { logger: mail.logger });
  call = apiClient(portal.gatewayUrl);
  for (const shortName of [ACME, BETA]) expect((await call('POST', '/api/companies', portal.adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  for (const [tenant, who, roleId] of [[ACME, 'admin', 1], [ACME, 'dta', 2], [ACME, 'cpa', 3], [BETA, 'admin', 1]] as const) {
    const username = `${tenant}-${who}`;
    expect((await createUser(tenant, { username, password: 'password1', roleId, clientIds: [] })).status).toBe(201);
    tokens[`${tenant}-${who}`] = (await login(tenant, username, 'password1')).body.token;
  }
}, 180_000);
afterAll(async () => { await portal?.stop(); });

describe('invitations', () => {
  it('a user made without a password cannot sign in and shows as disabled until invited', async () => {
    const r = await createUser(ACME, { username: `nopass-${suffix}`, email: address('nopass') });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'disabled', invitedAt: null });
    expect((await login(ACME, `nopass-${suffix}`, '')).status).toBe(400);
    expect((await login(ACME, `nopass-${suffix}`, 'password1')).status).toBe(401);
    // A user made with a password is active at once.
    expect((await createUser(ACME, { username: `withpass-${suffix}`, password: 'password1' })).body.status).toBe('active');
  });

  it('invite: true e-mails the address of a Client user whose username is none; the link sets a password, once', async () => {
    const username = `client-${suffix}`;
    const created = await createUser(ACME, { username, email: address('Client').toUpperCase(), invite: true }, tokens[`${ACME}-admin`]);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'invited', invitedAt: expect.any(String) });
    const listed = (await call<User[]>('GET', `/api/${ACME}/users`, tokens[`${ACME}-admin`])).body.find((u) => u.username === username);
    expect(listed).toMatchObject({ status: 'invited', invitedAt: created.body.invitedAt });

    const sent = await mail.waitForMail(address('client'));
    expect(sent.Subject).toBe(`${ACME} Tax invites you to its portal`);
    expect(sent.Text).toContain(`Your username is ${username}.`);
    expect(sent.Text).toContain(`http://portal.test/${ACME}/invitation?token=`);
    const token = tokenIn(sent.Text);

    const info = await call<InvitationInfo>('GET', `/api/${ACME}/auth/invitation?token=${encodeURIComponent(token)}`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ firmName: `${ACME} Tax`, username, emailCodeSignIn: !keycloak });
    expect((Date.parse(info.body.expiresAt) - Date.now()) / 86_400_000).toBeCloseTo(7, 1);
    // Another firm's path does not know the token.
    expect((await call('GET', `/api/${BETA}/auth/invitation?token=${encodeURIComponent(token)}`)).status).toBe(404);

    expect((await call('POST', `/api/${ACME}/auth/invitation`, null, { token, password: 'abc' })).status).toBe(400);
    const accepted = await call<{ username: string }>('POST', `/api/${ACME}/auth/invitation`, null, { token, password: 'client-pass-1' });
    expect(accepted).toMatchObject({ status: 200, body: { username } });
    expect((await login(ACME, username, 'client-pass-1')).status).toBe(200);
    expect((await call<User>('GET', `/api/${ACME}/users/${created.body.id}`, tokens[`${ACME}-admin`])).body).toMatchObject({ status: 'active', invitedAt: null });
    // Single use.
    expect(await call('POST', `/api/${ACME}/auth/invitation`, null, { token, password: 'other-pass-1' })).toEqual({ status: 404, body: { message: INVITATION_INVALID } });
    expect((await login(ACME, username, 'other-pass-1')).status).toBe(401);
    // An active user is not invited again.
    expect((await call('POST', `/api/${ACME}/users/${created.body.id}/invite`, tokens[`${ACME}-admin`])).status).toBe(409);
  });

  it('sending again revokes the earlier link; revoking ends the invitation', async () => {
    const r = await createUser(ACME, { username: address('resend'), roleId: 3, clientIds: [] });
    const invite = () => call<InvitationSent>('POST', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${ACME}-admin`]);
    const first = await invite();
    // A username that is an address is where the mail goes when there is no email field.
    expect(first).toMatchObject({ status: 201, body: { userId: r.body.id, sentTo: address('resend') } });
    const oldToken = tokenIn((await mail.waitForMail(address('resend'), 1)).Text);
    expect((await invite()).status).toBe(201);
    const newToken = tokenIn((await mail.waitForMail(address('resend'), 2)).Text);
    expect(newToken).not.toBe(oldToken);
    expect((await call('POST', `/api/${ACME}/auth/invitation`, null, { token: oldToken, password: 'resend-pass-1' })).status).toBe(404);

    expect(await call('DELETE', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${ACME}-admin`])).toEqual({ status: 200, body: { message: 'Invitation revoked.' } });
    expect((await call<User>('GET', `/api/${ACME}/users/${r.body.id}`, tokens[`${ACME}-admin`])).body).toMatchObject({ status: 'disabled', invitedAt: null });
    expect((await call('GET', `/api/${ACME}/auth/invitation?token=${encodeURIComponent(newToken)}`)).status).toBe(404);
    expect((await call('POST', `/api/${ACME}/auth/invitation`, null, { token: newToken, password: 'resend-pass-1' })).status).toBe(404);
    expect((await call('DELETE', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${ACME}-admin`])).status).toBe(404);
  });

  it('only the firm\'s Admin (or a platform administrator) invites and revokes; another firm cannot', async () => {
    const r = await createUser(ACME, { username: `guarded-${suffix}`, email: address('guarded') });
    for (const who of ['dta', 'cpa'] as const) {
      expect((await call('POST', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${ACME}-${who}`])).status).toBe(403);
      expect((await call('DELETE', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${ACME}-${who}`])).status).toBe(403);
    }
    // BETA's Admin, on ACME's path or its own: refused, or no such user there.
    expect([403, 404]).toContain((await call('POST', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${BETA}-admin`])).status);
    expect((await call('POST', `/api/users/${r.body.id}/invite`, tokens[`${BETA}-admin`])).status).toBe(404);
    expect(await mail.messagesTo(address('guarded'))).toEqual([]);
    // The unprefixed form, with the firm's Admin's token.
    expect((await call('POST', `/api/users/${r.body.id}/invite`, tokens[`${ACME}-admin`])).status).toBe(201);
    expect((await call('DELETE', `/api/users/${r.body.id}/invite`, tokens[`${ACME}-admin`])).status).toBe(200);
  });

  it('a user without an address cannot be invited', async () => {
    expect((await createUser(ACME, { username: `noaddress-${suffix}`, invite: true })).status).toBe(400);
    const r = await createUser(ACME, { username: `noaddress2-${suffix}` });
    expect((await call('POST', `/api/${ACME}/users/${r.body.id}/invite`, tokens[`${ACME}-admin`])).body).toEqual({ message: 'This user has no e-mail address to send an invitation to. Add one first.' });
  });

  it('a Client user may accept without a password and sign in with an e-mailed code (built-in issuer); Keycloak firms need the password', async () => {
    const r = await createUser(ACME, { username: `codeonly-${suffix}`, email: address('codeonly'), invite: true });
    const token = tokenIn((await mail.waitForMail(address('codeonly'))).Text);
    const accepted = await call('POST', `/api/${ACME}/auth/invitation`, null, { token });
    if (keycloak) {
      expect(accepted.status).toBe(400);
      return;
    }
    expect(accepted.status).toBe(200);
    expect((await call<User>('GET', `/api/${ACME}/users/${r.body.id}`, tokens[`${ACME}-admin`])).body.status).toBe('active');
    expect((await call('POST', `/api/${ACME}/auth/email-code`, null, { email: address('codeonly') })).status).toBe(202);
    expect((await mail.waitForMail(address('codeonly'), 2)).Subject).toMatch(/^\d{6} is your /);
  });

  it('the internal path the client import uses makes an invited Client user (Admin or DTA token)', async () => {
    const url = `${portal.serviceUrls.get('identity')}/internal/users/invited-clients`;
    const post = (token: string, body: unknown) => fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-portal-tenant': ACME }, body: JSON.stringify(body) });
    const body = { username: `imported-${suffix}`, fullName: 'Imported Contact', email: address('imported'), clientIds: [5] };
    expect((await post(tokens[`${ACME}-cpa`]!, body)).status).toBe(403);
    const r = await post(tokens[`${ACME}-dta`]!, body);
    expect(r.status).toBe(201);
    expect(await r.json()).toMatchObject({ role: 'Client', status: 'invited', clientIds: [5] });
    expect((await mail.waitForMail(address('imported'))).Subject).toBe(`${ACME} Tax invites you to its portal`);
  });
});

describe('e-mail to the person', () => {
  const notify = (userId: number, title: string, emailKind: EmailKind) => portal.bus!.publish([newEvent(NOTIFICATION_REQUESTED, ACME, {
    userId, title, message: `About ${title}`, category: 'task', email: true, emailKind,
  })]);

  it('notification e-mails go to the e-mail field, on the log mailer too, and stop for a kind the user turned off', async () => {
    const username = `person-${suffix}`;
    const created = await createUser(ACME, { username, password: 'password1', email: address('person') });
    const me = (await login(ACME, username, 'password1')).body.token;
    await notify(created.body.id, `first ${suffix}`, 'tasks');
    expect((await mail.waitForMail(address('person'))).Subject).toBe(`first ${suffix}`);

    expect(await call('GET', `/api/${ACME}/users/${created.body.id}/email-preferences`, me)).toEqual({ status: 200, body: { off: [] } });
    expect((await call('PUT', `/api/${ACME}/users/${created.body.id}/email-preferences`, me, { off: ['nonsense'] })).status).toBe(400);
    expect(await call('PUT', `/api/${ACME}/users/${created.body.id}/email-preferences`, me, { off: ['tasks', 'tasks'] })).toEqual({ status: 200, body: { off: ['tasks'] } });
    // Another user, even the firm's Admin, neither reads nor changes them.
    expect((await call('GET', `/api/${ACME}/users/${created.body.id}/email-preferences`, tokens[`${ACME}-admin`])).status).toBe(403);
    expect((await call('PUT', `/api/${ACME}/users/${created.body.id}/email-preferences`, tokens[`${BETA}-admin`], { off: [] })).status).toBe(403);

    // The preference reaches the tasks service by event: once it has, a tasks e-mail no longer
    // goes out while a compliance one (still on), published after it, does.
    let round = 0;
    await eventually(async () => {
      round += 1;
      const before = (await mail.messagesTo(address('person'))).length;
      await notify(created.body.id, `off ${suffix} ${round}`, 'tasks');
      await notify(created.body.id, `on ${suffix} ${round}`, 'compliance');
      const marker = await mail.waitForMail(address('person'), before + 1);
      const after = await mail.messagesTo(address('person'));
      return marker.Subject === `on ${suffix} ${round}` && after.length === before + 1;
    }, 30_000, 0);
    const subjects = (await mail.messagesTo(address('person'))).map((m) => m.Subject);
    expect(subjects).toContain(`on ${suffix} ${round}`);
    expect(subjects).not.toContain(`off ${suffix} ${round}`);
  });
});

// Last: it uses up this address's allowance, which sign-ins share.
describe('guessing invitation links', () => {
  it('an address that keeps presenting invalid links is refused for a while (429), whatever it presents', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20 && !statuses.includes(429); i += 1) {
      statuses.push((await call('GET', `/api/${ACME}/auth/invitation?token=guess-${i}-${'x'.repeat(30)}`)).status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await call('POST', `/api/${ACME}/auth/invitation`, null, { token: `guess-${'y'.repeat(30)}`, password: 'password1' })).status).toBe(429);
  });
});
