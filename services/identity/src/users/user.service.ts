import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { ROLES } from '@ledgerline/kit/auth/roles.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { INVITATION_NO_ADDRESS, REPORT_ACCESS_GRANT_DENIED, type ReportAccessGrant, type User, type UserInput, type UserUpdate } from '@ledgerline/contracts/identity.contracts.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { EmailKind, EmailPreferences } from '@ledgerline/contracts/notifications.contracts.ts';
import type { InvitationService } from './invitation.service.ts';
import type { UserStore } from './user.store.ts';
import { mailAddressOf } from '@ledgerline/kit/mail/mail-address.ts';

export const USER_UPSERTED = 'user.upserted';
/**
 * Many users at once (an import's chunk of contacts): `{ users }`, each as `user.upserted`
 * carries it, so every service's read model takes them in with one write.
 */
export const USERS_UPSERTED = 'users.upserted';
export const USER_DELETED = 'user.deleted';

/** `emailOptOuts` only when they changed: the read models keep what they have when it is absent. */
const userPayload = (user: User, emailOptOuts?: readonly EmailKind[]) => ({
  id: user.id, username: user.username, fullName: user.fullName, roleId: user.roleId, role: user.roleName,
  clientIds: user.clientIds, reportTypeIds: user.reportTypeIds, email: user.email, ...(emailOptOuts ? { emailOptOuts: [...emailOptOuts] } : {}),
});
export const userEvent = (tenant: string, user: User, emailOptOuts?: readonly EmailKind[]) => newEvent(USER_UPSERTED, tenant, userPayload(user, emailOptOuts));
/** Many written users in one event (their opt-outs unchanged); none when there are none. */
export const usersEvent = (tenant: string, users: readonly User[]) =>
  (users.length ? [newEvent(USERS_UPSERTED, tenant, { users: users.map((u) => userPayload(u)) })] : []);

/**
 * User changes: the row, access lists and event commit together; the provider
 * (credentials, realm user) follows the commit, and a failed provider call undoes a
 * creation so no user exists that cannot sign in.
 */
export class UserService {
  readonly #users: UserStore;
  readonly #provider: IdentityProvider;
  readonly #secondFactorRequired: (db: Queryable, role: string) => Promise<boolean>;
  readonly #invitations: InvitationService;

  /** `secondFactorRequired`: whether the firm's policy asks users of a role for a second factor (a Keycloak realm enforces it per user). */
  constructor(users: UserStore, provider: IdentityProvider, secondFactorRequired: (db: Queryable, role: string) => Promise<boolean>, invitations: InvitationService) {
    this.#users = users;
    this.#provider = provider;
    this.#secondFactorRequired = secondFactorRequired;
    this.#invitations = invitations;
  }

  /**
   * A user with a password can sign in at once; one without waits for an invitation, sent
   * here with `invite: true` once the provider has the user (also the client import's way,
   * through the internal path of users.router.ts). A user to invite needs an address.
   */
  async create(t: TenantRequest, input: UserInput): Promise<User> {
    if (input.invite && !mailAddressOf(input)) throw new Invalid(INVITATION_NO_ADDRESS);
    const user = await t.db.transaction(async (tx) => {
      const created = await this.#users.create(tx, t.company.schemaName, input, input.password !== undefined);
      await enqueueEvents(tx, [userEvent(t.company.shortName, created)]);
      return created;
    });
    try {
      await this.#provider.upsertUser(t.company.shortName, {
        id: user.id, username: user.username, fullName: user.fullName, role: user.roleName, password: input.password, secondFactorRequired: await this.#secondFactorRequired(t.db, user.roleName),
      });
    } catch (err) {
      await this.#deleteRow(t, user.id);
      throw err;
    }
    if (!input.invite || input.password !== undefined) return user;
    await this.#invitations.send(t, user.id);
    return this.#users.get(t.db, user.id);
  }

  async update(t: TenantRequest, id: number, input: UserUpdate): Promise<User> {
    const { after } = await t.db.transaction(async (tx) => {
      const changed = await this.#users.update(tx, t.company.schemaName, id, input);
      await enqueueEvents(tx, [userEvent(t.company.shortName, changed.after)]);
      return changed;
    });
    // Providers key users by the portal id, so a renamed user keeps its credentials.
    await this.#provider.upsertUser(t.company.shortName, {
      id: after.id, username: after.username, fullName: after.fullName, role: after.roleName, password: input.password, secondFactorRequired: await this.#secondFactorRequired(t.db, after.roleName),
    });
    if (input.password === undefined) return after;
    // A password set by the Admin makes the user active; a pending invitation would only overwrite it.
    await t.db.transaction(async (tx) => {
      await this.#users.activate(tx, id);
      await this.#invitations.revokeLink(tx, id);
    });
    return this.#users.get(t.db, id);
  }

  /** Adds report types to a CPA's or custom-role user's list (Admin, DTA and Client users have no such list to extend). */
  async grantReportTypes(t: TenantRequest, id: number, reportTypeIds: readonly number[]): Promise<ReportAccessGrant> {
    return t.db.transaction(async (tx) => {
      const user = await this.#users.get(tx, id);
      const role = user.roleName.toLowerCase();
      if ([ROLES.admin, ROLES.dta, ROLES.client].some((r) => r.toLowerCase() === role)) throw new Invalid(REPORT_ACCESS_GRANT_DENIED);
      const { added, after } = await this.#users.grantReportTypes(tx, id, reportTypeIds);
      if (added.length) await enqueueEvents(tx, [userEvent(t.company.shortName, after)]);
      return { userId: id, reportTypeIds: added };
    });
  }

  /** The kinds of e-mail the user turned off; the services that send them learn it from the user event. */
  emailPreferences(t: TenantRequest, id: number): Promise<EmailPreferences> {
    return this.#users.emailOptOuts(t.db, id).then((off) => ({ off }));
  }

  async setEmailPreferences(t: TenantRequest, id: number, off: readonly EmailKind[]): Promise<EmailPreferences> {
    return t.db.transaction(async (tx) => {
      await this.#users.setEmailOptOuts(tx, id, off);
      await enqueueEvents(tx, [userEvent(t.company.shortName, await this.#users.get(tx, id), off)]);
      return { off: await this.#users.emailOptOuts(tx, id) };
    });
  }

  async delete(t: TenantRequest, id: number): Promise<User> {
    const user = await this.#deleteRow(t, id);
    await this.#provider.deleteUser(t.company.shortName, user.username);
    return user;
  }

  #deleteRow(t: TenantRequest, id: number): Promise<User> {
    return t.db.transaction(async (tx: Queryable) => {
      const user = await this.#users.delete(tx, t.company.schemaName, id);
      await enqueueEvents(tx, [newEvent(USER_DELETED, t.company.shortName, { id: user.id, username: user.username })]);
      return user;
    });
  }
}
