import type { Database, Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { hasRole, ROLES } from '@ledgerline/kit/auth/roles.ts';
import { queueMail } from '@ledgerline/kit/mail/mail-job.ts';
import { mailAddressOf } from '@ledgerline/kit/mail/mail-address.ts';
import { invitationMail } from '@ledgerline/kit/mail/mail-templates.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import {
  INVITATION_ALREADY_ACTIVE, INVITATION_INVALID, INVITATION_NO_ADDRESS, INVITATION_PASSWORD_REQUIRED, INVITATION_TTL_DAYS,
  type Company, type InvitationInfo, type InvitationSent, type User,
} from '@ledgerline/contracts/identity.contracts.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { InvitationStore } from './invitation.store.ts';
import type { UserStore } from './user.store.ts';

const isClientUser = (u: User) => hasRole({ sub: '', username: '', fullName: '', role: u.roleName, tenant: null, platformAdmin: false }, ROLES.client);

export interface InvitationDeps {
  db: Database;
  companies: CompanyStore;
  users: UserStore;
  invitations: InvitationStore;
  provider: IdentityProvider;
  jobs: JobQueue;
  publicBaseUrl: string;
  /** Whether this firm lets Client users sign in with an e-mailed code (its policy, and the built-in issuer). */
  clientEmailSignIn: (db: Queryable) => Promise<boolean>;
  secondFactorRequired: (db: Queryable, role: string) => Promise<boolean>;
}

/**
 * Invitations (issue 40): an Admin e-mails a user who cannot sign in yet a link to a page
 * where they choose a password (a Client user of a firm that allows it may sign in with an
 * e-mailed code instead). Sending again replaces the link; revoking ends it. The password
 * goes to the identity provider (the built-in issuer's table or the Keycloak realm).
 */
export class InvitationService {
  readonly #deps: InvitationDeps;

  constructor(deps: InvitationDeps) {
    this.#deps = deps;
  }

  /** Sends (or sends again, revoking the earlier link) the user's invitation. */
  async send(t: TenantRequest, userId: number): Promise<InvitationSent> {
    return t.db.transaction((tx) => this.sendIn(tx, t, userId));
  }

  /** As `send`, inside the caller's transaction (the client import sends many in one). */
  async sendIn(tx: Queryable, t: TenantRequest, userId: number): Promise<InvitationSent> {
    const { users, invitations, jobs } = this.#deps;
    const user = await users.get(tx, userId);
    if (user.status === 'active') throw new Conflict(INVITATION_ALREADY_ACTIVE);
    const to = mailAddressOf(user);
    if (!to) throw new Invalid(INVITATION_NO_ADDRESS);
    const issued = await invitations.issue(tx, user.id);
    await users.markInvited(tx, user.id, issued.createdAt);
    const link = `${this.#deps.publicBaseUrl.replace(/\/$/, '')}/${t.company.shortName}/invitation?token=${encodeURIComponent(issued.token)}`;
    const emailCodeSignIn = isClientUser(user) && !!user.email && await this.#deps.clientEmailSignIn(tx);
    await queueMail(jobs, tx, invitationMail({ to, firmName: t.company.name, fullName: user.fullName, username: user.username, link, days: INVITATION_TTL_DAYS, emailCodeSignIn }));
    return { userId: user.id, sentTo: to, invitedAt: issued.createdAt.toISOString(), expiresAt: issued.expiresAt.toISOString() };
  }

  async revoke(t: TenantRequest, userId: number): Promise<{ message: string }> {
    await t.db.transaction(async (tx) => {
      await this.#deps.users.get(tx, userId);
      if (!await this.#deps.invitations.revoke(tx, userId)) throw new NotFound('This user has no pending invitation.');
      await this.#deps.users.markInvited(tx, userId, null);
    });
    return { message: 'Invitation revoked.' };
  }

  /** Ends the user's live invitation link, in the caller's transaction (a password set otherwise). */
  async revokeLink(tx: Queryable, userId: number): Promise<void> {
    if (await this.#deps.invitations.revoke(tx, userId)) await this.#deps.users.markInvited(tx, userId, null);
  }

  /** What the invitation page shows; the token stays usable. */
  async info(shortName: string | null, token: string): Promise<InvitationInfo> {
    const company = await this.#company(shortName);
    const db = this.#deps.db.forSchema(company.schemaName);
    const invitation = await this.#deps.invitations.find(db, token);
    if (!invitation) throw new NotFound(INVITATION_INVALID);
    const user = await this.#deps.users.get(db, invitation.userId);
    return {
      firmName: company.name, fullName: user.fullName, username: user.username,
      emailCodeSignIn: isClientUser(user) && !!user.email && await this.#deps.clientEmailSignIn(db), expiresAt: invitation.expiresAt.toISOString(),
    };
  }

  /**
   * Uses the invitation: the password (required unless the user may sign in by e-mailed code)
   * goes to the provider and the user becomes active. The token is used up first, so two
   * presses never both pass; a provider that refuses gives it back.
   */
  async accept(shortName: string | null, token: string, password: string | undefined): Promise<{ message: string; username: string }> {
    const { users, invitations, provider } = this.#deps;
    const company = await this.#company(shortName);
    const db = this.#deps.db.forSchema(company.schemaName);
    const { invitation, user } = await db.transaction(async (tx) => {
      const found = await invitations.find(tx, token, true);
      if (!found) throw new NotFound(INVITATION_INVALID);
      const invited = await users.get(tx, found.userId);
      const codeOnly = isClientUser(invited) && !!invited.email && await this.#deps.clientEmailSignIn(tx);
      if (!password && !codeOnly) throw new Invalid(INVITATION_PASSWORD_REQUIRED);
      await invitations.markUsed(tx, found.id);
      return { invitation: found, user: invited };
    });
    if (password) {
      try {
        await provider.upsertUser(company.shortName, {
          id: user.id, username: user.username, fullName: user.fullName, role: user.roleName, password, secondFactorRequired: await this.#deps.secondFactorRequired(db, user.roleName),
        });
      } catch (err) {
        await invitations.unuse(db, invitation.id);
        throw err;
      }
    }
    await users.activate(db, user.id);
    return {
      username: user.username,
      message: password ? 'Your password is set. Sign in with your username and password.' : 'Your account is ready. Sign in with a code sent to your e-mail address.',
    };
  }

  async #company(shortName: string | null): Promise<Company> {
    if (!shortName) throw new Invalid('Select a tenant first.');
    const company = await this.#deps.companies.findByShortName(shortName);
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return company;
  }
}
