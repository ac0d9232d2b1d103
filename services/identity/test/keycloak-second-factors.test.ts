import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type KeycloakAdminClient from '@keycloak/keycloak-admin-client';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import type { MfaRequiredResponse, MfaSetupRequiredResponse, SecurityEvent, SecuritySettings, TotpSetupResponse } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { REALM_AUTHENTICATOR_CHECK } from '../src/auth/login.service.ts';
import { totpCode } from '../src/mfa/totp.ts';
import { keycloakTestAdmin } from './support/identity-provider-targets.ts';
import { personName, seedFirmPeople } from './support/firm-people.ts';

/**
 * The firm's second-factor policy where a Keycloak realm keeps the factors, against the real
 * Keycloak (KEYCLOAK_URL; CI sets it): the policy becomes the realm's CONFIGURE_TOTP required
 * action on the users it covers (users created later and users whose role changes included),
 * an unenrolled user is walked through the setup on the product's own form and the
 * authenticator lands in the realm, an Admin's reset removes it there, and Keycloak's own
 * pages (the browser flow) ask for the setup too.
 */
const keycloakUrl = realServerUrl('KEYCLOAK_URL')?.replace(/\/+$/, '');
const describeOnKeycloak = keycloakUrl ? describe : describe.skip;

type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
const suffix = Math.random().toString(36).slice(2, 7);
const ACME = `kcmfa${suffix}`;
const PASSWORD = 'password1';
const STEP_MS = 30_000;
const POLICY: SecuritySettings = { requireMfaForStaff: false, requireMfaForClients: false, allowEmailCodeForStaff: false, allowEmailCodeForClients: true, clientEmailSignIn: true };
const CONFIGURE_TOTP = 'CONFIGURE_TOTP';
type Login = { token?: string; user?: { id: number }; recoveryCodes?: string[] } & Partial<MfaRequiredResponse> & Partial<MfaSetupRequiredResponse>;

/**
 * Keycloak's brute-force protection locks a user out for a minute after two refusals within a
 * second (its quick-login check): a person is slower than a test, which waits that long
 * before a refusal that follows another of the same user.
 */
