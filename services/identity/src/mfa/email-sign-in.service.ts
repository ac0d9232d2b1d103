import type { Database } from '@ledgerline/kit/db/database.ts';
import { Invalid, NotFound, RateLimited, Unauthenticated } from '@ledgerline/kit/errors.ts';
import { hashToken } from '@ledgerline/kit/crypto/hashed-token.ts';
import { hasRole, ROLES } from '@ledgerline/kit/auth/roles.ts';
import { queueMail } from '@ledgerline/kit/mail/mail-job.ts';
import { signInCodeMail } from '@ledgerline/kit/mail/mail-templates.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { Company, User } from '@ledgerline/contracts/identity.contracts.ts';
import type { LoginOutcome } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import type { LoginService } from '../auth/login.service.ts';
import { challengeToken } from '../auth/login.service.ts';
import type { LoginThrottle } from '../auth/login-throttle.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';
import { EMAIL_CODE_TTL_MINUTES } from './email-code.store.ts';
import { eventContext, type MfaService } from './mfa.service.ts';
import type { SignInContext } from './mfa-subject.ts';

export const EMAIL_CODE_INVALID = 'The code is not valid or has expired. Ask for a new one.';
const EMAIL_NOT_OFFERED = 'E-mailed codes are not available for this account.';

const isClient = (u: User) => hasRole({ sub: '', username: '', fullName: '', role: u.roleName, tenant: null, platformAdmin: false }, ROLES.client);

export interface EmailSignInDeps {
  db: Database; companies: CompanyStore; users: UserStore; mfa: MfaService; logins: LoginService;
  jobs: JobQueue;
  /** Limits asking for codes, per address and per client address. */
  requests: LoginThrottle;
  /** The login throttle: wrong codes count like wrong passwords. */
  throttle: LoginThrottle;
  publicBaseUrl: string;
}

/**
 * Codes by e-mail: Client users' sign-in without a password (a 6-digit code and a one-click
 * link, 10 minutes, once), and the e-mailed second factor where the firm allows it. Asking
 * for a code answers the same, and does about the same work, whether or not the address is
 * known; requests are limited per address and per client address (`requests` throttle).
 */
export class EmailSignInService {
  readonly #deps: EmailSignInDeps;

  constructor(deps: EmailSignInDeps) {
    this.#deps = deps;
  }

  async request(shortName: string | null, email: string, ctx: SignInContext): Promise<void> {
    const { mfa, users, requests, jobs } = this.#deps;
    const company = await this.#company(shortName);
    const key = `email:${company.shortName}:${email.toLowerCase()}`;
    requests.assertAllowed(key, ctx.address);
    requests.recordFailure(key, ctx.address);
    await this.#deps.db.forSchema(company.schemaName).transaction(async (tx) => {
      const [policy, user] = await Promise.all([mfa.settings.get(tx), users.findByEmail(tx, email)]);
      if (!this.#offered(policy.clientEmailSignIn) || !user?.email || !isClient(user)) return;
      const { code, linkToken } = await mfa.emailCodes.issue(tx, user.id, 'sign-in');
      const link = `${this.#deps.publicBaseUrl.replace(/\/$/, '')}/${company.shortName}/login?signInToken=${encodeURIComponent(linkToken!)}`;
      await queueMail(jobs, tx, signInCodeMail({ to: user.email, firmName: company.name, code, minutes: EMAIL_CODE_TTL_MINUTES, link }));
    });
  }

  async verify(shortName: string | null, input: { email?: string | undefined; code?: string | undefined; token?: string | undefined }, ctx: SignInContext): Promise<LoginOutcome> {
    const { mfa, users, throttle, logins } = this.#deps;
    const company = await this.#company(shortName);
    // Wrong links count per link (its hash) and per client address, never per firm: a
    // stranger's wrong links must not lock the firm's other clients out.
    const throttleKey = input.token ? `email-link:${company.shortName}:${hashToken(input.token)}` : `email:${company.shortName}:${input.email!.toLowerCase()}`;
    let limited: RateLimited | null = null;
    try {
      throttle.assertAllowed(throttleKey, ctx.address);
    } catch (err) {
      // A link is 256 random bits, used once: guessing one is hopeless, so a valid link
      // always gets its own attempt (a client behind a busy office address, say).
      if (!(err instanceof RateLimited) || !input.token) throw err;
      limited = err;
    }
    const db = this.#deps.db.forSchema(company.schemaName);
    const user = await db.transaction(async (tx) => {
      const policy = await mfa.settings.get(tx);
      if (!this.#offered(policy.clientEmailSignIn)) return null;
      if (input.token) {
        const userId = await mfa.emailCodes.useLink(tx, input.token);
        return userId === null ? null : users.find(tx, userId);
      }
      const found = await users.findByEmail(tx, input.email!);
      if (!found || !isClient(found)) return null;
      return (await mfa.emailCodes.useCode(tx, found.id, 'sign-in', input.code!)) ? found : null;
    });
    if (!user || !isClient(user)) {
      if (limited) throw limited;
      throttle.recordFailure(throttleKey, ctx.address);
      await mfa.events.record(db, { kind: 'sign-in-failed', userId: null, username: input.email ?? null, method: 'email', ...eventContext(ctx) });
      throw new Unauthenticated(EMAIL_CODE_INVALID);
    }
    const subject = (await logins.tenantSubjectById(company, user.id))!;
    return logins.afterEmailCode(subject, throttleKey, ctx);
  }

  /** Sends the e-mailed second factor for a live challenge whose methods include it. */
  async sendForChallenge(pathTenant: string | null, platformOnly: boolean, challenge: string, ctx: SignInContext): Promise<void> {
    const { mfa, logins, requests, jobs } = this.#deps;
    const subject = await logins.subjectOfChallenge(challenge, pathTenant, platformOnly);
    if (!subject.company || !subject.email || !(await mfa.methods(subject)).includes('email')) throw new Invalid(EMAIL_NOT_OFFERED);
    const key = `mfa-email:${subject.company.shortName}:${subject.userId}`;
    requests.assertAllowed(key, ctx.address);
    const sent = await mfa.withChallenge(subject, challengeToken(challenge), 'verify', async (tx) => {
      const { code } = await mfa.emailCodes.issue(tx, subject.userId, 'mfa');
      await queueMail(jobs, tx, signInCodeMail({ to: subject.email!, firmName: subject.company!.name, code, minutes: EMAIL_CODE_TTL_MINUTES }));
      return { ok: true, value: undefined };
    });
    if (!sent.ok) throw new Unauthenticated(sent.message);
    requests.recordFailure(key, ctx.address);
  }

  /**
   * Keycloak firms sign in through their realm: a token the product issued itself would
   * bypass the realm's own rules, so e-mail sign-in is the built-in issuer's only.
   */
  #offered(firmAllows: boolean): boolean {
    return firmAllows && this.#deps.logins.ownsFactors;
  }

  async #company(shortName: string | null): Promise<Company> {
    if (!shortName) throw new Invalid('Select a tenant first.');
    const company = await this.#deps.companies.findByShortName(shortName);
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return company;
  }
}
