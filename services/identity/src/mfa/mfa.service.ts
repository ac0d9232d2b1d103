import { SecretBox } from '@ledgerline/kit/crypto/secret-box.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Invalid } from '@ledgerline/kit/errors.ts';
import { hasRole, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type {
  CodeMethod, MfaMethod, MfaRequiredResponse, MfaSetupRequiredResponse, MfaStatus, SecuritySettings, TotpSetupResponse,
} from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { EmailCodeStore } from './email-code.store.ts';
import { MfaChallengeStore, type StoredChallenge } from './mfa-challenge.store.ts';
import { scopeOf, type MfaSubject, type SignInContext } from './mfa-subject.ts';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.ts';
import { SecondFactorStore } from './second-factor.store.ts';
import { SecurityEventStore } from './security-event.store.ts';
import { SecuritySettingsStore } from './security-settings.store.ts';
import { newTotpSecret, otpauthUrl, totpStep } from './totp.ts';

export const CHALLENGE_TTL_SECONDS = 5 * 60;
export const CHALLENGE_MAX_FAILURES = 5;
export const CHALLENGE_EXPIRED = 'This sign-in has expired. Please sign in again.';
/**
 * A wrong code: 401 where it is the sign-in itself (verify, a setup challenge), 400 from a
 * signed-in user (enrolment), whose session a wrong code must not look like it ended.
 */
export const WRONG_CODE = 'The code is not valid. Please try again.';
const NO_AUTHENTICATOR = 'No authenticator is set up for this account.';
/** A Keycloak firm's users keep their second factors in the realm: the portal's own enrolment is refused. */
export const KEYCLOAK_FACTORS = 'This firm signs in through Keycloak: set up second factors in your Keycloak account.';

/**
 * Second factors of the built-in issuer (DESIGN §8 "sessions and factors"): authenticator
 * apps (RFC 6238, secrets sealed at rest), single-use recovery codes (hashed), the firm's
 * policy (passkeys: PasskeyService, counted here among the factors), and the challenges that carry a sign-in from the password to the second factor.
 */
export class MfaService {
  readonly factors = new SecondFactorStore();
  readonly challenges = new MfaChallengeStore();
  readonly events = new SecurityEventStore();
  readonly settings = new SecuritySettingsStore();
  readonly emailCodes = new EmailCodeStore();
  readonly #box: SecretBox;

  constructor(secretKey: Buffer) {
    this.#box = new SecretBox(secretKey);
  }

  /** Whether the firm's policy asks this user for a second factor (platform administrators: only if they set one up). */
  async required(s: MfaSubject, db: Queryable = s.db): Promise<boolean> {
    return s.company ? this.requiredForRole(db, s.role) : false;
  }

  /** Whether the policy of the firm `db` belongs to asks users of this role for a second factor. */
  async requiredForRole(db: Queryable, role: string): Promise<boolean> {
    return policyRequires(await this.settings.get(db), role);
  }

  /** Whether the firm accepts an e-mailed code as this user's second factor (and there is an address to send it to). */
  async emailCodeAllowed(s: MfaSubject, db: Queryable = s.db): Promise<boolean> {
    if (!s.company || !s.email) return false;
    const policy = await this.settings.get(db);
    return isClientSubject(s) ? policy.allowEmailCodeForClients : policy.allowEmailCodeForStaff;
  }

  async status(s: MfaSubject): Promise<MfaStatus> {
    const f = await this.factors.status(s.db, s.userId);
    return { ...f, required: await this.required(s), managedByKeycloak: false };
  }

  async methods(s: MfaSubject, db: Queryable = s.db): Promise<MfaMethod[]> {
    const f = await this.factors.status(db, s.userId);
    const methods: MfaMethod[] = [];
    if (f.totp) methods.push('totp');
    if (f.passkeys > 0) methods.push('webauthn');
    // An e-mailed code is offered where the firm allows it, but only as a second factor is due anyway.
    if ((f.totp || f.passkeys > 0 || (await this.required(s, db))) && (await this.emailCodeAllowed(s, db))) methods.push('email');
    if (f.recoveryCodesLeft > 0) methods.push('recovery');
    return methods;
  }

  /**
   * After a right password: null when the sign-in may complete now, else the challenge
   * the login answers with instead of a token.
   */
  async nextStep(s: MfaSubject, throttleKey: string): Promise<MfaRequiredResponse | MfaSetupRequiredResponse | null> {
    return s.db.transaction(async (tx) => {
      const methods = await this.methods(s, tx);
      if (methods.length) {
        const challenge = await this.#challenge(tx, s, 'verify', throttleKey);
        return { mfaRequired: true as const, challenge, methods };
      }
      if (!(await this.required(s, tx))) return null;
      return { mfaSetupRequired: true as const, challenge: await this.#challenge(tx, s, 'setup', throttleKey), methods: ['totp', 'webauthn'] };
    });
  }

  /**
   * Keycloak firms: the realm asks users with an authenticator for its code with the password,
   * and refuses a missing code as it refuses a wrong password; users its policy requires one
   * of and who have none must set one up first. The challenge of either step carries the
   * password (sealed, bound to the user) to send to the realm with the code.
   */
  async realmStep(s: MfaSubject, throttleKey: string, password: string, purpose: StoredChallenge['purpose']): Promise<MfaRequiredResponse | MfaSetupRequiredResponse> {
    const token = await this.challenges.create(s.db, {
      userId: s.userId, purpose, throttleKey, ttlSeconds: CHALLENGE_TTL_SECONDS, sealedPassword: this.#box.seal(password, `password/${s.db.schema}/${s.userId}`),
    });
    const challenge = `${scopeOf(s)}.${token}`;
    return purpose === 'verify' ? { mfaRequired: true, challenge, methods: ['totp'] } : { mfaSetupRequired: true, challenge, methods: ['totp'] };
  }

  async realmPassword(tx: Queryable, s: MfaSubject, token: string): Promise<string | null> {
    const sealed = await this.challenges.sealedPassword(tx, token);
    return sealed ? this.#box.open(sealed, `password/${s.db.schema}/${s.userId}`) : null;
  }

  /**
   * Runs `work` on a live challenge of this subject, inside a transaction holding its row.
   * `work` answers whether the code was right: a wrong one counts against the challenge
   * (and is committed), the fifth kills it. Returns what `work` returned on success.
   */
  async withChallenge<T>(s: MfaSubject, token: string, purpose: StoredChallenge['purpose'] | 'any', work: (tx: Queryable, c: StoredChallenge) => Promise<{ ok: true; value: T } | { ok: false; message: string }>): Promise<{ ok: true; value: T; challenge: StoredChallenge } | { ok: false; message: string; challenge: StoredChallenge | null }> {
    return s.db.transaction(async (tx) => {
      const c = await this.challenges.lock(tx, token);
      if (!c || c.userId !== s.userId || c.expired || c.failures >= CHALLENGE_MAX_FAILURES || (purpose !== 'any' && c.purpose !== purpose)) {
        if (c?.expired) await this.challenges.delete(tx, token);
        return { ok: false as const, message: CHALLENGE_EXPIRED, challenge: null };
      }
      const result = await work(tx, c);
      if (result.ok) return { ...result, challenge: c };
      if (c.failures + 1 >= CHALLENGE_MAX_FAILURES) await this.challenges.delete(tx, token);
      else await this.challenges.recordFailure(tx, token);
      return { ok: false as const, message: result.message, challenge: c };
    });
  }

  /** Checks a code of the given method, consuming it (a TOTP step, a recovery code). */
  async checkCode(tx: Queryable, s: MfaSubject, method: CodeMethod, code: string): Promise<boolean> {
    if (method === 'recovery') return this.factors.useRecoveryCode(tx, s.userId, recoveryCodeHash(code));
    if (method === 'email') return this.emailCodes.useCode(tx, s.userId, 'mfa', code);
    const { secret } = await this.factors.totpSecrets(tx, s.userId);
    if (!secret) return false;
    const step = totpStep(this.#open(s, secret), code);
    return step !== null && this.factors.acceptStep(tx, s.userId, step);
  }

  /** A current authenticator code, else a recovery code: what removing a factor or new codes needs. */
  async checkAnyCode(tx: Queryable, s: MfaSubject, code: string): Promise<CodeMethod | null> {
    if (await this.checkCode(tx, s, 'totp', code)) return 'totp';
    if (await this.checkCode(tx, s, 'recovery', code)) return 'recovery';
    return null;
  }

  async setupTotp(s: MfaSubject): Promise<TotpSetupResponse> {
    const current = await this.factors.status(s.db, s.userId);
    if (current.totp) throw new Conflict('An authenticator is already set up. Remove it first to set up another.');
    const secret = newTotpSecret();
    await this.factors.setPendingTotp(s.db, s.userId, this.#seal(s, secret));
    return { secret, otpauthUrl: otpauthUrl(secret, s.company?.name ?? 'Ledgerline', s.username) };
  }

  /** Confirms the pending authenticator with a code from it; answers the new recovery codes. */
  async confirmTotp(tx: Queryable, s: MfaSubject, code: string, ctx: SignInContext): Promise<string[] | null> {
    const { secret, pending } = await this.factors.totpSecrets(tx, s.userId);
    if (secret) throw new Conflict('An authenticator is already set up. Remove it first to set up another.');
    if (!pending) throw new Invalid('Start the authenticator setup first.');
    const step = totpStep(this.#open(s, pending), code);
    if (step === null) return null;
    await this.factors.confirmTotp(tx, s.userId, step);
    const codes = await this.#replaceRecoveryCodes(tx, s);
    await this.events.record(tx, { kind: 'factor-added', userId: s.userId, username: s.username, method: 'totp', ...eventContext(ctx) });
    return codes;
  }

  /**
   * Keycloak firms: the pending authenticator, confirmed with a code from it, leaves the
   * portal for the realm. Answers its secret (base32), or null for a wrong code (nothing changed).
   */
  async takePendingTotp(tx: Queryable, s: MfaSubject, code: string, ctx: SignInContext): Promise<string | null> {
    const { pending } = await this.factors.totpSecrets(tx, s.userId);
    if (!pending) throw new Invalid('Start the authenticator setup first.');
    const secret = this.#open(s, pending);
    if (totpStep(secret, code) === null) return null;
    await this.factors.removeTotp(tx, s.userId);
    await this.events.record(tx, { kind: 'factor-added', userId: s.userId, username: s.username, method: 'totp', ...eventContext(ctx) });
    return secret;
  }

  async removeTotp(s: MfaSubject, code: string, ctx: SignInContext): Promise<void> {
    await s.db.transaction(async (tx) => {
      if (!(await this.factors.status(tx, s.userId)).totp) throw new Invalid(NO_AUTHENTICATOR);
      if (!(await this.checkAnyCode(tx, s, code))) throw new Invalid(WRONG_CODE);
      await this.factors.removeTotp(tx, s.userId);
      // Recovery codes stand in for the authenticator: without it they would be a factor of their own.
      await this.factors.replaceRecoveryCodes(tx, s.userId, []);
      await this.events.record(tx, { kind: 'factor-removed', userId: s.userId, username: s.username, method: 'totp', ...eventContext(ctx) });
    });
  }

  async regenerateRecoveryCodes(s: MfaSubject, code: string, ctx: SignInContext): Promise<string[]> {
    return s.db.transaction(async (tx) => {
      if (!(await this.factors.status(tx, s.userId)).totp) throw new Invalid(NO_AUTHENTICATOR);
      if (!(await this.checkAnyCode(tx, s, code))) throw new Invalid(WRONG_CODE);
      const codes = await this.#replaceRecoveryCodes(tx, s);
      await this.events.record(tx, { kind: 'recovery-codes-regenerated', userId: s.userId, username: s.username, ...eventContext(ctx) });
      return codes;
    });
  }

  /** An Admin's reset: every factor and open challenge of the user goes. */
  async reset(tx: Queryable, target: { userId: number; username: string }, actorId: number, ctx: SignInContext): Promise<void> {
    await this.factors.removeAll(tx, target.userId);
    await this.events.record(tx, { kind: 'factors-reset', userId: target.userId, username: target.username, actorId, ...eventContext(ctx) });
  }

  /**
   * The event names who changed the policy: the firm's Admin as its user; a platform
   * administrator by name only (their id is no user of the firm's, and filtering the firm's
   * events by a user id must not find them under someone else's).
   */
  async putSettings(tx: Queryable, settings: SecuritySettings, actor: { id: number; username: string; platformAdmin: boolean }, ctx: SignInContext): Promise<SecuritySettings> {
    const saved = await this.settings.put(tx, settings);
    await this.events.record(tx, {
      kind: 'policy-changed', userId: actor.platformAdmin ? null : actor.id, username: actor.username, actorId: actor.id, method: 'policy', ...eventContext(ctx),
    });
    return saved;
  }

  async #replaceRecoveryCodes(tx: Queryable, s: MfaSubject): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.factors.replaceRecoveryCodes(tx, s.userId, codes.map(recoveryCodeHash));
    return codes;
  }

  async #challenge(tx: Queryable, s: MfaSubject, purpose: StoredChallenge['purpose'], throttleKey: string): Promise<string> {
    const token = await this.challenges.create(tx, { userId: s.userId, purpose, throttleKey, ttlSeconds: CHALLENGE_TTL_SECONDS });
    return `${scopeOf(s)}.${token}`;
  }

  /** An authenticator secret as stored: the seal is bound to the schema and user, so a secret copied to another row does not open. */
  sealTotp(schema: string, userId: number, secret: string): string {
    return this.#box.seal(secret, `totp/${schema}/${userId}`);
  }

  openTotp(schema: string, userId: number, sealed: string): string {
    return this.#box.open(sealed, `totp/${schema}/${userId}`);
  }

  #seal(s: MfaSubject, secret: string): string {
    return this.sealTotp(s.db.schema, s.userId, secret);
  }

  #open(s: MfaSubject, sealed: string): string {
    return this.openTotp(s.db.schema, s.userId, sealed);
  }
}

const isClientRole = (role: string) => hasRole({ sub: '', username: '', fullName: '', role, tenant: null, platformAdmin: false }, ROLES.client);
const isClientSubject = (s: MfaSubject) => isClientRole(s.role);

/** Whether a firm's policy asks users of this role for a second factor (Client users or staff). */
export const policyRequires = (policy: SecuritySettings, role: string): boolean => (isClientRole(role) ? policy.requireMfaForClients : policy.requireMfaForStaff);

/** Sign-in methods that passed a second factor (a passkey verifies the person at the device: both). */
const SECOND_FACTOR_METHODS: ReadonlySet<string> = new Set(['totp', 'recovery', 'webauthn']);

/**
 * Whether a session begun by `method` is one the policy accepts for a user of `role`: no
 * factor required, a second factor passed, or an e-mailed code where the firm takes it as one.
 */
export function sessionMeetsPolicy(policy: SecuritySettings, role: string, method: string | null): boolean {
  if (!policyRequires(policy, role)) return true;
  if (method !== null && SECOND_FACTOR_METHODS.has(method)) return true;
  return method === 'email' && (isClientRole(role) ? policy.allowEmailCodeForClients : policy.allowEmailCodeForStaff);
}

export const eventContext = (ctx: SignInContext) => ({ address: ctx.address, browser: ctx.browser });