const humanPause = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describeOnKeycloak('the second-factor policy of a firm on Keycloak', () => {
  let portal: Portal;
  let call: ReturnType<typeof apiClient>;
  let admin: KeycloakAdminClient;
  const ids: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const realm = `${process.env.KEYCLOAK_REALM_PREFIX ?? 'portal-'}${ACME}`;
  const name = (who: string) => personName(who, ACME);
  const login = (who: string, password = PASSWORD) => call<Login>('POST', `/api/${ACME}/auth/login`, null, { username: name(who), password });
  const realmUser = async (who: string) => {
    admin = await keycloakTestAdmin(keycloakUrl!); // a fresh admin token: the suite outlives one
    const [user] = await admin.users.find({ realm, username: name(who), exact: true });
    return user!;
  };
  const setupRequired = async (who: string) => (await realmUser(who)).requiredActions?.includes(CONFIGURE_TOTP) ?? false;
  const putPolicy = async (policy: Partial<SecuritySettings>) => {
    expect((await call('PUT', `/api/${ACME}/security-settings`, tokens.admin, { ...POLICY, ...policy })).status).toBe(200);
  };
  /** The setup step on the product's form: answers the secret the realm now holds and the sign-in. */
  const setUp = async (challenge: string) => {
    const setup = await call<TotpSetupResponse>('POST', `/api/${ACME}/auth/mfa/totp/setup`, null, { challenge });
    expect(setup.status).toBe(200);
    const done = await call<Login>('POST', `/api/${ACME}/auth/mfa/totp/confirm`, null, { challenge, code: totpCode(setup.body.secret) });
    expect(done.status).toBe(200);
    return { secret: setup.body.secret, done: done.body };
  };

  beforeAll(async () => {
    portal = await startTestPortal({ LOGIN_MAX_FAILURES_PER_USER: '20' });
    call = apiClient(portal.gatewayUrl);
    const seeded = { ids: {} as Record<string, number>, tokens: {} as Record<string, string> };
    await seedFirmPeople(call, portal.adminToken, [ACME], [
      [ACME, 'admin', 1, null], [ACME, 'cpa', 3, [7]], [ACME, 'cpa2', 3, [7]], [ACME, 'client', 4, [7]], [ACME, 'mover', 4, [7]],
    ], PASSWORD, seeded);
    for (const [key, value] of Object.entries(seeded.ids)) ids[key.slice(ACME.length + 1)] = value;
    for (const [key, value] of Object.entries(seeded.tokens)) tokens[key.slice(ACME.length + 1)] = value;
  }, 240_000);
  afterAll(async () => {
    await portal?.stop();
    if (keycloakUrl) await (await keycloakTestAdmin(keycloakUrl)).realms.del({ realm }, { catchNotFound: true });
  });

  it('a signed-in user\'s fresh authenticator check (signing a document) is not available: the realm keeps the authenticator (409)', async () => {
    const r = await call<{ message: string }>('POST', `/api/${ACME}/auth/mfa/check`, tokens.client, { code: '123456' });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(REALM_AUTHENTICATOR_CHECK);
  });

  it('requiring a factor for staff asks the realm\'s staff to set up an authenticator, not its clients; so are users created later and users whose role changes', async () => {
    await putPolicy({ requireMfaForStaff: true });
    expect(await setupRequired('cpa')).toBe(true);
    expect(await setupRequired('admin')).toBe(true);
    expect(await setupRequired('client')).toBe(false);
    const late = await call<{ id: number }>('POST', `/api/${ACME}/users`, tokens.admin, { username: name('late'), password: PASSWORD, fullName: 'Late Comer', roleId: 3, clientIds: [], reportTypeIds: [] });
    expect(late.status).toBe(201);
    expect(await setupRequired('late')).toBe(true);
    const mover = { username: name('mover'), fullName: 'mover', password: '', clientIds: [7], reportTypeIds: [] };
    expect((await call('PUT', `/api/${ACME}/users/${ids.mover}`, tokens.admin, { ...mover, roleId: 3 })).status).toBe(200);
    expect(await setupRequired('mover')).toBe(true);
    expect((await call('PUT', `/api/${ACME}/users/${ids.mover}`, tokens.admin, { ...mover, roleId: 4 })).status).toBe(200);
    expect(await setupRequired('mover')).toBe(false);
  });

  it('an unenrolled CPA sets up an authenticator on the product\'s form; it lands in the realm, which asks for its code from then on', async () => {
    // A wrong password stays a wrong password: the setup needs the right one.
    expect(await login('cpa', 'not-the-password')).toEqual({ status: 401, body: { message: 'Invalid username or password' } });
    await humanPause();
    const r = await login('cpa');
    expect(r.body).toEqual({ mfaSetupRequired: true, challenge: expect.stringMatching(new RegExp(`^${ACME}\\.`)), methods: ['totp'] });
    // The realm keeps the factors: no portal passkey, and a wrong code confirms nothing.
    expect((await call('POST', `/api/${ACME}/auth/passkeys/options`, null, { challenge: r.body.challenge })).status).toBe(409);
    const setup = await call<TotpSetupResponse>('POST', `/api/${ACME}/auth/mfa/totp/setup`, null, { challenge: r.body.challenge });
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    expect(await call('POST', `/api/${ACME}/auth/mfa/totp/confirm`, null, { challenge: r.body.challenge, code: '000000' }))
      .toEqual({ status: 401, body: { message: 'The code is not valid. Please try again.' } });
    const done = await call<Login & { tenant: { shortName: string } }>('POST', `/api/${ACME}/auth/mfa/totp/confirm`, null, { challenge: r.body.challenge, code: totpCode(setup.body.secret) });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ recoveryCodes: [], user: { id: ids.cpa }, tenant: { shortName: ACME } });
    // The realm's own token, which every service takes.
    const claims = JSON.parse(Buffer.from(done.body.token!.split('.')[1]!, 'base64url').toString()) as { iss: string };
    expect(claims.iss).toBe(`${keycloakUrl}/realms/${realm}`);
    expect((await call('GET', `/api/${ACME}/auth/me`, done.body.token)).body).toMatchObject({ username: name('cpa') });
    const inRealm = await realmUser('cpa');
    expect(inRealm.totp).toBe(true);
    expect(inRealm.requiredActions ?? []).not.toContain(CONFIGURE_TOTP);
    const events = (await call<SecurityEvent[]>('GET', `/api/${ACME}/security-events?userId=${ids.cpa}`, tokens.admin)).body;
    expect(events.slice(0, 2)).toMatchObject([{ kind: 'sign-in', method: 'totp' }, { kind: 'factor-added', method: 'totp' }]);
    // The Admin's overview reads the realm.
    const factors = (await call<{ userId: number; totp: boolean }[]>('GET', `/api/${ACME}/security-settings/factors`, tokens.admin)).body;
    expect(factors.find((f) => f.userId === ids.cpa)).toMatchObject({ totp: true, recoveryCodesLeft: 0, passkeys: 0 });
    expect(factors.find((f) => f.userId === ids.cpa2)).toMatchObject({ totp: false });

    // The next sign-in: password, then the code (a later one: the realm takes each code once).
    const next = await login('cpa');
    expect(next.body).toEqual({ mfaRequired: true, challenge: expect.any(String), methods: ['totp'] });
    const signedIn = await call<Login>('POST', `/api/${ACME}/auth/mfa/verify`, null, { challenge: next.body.challenge, method: 'totp', code: totpCode(setup.body.secret, Date.now() + STEP_MS) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user!.id).toBe(ids.cpa);
  });

  it('an Admin\'s reset removes the authenticator from the realm and ends the user\'s realm sessions; the next sign-in sets one up again', async () => {
    expect((await call('DELETE', `/api/${ACME}/users/${ids.cpa}/mfa`, tokens.admin)).status).toBe(200);
    const user = await realmUser('cpa');
    expect(user.totp).toBe(false);
    expect(user.requiredActions).toContain(CONFIGURE_TOTP);
    expect(await admin.users.listSessions({ realm, id: user.id! })).toEqual([]);
    const r = await login('cpa');
    expect(r.body).toMatchObject({ mfaSetupRequired: true, methods: ['totp'] });
    const { done } = await setUp(r.body.challenge!);
    expect(done.token).toEqual(expect.any(String));
  });

  it('a covered user the realm lets in with the password alone (its requirement lifted by hand) is taken through the setup, and the realm asks again', async () => {
    const user = await realmUser('cpa2');
    await admin.users.update({ realm, id: user.id! }, { ...user, requiredActions: [] });
    const r = await login('cpa2');
    expect(r.body).toEqual({ mfaSetupRequired: true, challenge: expect.any(String), methods: ['totp'] });
    expect(await setupRequired('cpa2')).toBe(true);
  });

  it('Keycloak\'s own sign-in pages (the browser flow, as its account console uses) also make a covered user set up an authenticator', async () => {
    const page = await browserFlowAfterPassword(keycloakUrl!, realm, name('cpa2'), PASSWORD);
    expect(page).toContain('kc-totp-settings');
    // Not so for a client, whom the policy does not cover: signed in straight away.
    expect(await browserFlowAfterPassword(keycloakUrl!, realm, name('client'), PASSWORD)).toBe(`signed in, sent to /realms/${realm}/account/`);
  });

  it('turning the policy off lifts the requirement in the realm: the password alone signs in again', async () => {
    await putPolicy({});
    expect(await setupRequired('cpa2')).toBe(false);
    expect(await setupRequired('late')).toBe(false);
    expect((await login('cpa2')).body.token).toEqual(expect.any(String));
    // Whoever set one up keeps it: the realm still asks for its code.
    expect((await login('cpa')).body).toMatchObject({ mfaRequired: true, methods: ['totp'] });
  });
});

