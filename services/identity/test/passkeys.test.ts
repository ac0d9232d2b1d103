import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { apiClient, startTestPortal } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { MfaRequiredResponse, Passkey, SecurityEvent } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { SoftwareAuthenticator } from './support/software-authenticator.ts';
import { personName, seedFirmPeople } from './support/firm-people.ts';

/**
 * Passkeys over the gateway, driven by a software authenticator: registration, the second
 * step of a sign-in, a sign-in with the passkey alone, removal, and the checks on each
 * ceremony (single-use challenge, origin, RP ID, counter, the user verified, the firm).
 * The built-in issuer's (KEYCLOAK_URL forced empty, as Keycloak firms keep factors in the realm).
 */
const ORIGIN = 'https://portal.test';
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const suffix = Math.random().toString(36).slice(2, 7);
const ACME = `acme${suffix}`;
const BETA = `beta${suffix}`;
const PASSWORD = 'password1';
const ids: Record<string, number> = {};
const tokens: Record<string, string> = {};
const name = (who: string, tenant = ACME) => personName(who, tenant);
const NOT_ACCEPTED = { status: 401, body: { message: 'This passkey was not accepted. Please try again.' } };
const EXPIRED = { status: 401, body: { message: 'This sign-in has expired. Please sign in again.' } };

type Login = { token?: string; user?: { id: number } } & Partial<MfaRequiredResponse>;
const login = (tenant: string, who: string) => call<Login>('POST', `/api/${tenant}/auth/login`, null, { username: name(who, tenant), password: PASSWORD });

