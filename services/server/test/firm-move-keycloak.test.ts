import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { totpCode } from '@ledgerline/identity/mfa/totp.ts';
import { realServerUrl } from '@ledgerline/kit/testing/real-servers.ts';
import { apiClient, createSignedInUser, startTestPortal, TEST_USER_PASSWORD } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';
import { exportFirm, importArchive, importEnded, importReady, rewriteArchive } from './support/firm-moves.ts';

/*
 * Moving a firm between an installation on the built-in issuer and one on Keycloak
 * (docs/running/backup-restore.md, "Moving a firm"): into a realm, the firm's users keep
 * their passwords, roles and authenticators; out of one, the archive holds no password
 * (Keycloak gives none out) and the import says who needs one; into a realm imported
 * beforehand, the users keep the realm's passwords; a refused import leaves no realm.
 * Runs when KEYCLOAK_URL names a server (CI sets it, and fails without it).
 */
const keycloakUrl = realServerUrl('KEYCLOAK_URL')?.replace(/\/+$/, '');
const suite = keycloakUrl ? describe : describe.skip;
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
const suffix = randomBytes(3).toString('hex');
const FIRM = `kb${suffix}`;
const INTO = `kk${suffix}`;
const BACK = `kr${suffix}`;
const ADOPTED = `ka${suffix}`;
const REFUSED = `kf${suffix}`;
const realmOf = (shortName: string) => `${process.env.KEYCLOAK_REALM_PREFIX ?? 'portal-'}${shortName}`;
const people = {
  admin: { username: `anna_${suffix}`, fullName: 'Anna Admin', roleId: 1 },
  cpa: { username: `carl_${suffix}`, fullName: 'Carl Cpa', roleId: 3 },
  reviewer: { username: `rita_${suffix}`, fullName: 'Rita Reviewer', roleId: 0 },
};

