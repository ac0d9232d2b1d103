import type { TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { Database, Queryable, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { PLATFORM_SCHEMA } from '@ledgerline/kit/db/tenant-schema.ts';
import { Conflict, Invalid, NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import type { Company, User } from '@ledgerline/contracts/identity.contracts.ts';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { CodeMethod, LoginOutcome, MfaMethod } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { CHALLENGE_EXPIRED, eventContext, KEYCLOAK_FACTORS, WRONG_CODE, type MfaService } from '../mfa/mfa.service.ts';
import { PLATFORM_SCOPE, type MfaSubject, type SignInContext } from '../mfa/mfa-subject.ts';
import { SecondFactorSetupRequired, type IdentityProvider } from '../providers/identity-provider.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { PlatformAdmin, PlatformAdminStore } from './platform-admin.store.ts';
import type { SessionStore } from '../sessions/session.store.ts';
import { firmOfUserHandle, PASSKEY_NOT_ACCEPTED, type PasskeyService } from '../passkeys/passkey.service.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const INVALID_ADMIN_CREDENTIALS = 'Invalid admin credentials';
export const NO_AUTHENTICATOR_TO_CHECK = 'No authenticator app is set up for your account: use another way to confirm it is you.';
/** A step's code is accepted once: the same code again is as wrong as a made-up one. */
export const WRONG_OR_USED_CODE = 'The authenticator code is not valid or was already used. Please wait for the next code and try again.';
/** A Keycloak firm's realm keeps its users' authenticators: the portal cannot check a code of theirs outside a sign-in. */
export const REALM_AUTHENTICATOR_CHECK = 'The authenticator check is not available for this firm\'s sign-in (Keycloak): use another way to confirm it is you.';

const tenantSummary = (c: Company) => ({ id: c.id, name: c.name, shortName: c.shortName, isActive: c.isActive, country: c.country });

/**
 * The three login forms of the spec (tenant, generic /login, platform administrator) and
 * their second step: a right password either completes the sign-in or, where a second
 * factor is set up or required (built-in issuer; Keycloak realms keep their own), answers
 * a challenge that `verify` completes. The throttle counts wrong passwords and wrong codes
 * alike per user and address, and a right password alone does not clear it.
 */
export class LoginService {
  readonly #db: Database;
  readonly #companies: CompanyStore;
  readonly #users: UserStore;
  readonly #admins: PlatformAdminStore;
  readonly #provider: IdentityProvider;
  readonly #issuer: TokenIssuer;
  readonly #throttle: LoginThrottle;
  readonly #mfa: MfaService;
  readonly #sessions: SessionStore;
  readonly #passkeys: PasskeyService;

  constructor(deps: { db: Database; companies: CompanyStore; users: UserStore; admins: PlatformAdminStore; provider: IdentityProvider; issuer: TokenIssuer; throttle: LoginThrottle; mfa: MfaService; sessions: SessionStore; passkeys: PasskeyService }) {
    this.#db = deps.db;
    this.#companies = deps.companies;
    this.#users = deps.users;
    this.#admins = deps.admins;
    this.#provider = deps.provider;
    this.#issuer = deps.issuer;
    this.#throttle = deps.throttle;
    this.#mfa = deps.mfa;
    this.#sessions = deps.sessions;
    this.#passkeys = deps.passkeys;
  }

  /** Whether this firm's second factors are the product's (built-in issuer) rather than its Keycloak realm's. */
  get ownsFactors(): boolean {
    return this.#provider.kind === 'builtin';
  }

  /** Where a Keycloak firm's users set up their second factors (null on the built-in issuer). */
  accountConsoleUrl(shortName: string): string | null {
    return this.#provider.accountConsoleUrl(shortName);
  }

  async tenantLogin(shortName: string, username: string, password: string, ctx: SignInContext): Promise<LoginOutcome> {
    const company = await this.#activeCompany(shortName);
    const throttleKey = `${shortName}:${username}`;
    this.#throttle.assertAllowed(throttleKey, ctx.address);
    const db = this.#db.forSchema(company.schemaName);
    const found = await this.#users.findByUsername(db, username);
    let token: string | null;
    try {
      token = await this.#provider.login(shortName, username, password);
    } catch (e) {
      if (!(e instanceof SecondFactorSetupRequired)) throw e;
      // The realm accepted the password and asks for an authenticator first: the portal's setup step.
      if (found) return this.#mfa.realmStep(this.#tenantSubject(company, found), throttleKey, password, 'setup');
      token = null;
    }
    if (!token || !found) {
      if (found && !this.ownsFactors && (await this.#provider.asksForOtp(shortName, username))) {
        // The realm refused password and no code alike: its code goes with the password next.
        return this.#mfa.realmStep(this.#tenantSubject(company, found), throttleKey, password, 'verify');
      }
      this.#throttle.recordFailure(throttleKey, ctx.address);
      await this.#mfa.events.record(db, { kind: 'sign-in-failed', userId: found?.id ?? null, username, method: 'password', ...eventContext(ctx) });
      throw new Unauthenticated(INVALID_CREDENTIALS);
    }
    const subject = this.#tenantSubject(company, found);
    if (this.ownsFactors) {
      const step = await this.#mfa.nextStep(subject, throttleKey);
      if (step) return step;
    } else if (await this.#mfa.required(subject)) {
      // The realm let in, with the password alone, a user the policy requires a factor of (one
      // removed in the realm, or a realm that fell behind the policy): it asks them to set one up
      // from now on, and this sign-in goes through the setup (the realm's token is not used).
      await this.#provider.requireSecondFactor(shortName, [{ id: found.id, username: found.username, required: true }]);
      return this.#mfa.realmStep(subject, throttleKey, password, 'setup');
    }
    this.#throttle.recordSuccess(throttleKey);
    return this.#complete(subject, ctx, 'password', token);
  }

  /** /login: platform administrators first, then the firm the username belongs to. */
  async genericLogin(username: string, password: string, ctx: SignInContext): Promise<LoginOutcome> {
    const platformKey = `platform:${username}`;
    this.#throttle.assertAllowed(platformKey, ctx.address);
    const admin = await this.#admins.verifyLogin(username, password);
    if (admin) return this.#adminPasswordAccepted(admin, platformKey, ctx);
    const { rows } = await this.#db.query<{ schema_name: string }>('SELECT schema_name FROM portal.user_logins WHERE username = $1', [username]);
    const company = rows[0] ? await this.#companies.findBySchema(rows[0].schema_name) : null;
    if (!company?.isActive) {
      this.#throttle.recordFailure(platformKey, ctx.address);
      throw new Unauthenticated(INVALID_CREDENTIALS);
    }
    return this.tenantLogin(company.shortName, username, password, ctx);
  }

  async adminLogin(username: string, password: string, ctx: SignInContext): Promise<LoginOutcome> {
    const platformKey = `platform:${username}`;
    this.#throttle.assertAllowed(platformKey, ctx.address);
    const admin = await this.#admins.verifyLogin(username, password);
    if (!admin) {
      this.#throttle.recordFailure(platformKey, ctx.address);
      throw new Unauthenticated(INVALID_ADMIN_CREDENTIALS);
    }
    return this.#adminPasswordAccepted(admin, platformKey, ctx);
  }

  /**
   * The second step: proof of a factor for the challenge a login answered (`check` runs in
   * the challenge's transaction: a code, a passkey's assertion). `pathTenant` is the firm the
   * call was made in (null on /api/auth and /api/admin/auth); `platformOnly` for the
   * administrator's path. A challenge of another firm, or of a firm on the platform's path,
   * is refused like an expired one.
   */
  async verify(
    pathTenant: string | null, platformOnly: boolean, challenge: string, method: MfaMethod, check: (tx: Queryable, s: MfaSubject) => Promise<boolean>, ctx: SignInContext,
    providerToken: () => string | undefined = () => undefined,
  ): Promise<LoginResponse> {
    const subject = await this.subjectOfChallenge(challenge, pathTenant, platformOnly);
    const token = challengeToken(challenge);
    const wrong = method === 'webauthn' ? PASSKEY_NOT_ACCEPTED : WRONG_CODE;
    const outcome = await this.#mfa.withChallenge(subject, token, 'verify', async (tx, c) => {
      // Wrong codes count like wrong passwords: a new challenge does not buy new guesses.
      this.#throttle.assertAllowed(c.throttleKey, ctx.address);
      return (await check(tx, subject)) ? { ok: true, value: undefined } : { ok: false, message: wrong };
    });
    if (!outcome.ok) {
      if (outcome.challenge) {
        this.#throttle.recordFailure(outcome.challenge.throttleKey, ctx.address);
        await this.#mfa.events.record(subject.db, { kind: 'sign-in-failed', userId: subject.userId, username: subject.username, method, ...eventContext(ctx) });
      }
      throw new Unauthenticated(outcome.message);
    }
    await this.#mfa.challenges.delete(subject.db, token);
    this.#throttle.recordSuccess(outcome.challenge.throttleKey);
    if (method === 'recovery') await this.#mfa.events.record(subject.db, { kind: 'recovery-code-used', userId: subject.userId, username: subject.username, ...eventContext(ctx) });
    return this.#complete(subject, ctx, method, providerToken());
  }

  /**
   * The code step: the portal's own factors check the code; a Keycloak firm's realm gets it
   * with the password the challenge carries, and its token is the sign-in's.
   */
  async verifyCode(pathTenant: string | null, platformOnly: boolean, challenge: string, method: CodeMethod, code: string, ctx: SignInContext): Promise<LoginResponse> {
    let realmToken: string | null = null;
    return this.verify(pathTenant, platformOnly, challenge, method, async (tx, s) => {
      if (!s.company || this.ownsFactors) return this.#mfa.checkCode(tx, s, method, code);
      const password = method === 'totp' ? await this.#mfa.realmPassword(tx, s, challengeToken(challenge)) : null;
      realmToken = password ? await this.#provider.login(s.company.shortName, s.username, password, code) : null;
      return realmToken !== null;
    }, ctx, () => realmToken ?? undefined);
  }

  /**
   * A signed-in user proves a fresh authenticator code (at the moment of signing a document):
   * the code is used up as at sign-in, and a wrong one counts against the same throttle as a
   * wrong sign-in code and is recorded as a security event.
   */
  async checkFreshTotp(s: MfaSubject, code: string, ctx: SignInContext): Promise<void> {
    const throttleKey = s.company ? `${s.company.shortName}:${s.username}` : `platform:${s.username}`;
    this.#throttle.assertAllowed(throttleKey, ctx.address);
    const passed = await s.db.transaction(async (tx) => {
      if (!(await this.#mfa.factors.status(tx, s.userId)).totp) throw new Invalid(NO_AUTHENTICATOR_TO_CHECK);
      return this.#mfa.checkCode(tx, s, 'totp', code);
    });
    if (!passed) {
      this.#throttle.recordFailure(throttleKey, ctx.address);
      await this.#mfa.events.record(s.db, { kind: 'second-factor-check-failed', userId: s.userId, username: s.username, method: 'totp', ...eventContext(ctx) });
      throw new Invalid(WRONG_OR_USED_CODE);
    }
    this.#throttle.recordSuccess(throttleKey);
  }

  /**
   * A first factor other than the password was proven (an e-mailed sign-in code): a second
   * step follows as after a password, unless the firm accepts that code as the possession
   * factor itself.
   */
  async afterEmailCode(subject: MfaSubject, throttleKey: string, ctx: SignInContext): Promise<LoginOutcome> {
    if (!(await this.#mfa.emailCodeAllowed(subject))) {
      const step = await this.#mfa.nextStep(subject, throttleKey);
      if (step) return step;
    }
    this.#throttle.recordSuccess(throttleKey);
    return this.#complete(subject, ctx, 'email');
  }

  /**
   * A sign-in without a password on the firm's page: a discoverable passkey's assertion, with
   * the person verified at the device, is both factors. The ceremony and the passkey are the firm's.
   */
  async passkeyLogin(shortName: string, response: AuthenticationResponseJSON, ctx: SignInContext): Promise<LoginResponse> {
    const company = await this.#activeCompany(shortName);
    const db = this.#db.forSchema(company.schemaName);
    return this.#passkeySignIn(`passkey:${shortName}:${response.id}`, response, ctx, db, async () => ({ db, subjectOf: (id) => this.tenantSubjectById(company, id) }));
  }

  /**
   * The same on /login and /admin/login, where no firm is named: the ceremony is the
   * platform's, the passkey a platform administrator's or (not on the administrator's page) a
   * firm user's, in the firm its user handle names (a Keycloak firm's users have none here).
   */
  async passkeyLoginWithoutFirm(response: AuthenticationResponseJSON, platformOnly: boolean, ctx: SignInContext): Promise<LoginResponse> {
    const platformDb = this.#db.forSchema(PLATFORM_SCHEMA);
    return this.#passkeySignIn(`passkey:${PLATFORM_SCOPE}:${response.id}`, response, ctx, platformDb, async () => {
      if (await this.#passkeys.store.byCredentialId(platformDb, response.id)) return { db: platformDb, subjectOf: (id) => this.platformSubjectById(id) };
      const companyId = platformOnly || !this.ownsFactors ? null : firmOfUserHandle(response.response.userHandle);
      const company = companyId === null ? null : await this.#companies.get(companyId).catch(() => null);
      if (!company?.isActive) return null;
      const db = this.#db.forSchema(company.schemaName);
      return { db, subjectOf: (id) => this.tenantSubjectById(company, id) };
    });
  }

  /**
   * Takes the ceremony's challenge (from `ceremonyDb`, used once whatever follows), checks the
   * assertion against the passkey where `owner` finds it, and signs its user in. The throttle
   * counts failures per passkey and address.
   */
  async #passkeySignIn(
    throttleKey: string, response: AuthenticationResponseJSON, ctx: SignInContext, ceremonyDb: SchemaDb,
    owner: () => Promise<{ db: SchemaDb; subjectOf(userId: number): Promise<MfaSubject | null> } | null>,
  ): Promise<LoginResponse> {
    this.#throttle.assertAllowed(throttleKey, ctx.address);
    const where = await owner();
    const challenge = await this.#passkeys.takeChallenge(ceremonyDb, response, 'sign-in', null);
    const passkey = where && challenge ? await where.db.transaction((tx) => this.#passkeys.verifyAssertion(tx, response, challenge, null)) : null;
    const subject = passkey ? await where!.subjectOf(passkey.userId) : null;
    if (!subject) {
      this.#throttle.recordFailure(throttleKey, ctx.address);
      if (where) await this.#mfa.events.record(where.db, { kind: 'sign-in-failed', userId: passkey?.userId ?? null, username: null, method: 'webauthn', ...eventContext(ctx) });
      throw new Unauthenticated(PASSKEY_NOT_ACCEPTED);
    }
    this.#throttle.recordSuccess(throttleKey);
    return this.#complete(subject, ctx, 'webauthn');
  }

  /**
   * The setup step of a Keycloak firm's user: the authenticator the portal set up with them,
   * confirmed with a code from it, becomes their OTP credential in the realm, and the realm
   * signs them in with the password the challenge carries and that code. The realm keeps no
   * recovery codes for the direct grant: none are answered.
   */
  async confirmRealmAuthenticator(s: MfaSubject, challenge: string, code: string, ctx: SignInContext): Promise<LoginResponse & { recoveryCodes: string[] }> {
    const company = s.company!;
    const token = challengeToken(challenge);
    let realmToken: string | null = null;
    const confirmed = await this.#mfa.withChallenge(s, token, 'setup', async (tx) => {
      const secret = await this.#mfa.takePendingTotp(tx, s, code, ctx);
      if (!secret) return { ok: false, message: WRONG_CODE };
      const password = await this.#mfa.realmPassword(tx, s, token);
      await this.#provider.addAuthenticator(company.shortName, s.username, secret);
      realmToken = password ? await this.#provider.login(company.shortName, s.username, password, code) : null;
      // Thrown, so nothing of this step stays: the realm changed the password meanwhile, say.
      if (!realmToken) throw new Unauthenticated(CHALLENGE_EXPIRED);
      return { ok: true, value: undefined };
    });
    if (!confirmed.ok) {
      if (confirmed.challenge) this.#throttle.recordFailure(confirmed.challenge.throttleKey, ctx.address);
      throw new Unauthenticated(confirmed.message);
    }
    await this.#mfa.challenges.delete(s.db, token);
    this.#throttle.recordSuccess(confirmed.challenge.throttleKey);
    return { recoveryCodes: [], ...(await this.#complete(s, ctx, 'totp', realmToken!)) };
  }

  /** Completes a sign-in whose setup challenge was just used to enrol a factor. */
  async completeSetup(subject: MfaSubject, throttleKey: string, ctx: SignInContext, method: 'totp' | 'webauthn'): Promise<LoginResponse> {
    this.#throttle.recordSuccess(throttleKey);
    return this.#complete(subject, ctx, method);
  }

  /** The user a challenge belongs to, checked against the firm the call was made in. */
  async subjectOfChallenge(challenge: string, pathTenant: string | null, platformOnly: boolean): Promise<MfaSubject> {
    const dot = challenge.indexOf('.');
    const scope = dot > 0 ? challenge.slice(0, dot) : '';
    const expired = new Unauthenticated(CHALLENGE_EXPIRED);
    if (platformOnly ? scope !== PLATFORM_SCOPE : pathTenant !== null && scope !== pathTenant) throw expired;
    const company = scope === PLATFORM_SCOPE ? null : await this.#companies.findByShortName(scope);
    if (scope !== PLATFORM_SCOPE && !company?.isActive) throw expired;
    const db = this.#db.forSchema(company ? company.schemaName : PLATFORM_SCHEMA);
    const userId = await this.#mfa.challenges.userOf(db, challengeToken(challenge));
    if (userId === null) throw expired;
    const subject = company ? await this.tenantSubjectById(company, userId) : await this.platformSubjectById(userId);
    if (!subject) throw expired;
    return subject;
  }

  async tenantSubjectById(company: Company, userId: number): Promise<MfaSubject | null> {
    const user = await this.#users.find(this.#db.forSchema(company.schemaName), userId);
    return user ? this.#tenantSubject(company, user) : null;
  }

  async platformSubjectById(adminId: number): Promise<MfaSubject | null> {
    const admin = await this.#admins.find(adminId);
    return admin ? this.#platformSubject(admin) : null;
  }

  async #adminPasswordAccepted(admin: PlatformAdmin, throttleKey: string, ctx: SignInContext): Promise<LoginOutcome> {
    const subject = this.#platformSubject(admin);
    const step = await this.#mfa.nextStep(subject, throttleKey);
    if (step) return step;
    this.#throttle.recordSuccess(throttleKey);
    return this.#complete(subject, ctx, 'password');
  }

  /**
   * Records the sign-in and issues its token. The built-in issuer's tokens name a new session
   * (sid); a Keycloak realm's token is the realm's, its sessions the realm's.
   */
  async #complete(s: MfaSubject, ctx: SignInContext, method: string, providerToken?: string): Promise<LoginResponse> {
    await this.#mfa.events.record(s.db, { kind: 'sign-in', userId: s.userId, username: s.username, method, ...eventContext(ctx) });
    const ownToken = !s.company || this.ownsFactors;
    const sessionId = ownToken ? await this.#sessions.create(s.db, { userId: s.userId, address: ctx.address, browser: ctx.browser, method }) : undefined;
    if (!s.company) {
      const admin = (await this.#admins.find(s.userId))!;
      const claims = { sub: String(admin.id), username: admin.username, fullName: admin.fullName, role: 'Admin', tenant: null, platformAdmin: true, sessionId };
      return {
        token: await this.#issuer.sign(claims),
        user: { id: admin.id, username: admin.username, fullName: admin.fullName, role: 'Admin', roleName: 'Admin', roleId: 0, clientIds: null, reportTypeIds: null, tenant: null, platformAdmin: true },
        tenant: null,
      };
    }
    // A Keycloak firm's users sign in with the realm's token only: the portal never issues one past the realm.
    if (!ownToken && !providerToken) throw new Conflict(KEYCLOAK_FACTORS);
    const found = (await this.#users.find(s.db, s.userId))!;
    await this.#users.recordLogin(s.db, found.id);
    const token = ownToken ? await this.#issuer.sign({
      sub: String(found.id), username: found.username, fullName: found.fullName, role: found.roleName, tenant: s.company.shortName, platformAdmin: false, sessionId,
    }) : providerToken!;
    const { createdAt: _createdAt, ...user } = found;
    return { token, user: { ...user, tenant: s.company.shortName, platformAdmin: false }, tenant: tenantSummary(s.company) };
  }

  #tenantSubject(company: Company, user: User): MfaSubject {
    return { db: this.#db.forSchema(company.schemaName), company, userId: user.id, username: user.username, role: user.roleName, email: user.email };
  }

  #platformSubject(admin: PlatformAdmin): MfaSubject {
    return { db: this.#db.forSchema(PLATFORM_SCHEMA), company: null, userId: admin.id, username: admin.username, role: 'Admin', email: null };
  }

  /** The schema of an active firm (404 for another). */
  async firmDb(shortName: string): Promise<SchemaDb> {
    return this.#db.forSchema((await this.#activeCompany(shortName)).schemaName);
  }

  async #activeCompany(shortName: string): Promise<Company> {
    const company = await this.#companies.findByShortName(shortName);
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return company;
  }
}

/** The random part of a challenge (after the firm's name and a dot). */
export const challengeToken = (challenge: string): string => challenge.slice(challenge.indexOf('.') + 1);