/** Registers a passkey of `device` for the signed-in user; answers it. */
async function addPasskey(tenant: string, who: string, device: SoftwareAuthenticator, label = 'Laptop'): Promise<Passkey & { credentialId: string }> {
  const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${tenant}/auth/passkeys/options`, tokens[`${tenant}_${who}`]);
  expect(options.status).toBe(200);
  const response = device.create(options.body);
  const added = await call<Passkey>('POST', `/api/${tenant}/auth/passkeys`, tokens[`${tenant}_${who}`], { name: label, response });
  expect(added.status).toBe(201);
  return { ...added.body, credentialId: response.id };
}

async function events(tenant: string, userId: number): Promise<SecurityEvent[]> {
  return (await call<SecurityEvent[]>('GET', `/api/${tenant}/security-events?userId=${userId}`, tokens[`${tenant}_admin`])).body;
}

beforeAll(async () => {
  portal = await startTestPortal({ KEYCLOAK_URL: '', PUBLIC_BASE_URL: ORIGIN, LOGIN_MAX_FAILURES_PER_USER: '20' });
  call = apiClient(portal.gatewayUrl);
  await seedFirmPeople(call, portal.adminToken, [ACME, BETA], [
    [ACME, 'admin', 1, null], [ACME, 'cpa', 3, [7]], [ACME, 'cpa2', 3, [7]], [ACME, 'client', 4, [7]], [BETA, 'admin', 1, null], [BETA, 'cpa', 3, null],
  ], PASSWORD, { ids, tokens });
}, 180_000);
afterAll(async () => { await portal?.stop(); });

describe('registering a passkey', () => {
  const laptop = new SoftwareAuthenticator(ORIGIN);

  it('options name the portal\'s host as the RP, ask for a discoverable credential, and the answer registers it under a name', async () => {
    const token = tokens[`${ACME}_cpa`];
    const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${ACME}/auth/passkeys/options`, token);
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rp: { id: 'portal.test', name: `${ACME} Tax` }, user: { name: name('cpa'), displayName: `cpa of ${ACME}` },
      authenticatorSelection: { residentKey: 'required' }, attestation: 'none', excludeCredentials: [],
    });
    const response = laptop.create(options.body);
    const added = await call<Passkey>('POST', `/api/${ACME}/auth/passkeys`, token, { name: '  Work laptop ', response });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ id: expect.any(Number), name: 'Work laptop', createdAt: expect.any(String), lastUsedAt: null });
    // The challenge was used: the same answer again is refused.
    expect(await call('POST', `/api/${ACME}/auth/passkeys`, token, { name: 'Again', response })).toEqual({ status: 400, body: { message: 'This passkey registration has expired. Please add the passkey again.' } });
    expect((await call<Passkey[]>('GET', `/api/${ACME}/auth/passkeys`, token)).body).toEqual([added.body]);
    expect((await call('GET', `/api/${ACME}/auth/mfa`, token)).body).toMatchObject({ totp: false, passkeys: 1 });
    // The next options exclude it, so the same device is not registered twice.
    const next = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${ACME}/auth/passkeys/options`, token);
    expect(next.body.excludeCredentials).toEqual([{ id: response.id, type: 'public-key', transports: ['internal'] }]);
    expect((await events(ACME, ids[`${ACME}_cpa`]!))[0]).toMatchObject({ kind: 'factor-added', method: 'webauthn' });
  });

  it('an answer from another origin, for another RP, or of the wrong shape is a 400 with a message', async () => {
    const token = tokens[`${ACME}_cpa2`];
    const device = new SoftwareAuthenticator(ORIGIN);
    const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${ACME}/auth/passkeys/options`, token);
    const phished = device.create(options.body, { origin: 'https://portal.test.evil.example' });
    expect(await call('POST', `/api/${ACME}/auth/passkeys`, token, { name: 'Phone', response: phished })).toEqual({ status: 400, body: { message: 'The passkey could not be verified. Please try again.' } });
    const otherRp = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${ACME}/auth/passkeys/options`, token);
    const forOtherRp = device.create({ ...otherRp.body, rp: { ...otherRp.body.rp, id: 'evil.example' } });
    expect((await call('POST', `/api/${ACME}/auth/passkeys`, token, { name: 'Phone', response: forOtherRp })).status).toBe(400);
    const fresh = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${ACME}/auth/passkeys/options`, token);
    const good = device.create(fresh.body);
    expect(await call('POST', `/api/${ACME}/auth/passkeys`, token, { response: good })).toMatchObject({ status: 400, body: { message: 'Name is required' } });
    expect((await call<{ message: string }>('POST', `/api/${ACME}/auth/passkeys`, token, { name: 'Phone', response: { id: 'x' } })).status).toBe(400);
    expect(await call('POST', `/api/${ACME}/auth/passkeys`, token, { name: 'Phone', response: { ...good, response: { ...good.response, clientDataJSON: 'not base64url!' } } }))
      .toMatchObject({ status: 400, body: { message: 'clientDataJSON is not base64url' } });
    expect((await call('GET', `/api/${ACME}/auth/passkeys`, token)).body).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    expect((await call('POST', `/api/${ACME}/auth/passkeys/options`, null)).status).toBe(401);
    expect((await call('GET', `/api/${ACME}/auth/passkeys`, null)).status).toBe(401);
  });
});