suite('moving a firm into Keycloak and out of it', () => {
  let builtin: Portal;
  let keycloak: Portal;
  let totpSecret: string;
  let keycloakArchive: Buffer;
  let builtinArchive: Buffer;

  /** Keycloak's admin REST API as the bootstrap administrator. */
  const keycloakAdmin = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const token = ((await (await fetch(`${keycloakUrl}/realms/master/protocol/openid-connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: process.env.KEYCLOAK_ADMIN_USERNAME ?? 'admin', password: process.env.KEYCLOAK_ADMIN_PASSWORD ?? 'admin' }),
    })).json()) as { access_token: string }).access_token;
    const r = await fetch(`${keycloakUrl}/admin${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
  };
  const signIn = (portal: Portal, firm: string, username: string, password = TEST_USER_PASSWORD) =>
    apiClient(portal.gatewayUrl)<{ token?: string; mfaRequired?: boolean; challenge?: string; methods?: string[] }>('POST', `/api/${firm}/auth/login`, null, { username, password });
  const me = async (portal: Portal, firm: string, token: string) =>
    (await apiClient(portal.gatewayUrl)<{ username: string; role: string }>('GET', `/api/${firm}/auth/me`, token)).body;

  beforeAll(async () => {
    builtin = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000', KEYCLOAK_URL: '' });
    keycloak = await startTestPortal({ GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' });
    // Two installations with keys of their own that do not trust each other: every move between them is confirmed.
    const call = apiClient(builtin.gatewayUrl);
    expect((await call('POST', '/api/companies', builtin.adminToken, { name: `Keycloak move ${suffix}`, shortName: FIRM })).status).toBe(201);
    const reviewer = await call<{ id: number }>('POST', `/api/${FIRM}/roles`, builtin.adminToken, { name: 'Reviewer' });
    people.reviewer.roleId = reviewer.body.id;
    const tokens: Record<string, string> = {};
    for (const [key, p] of Object.entries(people)) tokens[key] = (await createSignedInUser(call, builtin.adminToken, FIRM, { ...p, clientIds: null, reportTypeIds: null })).token;
    // Carl has an authenticator app.
    const carl = tokens.cpa!;
    const setup = await call<{ secret: string }>('POST', `/api/${FIRM}/auth/mfa/totp/setup`, carl, {});
    expect((await call('POST', `/api/${FIRM}/auth/mfa/totp/confirm`, carl, { code: totpCode(setup.body.secret) })).status).toBe(200);
    totpSecret = setup.body.secret;
  }, 240_000);

  afterAll(async () => {
    if (keycloakUrl) for (const firm of [INTO, ADOPTED, REFUSED]) await keycloakAdmin('DELETE', `/realms/${realmOf(firm)}`).catch(() => undefined);
    await keycloak?.stop();
    await builtin?.stop();
  });

  it('imports a firm of the built-in issuer into a realm of its own: every user signs in with their password, role and authenticator', async () => {
    const companies = await apiClient(builtin.gatewayUrl)<{ id: number; shortName: string }[]>('GET', '/api/companies', builtin.adminToken);
    const source = companies.body.find((c) => c.shortName === FIRM)!;
    const archive = await exportFirm(builtin, `/api/companies/${source.id}`, builtin.adminToken);
    builtinArchive = archive.bytes;
    const done = await importReady(keycloak, archive.bytes, `Keycloak copy ${suffix}`, INTO, true);
    expect(done.message).toBeNull();

    // The realm holds each user as the product provisions them: portal id and username attributes, one portal role.
    const realm = realmOf(INTO);
    const realmUsers = await keycloakAdmin<{ id: string; username: string; firstName: string; attributes: Record<string, string[]> }[]>('GET', `/realms/${realm}/users?briefRepresentation=false`);
    expect(realmUsers.body.map((u) => u.attributes.portal_username?.[0]).sort()).toEqual(Object.values(people).map((p) => p.username).sort());
    const rita = realmUsers.body.find((u) => u.attributes.portal_username?.[0] === people.reviewer.username)!;
    expect(rita.firstName).toBe('Rita Reviewer');
    const roles = await keycloakAdmin<{ name: string }[]>('GET', `/realms/${realm}/users/${rita.id}/role-mappings/realm`);
    expect(roles.body.map((r) => r.name)).toContain('Reviewer');

    const anna = await signIn(keycloak, INTO, people.admin.username);
    expect(anna.status).toBe(200);
    expect(await me(keycloak, INTO, anna.body.token!)).toMatchObject({ username: people.admin.username, role: 'Admin' });
    expect((await signIn(keycloak, INTO, people.admin.username, 'not-the-password')).status).toBe(401);
    const reviewer = await signIn(keycloak, INTO, people.reviewer.username);
    expect(await me(keycloak, INTO, reviewer.body.token!)).toMatchObject({ username: people.reviewer.username, role: 'Reviewer' });
    // Carl's realm asks for his authenticator's code with the password, and takes the one his app shows.
    const carl = await signIn(keycloak, INTO, people.cpa.username);
    expect(carl.body).toMatchObject({ mfaRequired: true, methods: ['totp'] });
    const verified = await apiClient(keycloak.gatewayUrl)<{ token: string }>('POST', `/api/${INTO}/auth/mfa/verify`, null, { challenge: carl.body.challenge, method: 'totp', code: totpCode(totpSecret) });
    expect(verified.status).toBe(200);
    expect(await me(keycloak, INTO, verified.body.token)).toMatchObject({ username: people.cpa.username, role: 'CPA' });
  }, 240_000);

  it('refuses a password hash Keycloak cannot verify, and removes the realm it made: nothing is left', async () => {
    const companies = async () => (await apiClient(keycloak.gatewayUrl)<unknown[]>('GET', '/api/companies', keycloak.adminToken)).body.length;
    const before = await companies();
    const bcrypt = await rewriteArchive(builtinArchive, (name, body) => (name.startsWith('identity/tables/credentials.')
      ? Buffer.from(body.toString().replace(/"password_hash": "[^"]+"/, '"password_hash": "$2b$10$abcdefghijklmnopqrstuuv5fB0bWyxS1pKCEyXHjGS1N1lDcN7uSO"'))
      : body));
    const job = await importArchive(keycloak, bcrypt, `Refused ${suffix}`, REFUSED, true);
    expect(job.status).toBe(202);
    const failed = await importEnded(keycloak, job.body.id!);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/^The archive holds a password hash of \w+ that Keycloak cannot take \(not argon2\)\.$/);
    expect(await companies()).toBe(before);
    expect((await keycloakAdmin('GET', `/realms/${realmOf(REFUSED)}`)).status).toBe(404);
  }, 240_000);

  it('exports a Keycloak firm without passwords or authenticators; imported on the built-in issuer, its users sign in once an Admin gives them a password', async () => {
    const companies = await apiClient(keycloak.gatewayUrl)<{ id: number; shortName: string }[]>('GET', '/api/companies', keycloak.adminToken);
    const copy = companies.body.find((c) => c.shortName === INTO)!;
    const archive = await exportFirm(keycloak, `/api/companies/${copy.id}`, keycloak.adminToken);
    keycloakArchive = archive.bytes;
    expect(archive.manifest.services.identity!.rows).toMatchObject({ users: 3 });
    expect(archive.manifest.services.identity!.rows.credentials ?? 0).toBe(0);
    expect(archive.manifest.services.identity!.rows.mfa_factors ?? 0).toBe(0);

    const done = await importReady(builtin, archive.bytes, `Back ${suffix}`, BACK, true);
    expect(done.message).toBe('3 users have no password in the archive (the firm signed in through Keycloak there): an Admin sets one for each under Users.');
    expect((await signIn(builtin, BACK, people.admin.username)).status).toBe(401);
    const call = apiClient(builtin.gatewayUrl);
    const users = await call<{ id: number; username: string; roleId: number }[]>('GET', `/api/${BACK}/users`, builtin.adminToken);
    const anna = users.body.find((u) => u.username === people.admin.username)!;
    const set = await call('PUT', `/api/${BACK}/users/${anna.id}`, builtin.adminToken, { ...people.admin, password: 'anna-new-pass-1', clientIds: null, reportTypeIds: null });
    expect(set.status).toBe(200);
    expect((await signIn(builtin, BACK, people.admin.username, 'anna-new-pass-1')).status).toBe(200);
  }, 240_000);

  it('imports into a realm imported beforehand (from the firm\'s own Keycloak): its users keep the realm\'s passwords', async () => {
    // What `kc.sh import` of the firm's realm export, renamed, makes: the users with their portal ids and credentials.
    const users = await apiClient(keycloak.gatewayUrl)<{ id: number; username: string }[]>('GET', `/api/${INTO}/users`, keycloak.adminToken);
    const created = await keycloakAdmin('POST', '/realms', {
      realm: realmOf(ADOPTED), enabled: true,
      users: users.body.map((u) => ({
        username: u.username, enabled: true, firstName: 'Before import', lastName: '',
        attributes: { portal_user_id: [String(u.id)], portal_username: [u.username] },
        credentials: [{ type: 'password', value: `realm-pass-${u.id}`, temporary: false }],
      })),
    });
    expect(created.status).toBe(201);
    const done = await importReady(keycloak, keycloakArchive, `Adopted ${suffix}`, ADOPTED, true);
    expect(done.message).toBeNull();
    const anna = users.body.find((u) => u.username === people.admin.username)!;
    const signedIn = await signIn(keycloak, ADOPTED, anna.username, `realm-pass-${anna.id}`);
    expect(signedIn.status).toBe(200);
    // The realm's user now carries the portal's name and role.
    expect(await me(keycloak, ADOPTED, signedIn.body.token!)).toMatchObject({ username: anna.username, role: 'Admin' });
  }, 240_000);
});
