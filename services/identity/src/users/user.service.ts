import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { ROLES } from '@ledgerline/kit/auth/roles.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { REPORT_ACCESS_GRANT_DENIED, type ReportAccessGrant, type User, type UserInput, type UserUpdate } from '@ledgerline/contracts/identity.contracts.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import type { TenantRequest } from '../tenants/tenant-context.ts';
import type { UserStore } from './user.store.ts';

export const USER_UPSERTED = 'user.upserted';
export const USER_DELETED = 'user.deleted';

export const userEvent = (tenant: string, user: User) => newEvent(USER_UPSERTED, tenant, {
  id: user.id, username: user.username, fullName: user.fullName, roleId: user.roleId, role: user.roleName,
  clientIds: user.clientIds, reportTypeIds: user.reportTypeIds,
});

/**
 * User changes: the row, access lists and event commit together; the provider
 * (credentials, realm user) follows the commit, and a failed provider call undoes a
 * creation so no user exists that cannot sign in.
 */
export class UserService {
  readonly #users: UserStore;
  readonly #provider: IdentityProvider;
  readonly #secondFactorRequired: (db: Queryable, role: string) => Promise<boolean>;

  /** `secondFactorRequired`: whether the firm's policy asks users of a role for a second factor (a Keycloak realm enforces it per user). */
  constructor(users: UserStore, provider: IdentityProvider, secondFactorRequired: (db: Queryable, role: string) => Promise<boolean>) {
    this.#users = users;
    this.#provider = provider;
    this.#secondFactorRequired = secondFactorRequired;
  }

  async create(t: TenantRequest, input: UserInput): Promise<User> {
    const user = await t.db.transaction(async (tx) => {
      const created = await this.#users.create(tx, t.company.schemaName, input);
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
    return user;
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
    return after;
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