describe('a passkey as the second step of a sign-in', () => {
  const device = new SoftwareAuthenticator(ORIGIN);
  let credentialId = '';

  beforeAll(async () => { ({ credentialId } = await addPasskey(ACME, 'cpa2', device)); });

  it('the login offers webauthn; the assertion for the challenge signs in and is recorded', async () => {
    const r = await login(ACME, 'cpa2');
    expect(r.body).toEqual({ mfaRequired: true, challenge: expect.any(String), methods: ['webauthn'] });
    const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ rpId: 'portal.test', allowCredentials: [{ id: credentialId, type: 'public-key' }] });
    const assertion = device.get(options.body);
    const ok = await call<Login>('POST', `/api/${ACME}/auth/mfa/webauthn/verify`, null, { challenge: r.body.challenge, response: assertion });
    expect(ok.status).toBe(200);
    expect(ok.body.user!.id).toBe(ids[`${ACME}_cpa2`]);
    expect((await call('GET', `/api/${ACME}/auth/me`, ok.body.token)).status).toBe(200);
    expect((await events(ACME, ids[`${ACME}_cpa2`]!))[0]).toMatchObject({ kind: 'sign-in', method: 'webauthn' });
    expect((await call<Passkey[]>('GET', `/api/${ACME}/auth/passkeys`, ok.body.token)).body[0]!.lastUsedAt).toEqual(expect.any(String));

    // Replayed for a new sign-in, the same assertion is refused: its challenge was used.
    const again = await login(ACME, 'cpa2');
    await call('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: again.body.challenge });
    expect(await call('POST', `/api/${ACME}/auth/mfa/webauthn/verify`, null, { challenge: again.body.challenge, response: assertion })).toEqual(NOT_ACCEPTED);
  });

  it('a cloned key (a counter that went back) is refused; so is another user\'s passkey or a typed code for webauthn', async () => {
    const r = await login(ACME, 'cpa2');
    let options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge });
    device.rewindCounter(credentialId, 2);
    expect(await call('POST', `/api/${ACME}/auth/mfa/webauthn/verify`, null, { challenge: r.body.challenge, response: device.get(options.body) })).toEqual(NOT_ACCEPTED);
    // cpa's passkey cannot answer cpa2's sign-in, even with a ceremony of its own.
    const cpaDevice = new SoftwareAuthenticator(ORIGIN);
    const cpaKey = await addPasskey(ACME, 'cpa', cpaDevice, 'Second');
    options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge });
    const foreign = cpaDevice.get({ ...options.body, allowCredentials: [{ id: cpaKey.credentialId, type: 'public-key' }] });
    expect(await call('POST', `/api/${ACME}/auth/mfa/webauthn/verify`, null, { challenge: r.body.challenge, response: foreign })).toEqual(NOT_ACCEPTED);
    expect(await call('POST', `/api/${ACME}/auth/mfa/verify`, null, { challenge: r.body.challenge, method: 'webauthn', code: '123456' }))
      .toMatchObject({ status: 400, body: { message: 'Method must be one of totp, email, recovery' } });
    expect((await call('DELETE', `/api/${ACME}/auth/passkeys/${cpaKey.id}`, tokens[`${ACME}_cpa`])).status).toBe(200);
  });

  it('another firm\'s path, or the administrator\'s, refuses the challenge', async () => {
    const r = await login(ACME, 'cpa2');
    expect(await call('POST', `/api/${BETA}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge })).toEqual(EXPIRED);
    expect(await call('POST', '/api/admin/auth/mfa/webauthn/options', null, { challenge: r.body.challenge })).toEqual(EXPIRED);
    const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge });
    expect(await call('POST', `/api/${BETA}/auth/mfa/webauthn/verify`, null, { challenge: r.body.challenge, response: device.get(options.body) })).toEqual(EXPIRED);
  });

  it('five passkeys that are not accepted end the challenge', async () => {
    const r = await login(ACME, 'cpa2');
    for (let i = 0; i < 5; i += 1) {
      const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge });
      expect(await call('POST', `/api/${ACME}/auth/mfa/webauthn/verify`, null, { challenge: r.body.challenge, response: device.get(options.body, { origin: 'https://evil.example' }) })).toEqual(NOT_ACCEPTED);
    }
    expect(await call('POST', `/api/${ACME}/auth/mfa/webauthn/options`, null, { challenge: r.body.challenge })).toEqual(EXPIRED);
  });
});

describe('signing in with a passkey alone', () => {
  const phone = new SoftwareAuthenticator(ORIGIN);
  let credentialId = '';

  beforeAll(async () => { ({ credentialId } = await addPasskey(ACME, 'client', phone, 'Phone')); });

  it('options name no credential and require the person verified; the assertion signs the user in', async () => {
    expect((await call('GET', `/api/${ACME}/info`)).body).toMatchObject({ passkeySignIn: true });
    const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/passkey-login/options`, null);
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ rpId: 'portal.test', userVerification: 'required' });
    expect(options.body.allowCredentials ?? []).toEqual([]);
    const signedIn = await call<Login & { tenant: { shortName: string } }>('POST', `/api/${ACME}/auth/passkey-login/verify`, null, { response: phone.get(options.body) });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user!.id).toBe(ids[`${ACME}_client`]);
    expect(signedIn.body.tenant.shortName).toBe(ACME);
    expect((await call('GET', `/api/${ACME}/auth/me`, signedIn.body.token)).status).toBe(200);
    expect((await events(ACME, ids[`${ACME}_client`]!))[0]).toMatchObject({ kind: 'sign-in', method: 'webauthn' });
  });

  it('counts as both factors where the firm requires a second one', async () => {
    // Required of Clients only: staff sessions begun with a password alone would end with it.
    const policy = { requireMfaForStaff: false, requireMfaForClients: true, allowEmailCodeForStaff: false, allowEmailCodeForClients: true, clientEmailSignIn: true };
    expect((await call('PUT', `/api/${ACME}/security-settings`, tokens[`${ACME}_admin`], policy)).status).toBe(200);
    try {
      const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/passkey-login/options`, null);
      const signedIn = await call<Login>('POST', `/api/${ACME}/auth/passkey-login/verify`, null, { response: phone.get(options.body) });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.token).toEqual(expect.any(String));
    } finally {
      await call('PUT', `/api/${ACME}/security-settings`, tokens[`${ACME}_admin`], { ...policy, requireMfaForStaff: false, requireMfaForClients: false });
    }
  });

  it('a touch without the person verified, a replayed assertion or another firm\'s page is refused', async () => {
    let options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/passkey-login/options`, null);
    expect(await call('POST', `/api/${ACME}/auth/passkey-login/verify`, null, { response: phone.get(options.body, { userVerified: false }) })).toEqual(NOT_ACCEPTED);
    options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/passkey-login/options`, null);
    const assertion = phone.get(options.body);
    expect((await call('POST', `/api/${ACME}/auth/passkey-login/verify`, null, { response: assertion })).status).toBe(200);
    expect(await call('POST', `/api/${ACME}/auth/passkey-login/verify`, null, { response: assertion })).toEqual(NOT_ACCEPTED);
    // The other firm's ceremony and page: the passkey is not one of its users'.
    options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${BETA}/auth/passkey-login/options`, null);
    expect(await call('POST', `/api/${BETA}/auth/passkey-login/verify`, null, { response: phone.get(options.body, { credentialId }) })).toEqual(NOT_ACCEPTED);
    // An ACME ceremony answered on BETA's page is not found there either.
    options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${ACME}/auth/passkey-login/options`, null);
    expect(await call('POST', `/api/${BETA}/auth/passkey-login/verify`, null, { response: phone.get(options.body) })).toEqual(NOT_ACCEPTED);
    expect((await events(BETA, ids[`${ACME}_client`]!)).filter((e) => e.kind === 'sign-in')).toEqual([]);
  });

  it('an unknown firm is a 404, and bad input is a 400', async () => {
    expect((await call('POST', '/api/nosuchfirm/auth/passkey-login/options', null)).status).toBe(404);
    expect((await call<{ message: string }>('POST', `/api/${ACME}/auth/passkey-login/verify`, null, { response: 'x' })).body.message).toEqual(expect.any(String));
    expect((await call('POST', `/api/${ACME}/auth/passkey-login/verify`, null, {})).status).toBe(400);
    expect((await call('POST', '/api/auth/passkey-login/verify', null, { response: { id: 'abc' } })).status).toBe(400);
  });
});

describe('signing in with a passkey alone where no firm is named (/login, /admin/login)', () => {
  const device = new SoftwareAuthenticator(ORIGIN);
  let firmKey = '';
  const generic = async (opts: Parameters<SoftwareAuthenticator['get']>[1] = {}, base = '/api/auth', answerAt = base) => {
    const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `${base}/passkey-login/options`, null);
    expect(options.status).toBe(200);
    return call<Login & { tenant: { shortName: string } | null; user: { id: number; platformAdmin: boolean } }>('POST', `${answerAt}/passkey-login/verify`, null, { response: device.get(options.body, opts) });
  };

  beforeAll(async () => { ({ credentialId: firmKey } = await addPasskey(ACME, 'cpa2', device, 'Laptop')); });

  it('a firm user\'s passkey names its firm: /login signs them in there', async () => {
    const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/auth/passkey-login/options', null);
    expect(options.body).toMatchObject({ rpId: 'portal.test', userVerification: 'required' });
    expect(options.body.allowCredentials ?? []).toEqual([]);
    const signedIn = await generic({ credentialId: firmKey });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(ids[`${ACME}_cpa2`]);
    expect(signedIn.body.tenant!.shortName).toBe(ACME);
    expect((await call('GET', `/api/${ACME}/auth/me`, signedIn.body.token)).body).toMatchObject({ username: name('cpa2') });
    expect((await events(ACME, ids[`${ACME}_cpa2`]!))[0]).toMatchObject({ kind: 'sign-in', method: 'webauthn' });
  });

  it('the administrator\'s page does not take it; nor a touch without the person verified, a replay, a firm\'s ceremony, or a handle naming another firm', async () => {
    expect(await generic({ credentialId: firmKey }, '/api/admin/auth')).toEqual(NOT_ACCEPTED);
    expect(await generic({ credentialId: firmKey, userVerified: false })).toEqual(NOT_ACCEPTED);
    // A ceremony of the firm's page is not the platform's.
    expect(await generic({ credentialId: firmKey }, `/api/${ACME}/auth`, '/api/auth')).toEqual(NOT_ACCEPTED);
    const options = await call<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/auth/passkey-login/options', null);
    const assertion = device.get(options.body, { credentialId: firmKey });
    expect((await call('POST', '/api/auth/passkey-login/verify', null, { response: assertion })).status).toBe(200);
    expect(await call('POST', '/api/auth/passkey-login/verify', null, { response: assertion })).toEqual(NOT_ACCEPTED);
    // The user handle is not signed: one naming another firm only looks there, where this passkey is unknown.
    const companies = await call<{ id: number; shortName: string }[]>('GET', '/api/companies', portal.adminToken);
    const betaId = companies.body.find((c) => c.shortName === BETA)!.id;
    const again = await call<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/auth/passkey-login/options', null);
    const signed = device.get(again.body, { credentialId: firmKey });
    const forged = { ...signed, response: { ...signed.response, userHandle: Buffer.from(`f${betaId}.x`).toString('base64url') } };
    expect(await call('POST', '/api/auth/passkey-login/verify', null, { response: forged })).toEqual(NOT_ACCEPTED);
    expect((await events(BETA, ids[`${ACME}_cpa2`]!)).filter((e) => e.kind === 'sign-in')).toEqual([]);
  });

  it('the platform administrator\'s passkey signs in on /admin/login and /login, and not on a firm\'s page', async () => {
    const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/admin/auth/passkeys/options', portal.adminToken);
    const added = await call<Passkey>('POST', '/api/admin/auth/passkeys', portal.adminToken, { name: 'Admin laptop', response: device.create(options.body) });
    expect(added.status).toBe(201);
    try {
      for (const base of ['/api/admin/auth', '/api/auth']) {
        const signedIn = await generic({}, base);
        expect(signedIn.status).toBe(200);
        expect(signedIn.body).toMatchObject({ tenant: null, user: { platformAdmin: true, username: 'platform-admin' } });
        expect((await call('GET', '/api/admin/overview', signedIn.body.token)).status).toBe(200);
      }
      expect(await generic({}, `/api/${ACME}/auth`)).toEqual(NOT_ACCEPTED);
    } finally {
      expect((await call('DELETE', `/api/admin/auth/passkeys/${added.body.id}`, portal.adminToken)).status).toBe(200);
    }
  });
});

describe('a passkey as the factor a firm requires', () => {
  const STAFF_REQUIRED = { requireMfaForStaff: true, requireMfaForClients: false, allowEmailCodeForStaff: false, allowEmailCodeForClients: true, clientEmailSignIn: true };
  beforeAll(async () => { expect((await call('PUT', `/api/${BETA}/security-settings`, tokens[`${BETA}_admin`], STAFF_REQUIRED)).status).toBe(200); });
  afterAll(async () => { await call('PUT', `/api/${BETA}/security-settings`, tokens[`${BETA}_admin`], { ...STAFF_REQUIRED, requireMfaForStaff: false }); });

  it('an unenrolled CPA adds a passkey with the setup challenge, which signs them in; the next sign-in asks for it', async () => {
    const device = new SoftwareAuthenticator(ORIGIN);
    const r = await call<{ mfaSetupRequired?: true; challenge: string }>('POST', `/api/${BETA}/auth/login`, null, { username: name('cpa', BETA), password: PASSWORD });
    expect(r.body).toEqual({ mfaSetupRequired: true, challenge: expect.any(String), methods: ['totp', 'webauthn'] });
    // Neither another firm's path nor a call without the challenge (or a token) starts it.
    expect(await call('POST', `/api/${ACME}/auth/passkeys/options`, null, { challenge: r.body.challenge })).toEqual(EXPIRED);
    expect((await call('POST', `/api/${BETA}/auth/passkeys/options`, null, {})).status).toBe(401);
    const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${BETA}/auth/passkeys/options`, null, { challenge: r.body.challenge });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({ rp: { id: 'portal.test', name: `${BETA} Tax` }, user: { name: name('cpa', BETA) }, authenticatorSelection: { residentKey: 'required' } });
    const response = device.create(options.body);
    // The answer needs the challenge of this sign-in: another firm's path refuses it.
    expect(await call('POST', `/api/${ACME}/auth/passkeys`, null, { name: 'Phone', response, challenge: r.body.challenge })).toEqual(EXPIRED);
    const added = await call<Passkey & Login & { tenant: { shortName: string } }>('POST', `/api/${BETA}/auth/passkeys`, null, { name: 'Phone', response, challenge: r.body.challenge });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ id: expect.any(Number), name: 'Phone', lastUsedAt: null, token: expect.any(String), user: { id: ids[`${BETA}_cpa`] }, tenant: { shortName: BETA } });
    expect((await call('GET', `/api/${BETA}/auth/me`, added.body.token)).status).toBe(200);
    expect((await events(BETA, ids[`${BETA}_cpa`]!)).slice(0, 2)).toMatchObject([{ kind: 'sign-in', method: 'webauthn' }, { kind: 'factor-added', method: 'webauthn' }]);
    // The setup challenge was used up.
    expect(await call('POST', `/api/${BETA}/auth/passkeys/options`, null, { challenge: r.body.challenge })).toEqual(EXPIRED);

    const next = await login(BETA, 'cpa');
    expect(next.body).toEqual({ mfaRequired: true, challenge: expect.any(String), methods: ['webauthn'] });
    // A second step's challenge is not a setup challenge: it adds no passkey.
    expect(await call('POST', `/api/${BETA}/auth/passkeys/options`, null, { challenge: next.body.challenge })).toEqual(EXPIRED);
    const assertionOptions = await call<PublicKeyCredentialRequestOptionsJSON>('POST', `/api/${BETA}/auth/mfa/webauthn/options`, null, { challenge: next.body.challenge });
    const ok = await call<Login>('POST', `/api/${BETA}/auth/mfa/webauthn/verify`, null, { challenge: next.body.challenge, response: device.get(assertionOptions.body) });
    expect(ok.body.user!.id).toBe(ids[`${BETA}_cpa`]);
  });

  it('an answer that does not verify is a 400 and leaves the setup challenge usable', async () => {
    const r = await call<{ challenge: string }>('POST', `/api/${BETA}/auth/login`, null, { username: name('admin', BETA), password: PASSWORD });
    const device = new SoftwareAuthenticator('https://elsewhere.test');
    const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', `/api/${BETA}/auth/passkeys/options`, null, { challenge: r.body.challenge });
    expect(await call('POST', `/api/${BETA}/auth/passkeys`, null, { name: 'Key', response: device.create(options.body), challenge: r.body.challenge }))
      .toEqual({ status: 400, body: { message: 'The passkey could not be verified. Please try again.' } });
    expect((await call('POST', `/api/${BETA}/auth/passkeys/options`, null, { challenge: r.body.challenge })).status).toBe(200);
    expect((await call('POST', `/api/${BETA}/auth/passkeys`, null, { name: 'Key', challenge: r.body.challenge })).status).toBe(400);
  });
});