/**
 * Keycloak's browser flow for its account console, as a browser would go through it: the
 * sign-in page, then the username and password posted to its form (cookies carried along).
 * Answers the page that comes next.
 */
async function browserFlowAfterPassword(keycloakUrl: string, realm: string, username: string, password: string): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const base = `${keycloakUrl}/realms/${realm}`;
  const auth = new URL(`${base}/protocol/openid-connect/auth`);
  auth.search = new URLSearchParams({
    client_id: 'account-console', redirect_uri: `${base}/account/`, response_type: 'code', scope: 'openid', state: 'test', nonce: 'test',
    // PKCE, which the account console's client requires: any verifier will do for reaching the next page.
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256',
  }).toString();
  const form = await fetch(auth, { redirect: 'manual' });
  keep(form);
  const html = await form.text();
  const action = /<form[^>]*id="kc-form-login"[^>]*action="([^"]+)"/.exec(html)?.[1] ?? /action="([^"]+login-actions\/authenticate[^"]*)"/.exec(html)?.[1];
  expect(action).toBeDefined();
  const posted = await fetch(action!.replace(/&amp;/g, '&'), {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader() },
    body: new URLSearchParams({ username, password, credentialId: '' }),
  });
  keep(posted);
  let next = posted;
  // Keycloak's own steps (a required action) redirect within its login pages; signed in, it sends the browser back to the console.
  while (next.status >= 300 && next.status < 400) {
    const location = new URL(next.headers.get('location')!, base);
    if (!location.pathname.includes('/login-actions/')) return `signed in, sent to ${location.pathname}`;
    next = await fetch(location, { redirect: 'manual', headers: { cookie: cookieHeader() } });
    keep(next);
  }
  return next.text();
}