describe('removing passkeys', () => {
  it('a user removes their own (an event records it); another user\'s is not found; the login no longer asks for it', async () => {
    const device = new SoftwareAuthenticator(ORIGIN);
    const key = await addPasskey(ACME, 'admin', device, 'Desk key');
    expect((await call('DELETE', `/api/${ACME}/auth/passkeys/${key.id}`, tokens[`${ACME}_cpa`])).status).toBe(404);
    expect((await call('DELETE', `/api/${BETA}/auth/passkeys/${key.id}`, tokens[`${BETA}_admin`])).status).toBe(404);
    expect((await login(ACME, 'admin')).body.methods).toEqual(['webauthn']);
    expect(await call('DELETE', `/api/${ACME}/auth/passkeys/${key.id}`, tokens[`${ACME}_admin`])).toEqual({ status: 200, body: { message: 'Passkey removed.' } });
    expect((await call('GET', `/api/${ACME}/auth/passkeys`, tokens[`${ACME}_admin`])).body).toEqual([]);
    expect((await events(ACME, ids[`${ACME}_admin`]!)).find((e) => e.kind === 'factor-removed')).toMatchObject({ method: 'webauthn' });
    expect((await login(ACME, 'admin')).body.token).toEqual(expect.any(String));
    expect((await call('DELETE', `/api/${ACME}/auth/passkeys/abc`, tokens[`${ACME}_admin`])).status).toBe(400);
  });

  it('an Admin\'s reset removes a user\'s passkeys; the factor overview counts them', async () => {
    const device = new SoftwareAuthenticator(ORIGIN);
    await addPasskey(ACME, 'cpa', device, 'Reset me');
    const overview = await call<{ userId: number; passkeys: number }[]>('GET', `/api/${ACME}/security-settings/factors`, tokens[`${ACME}_admin`]);
    expect(overview.body.find((u) => u.userId === ids[`${ACME}_cpa`])).toMatchObject({ passkeys: 2 });
    expect((await call('DELETE', `/api/${ACME}/users/${ids[`${ACME}_cpa`]}/mfa`, tokens[`${ACME}_admin`])).status).toBe(200);
    const signedIn = await login(ACME, 'cpa');
    expect(signedIn.body.token).toEqual(expect.any(String));
    expect((await call('GET', `/api/${ACME}/auth/passkeys`, signedIn.body.token)).body).toEqual([]);
  });
});

describe('the platform administrator', () => {
  it('registers a passkey on the administrator\'s path and uses it as the second step there', async () => {
    const device = new SoftwareAuthenticator(ORIGIN);
    const options = await call<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/admin/auth/passkeys/options', portal.adminToken);
    expect(options.body.rp.name).toBe('Ledgerline');
    const added = await call<Passkey>('POST', '/api/admin/auth/passkeys', portal.adminToken, { name: 'Admin key', response: device.create(options.body) });
    expect(added.status).toBe(201);
    try {
      const r = await call<Login>('POST', '/api/admin/auth/login', null, { username: 'platform-admin', password: 'admin-secret-1' });
      expect(r.body.methods).toEqual(['webauthn']);
      const assertionOptions = await call<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/admin/auth/mfa/webauthn/options', null, { challenge: r.body.challenge });
      const ok = await call<Login>('POST', '/api/admin/auth/mfa/webauthn/verify', null, { challenge: r.body.challenge, response: device.get(assertionOptions.body) });
      expect(ok.status).toBe(200);
      expect(ok.body.token).toEqual(expect.any(String));
      // A firm's user cannot list the administrator's passkeys.
      expect((await call('GET', '/api/admin/auth/passkeys', tokens[`${ACME}_admin`])).status).toBe(403);
    } finally {
      expect((await call('DELETE', `/api/admin/auth/passkeys/${added.body.id}`, portal.adminToken)).status).toBe(200);
    }
  });
});
