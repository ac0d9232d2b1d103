import type { TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { NotFound, Unauthenticated } from '@ledgerline/kit/errors.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';
import type { LoginThrottle } from './login-throttle.ts';
import type { PlatformAdminStore } from './platform-admin.store.ts';

export const INVALID_CREDENTIALS = 'Invalid username or password';
export const INVALID_ADMIN_CREDENTIALS = 'Invalid admin credentials';

type LoginResult = LoginResponse;

const tenantSummary = (c: Company) => ({ id: c.id, name: c.name, shortName: c.shortName, isActive: c.isActive });

/** The three login forms of the spec: tenant, generic (/login) and platform administrator. */
export class LoginService {
  readonly #db: Database;
  readonly #companies: CompanyStore;
  readonly #users: UserStore;
  readonly #admins: PlatformAdminStore;
  readonly #provider: IdentityProvider;
  readonly #issuer: TokenIssuer;
  readonly #throttle: LoginThrottle;

  constructor(deps: { db: Database; companies: CompanyStore; users: UserStore; admins: PlatformAdminStore; provider: IdentityProvider; issuer: TokenIssuer; throttle: LoginThrottle }) {
    this.#db = deps.db;
    this.#companies = deps.companies;
    this.#users = deps.users;
    this.#admins = deps.admins;
    this.#provider = deps.provider;
    this.#issuer = deps.issuer;
    this.#throttle = deps.throttle;
  }

  async tenantLogin(shortName: string, username: string, password: string, ip: string): Promise<LoginResult> {
    const company = await this.#companies.findByShortName(shortName);
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return this.#throttledOrFail(`${shortName}:${username}`, ip, INVALID_CREDENTIALS, async () => {
      const token = await this.#provider.login(shortName, username, password);
      if (!token) return null;
      const db = this.#db.forSchema(company.schemaName);
      const found = await this.#users.findByUsername(db, username);
      if (!found) return null;
      await this.#users.recordLogin(db, found.id);
      const { createdAt: _createdAt, ...user } = found;
      return { token, user: { ...user, tenant: shortName, platformAdmin: false }, tenant: tenantSummary(company) };
    });
  }

  /** /login: platform administrators first, then the firm the username belongs to. */
  async genericLogin(username: string, password: string, ip: string): Promise<LoginResult> {
    const admin = await this.#throttled(`platform:${username}`, ip, null, () => this.#adminLogin(username, password));
    if (admin) return admin;
    const { rows } = await this.#db.query<{ schema_name: string }>('SELECT schema_name FROM portal.user_logins WHERE username = $1', [username]);
    const company = rows[0] ? await this.#companies.findBySchema(rows[0].schema_name) : null;
    if (!company?.isActive) {
      this.#throttle.recordFailure(`platform:${username}`, ip);
      throw new Unauthenticated(INVALID_CREDENTIALS);
    }
    return this.tenantLogin(company.shortName, username, password, ip);
  }

  async adminLogin(username: string, password: string, ip: string): Promise<LoginResult> {
    return this.#throttledOrFail(`platform:${username}`, ip, INVALID_ADMIN_CREDENTIALS, () => this.#adminLogin(username, password));
  }

  async #adminLogin(username: string, password: string): Promise<LoginResult | null> {
    const admin = await this.#admins.verifyLogin(username, password);
    if (!admin) return null;
    const claims = { sub: String(admin.id), username: admin.username, fullName: admin.fullName, role: 'Admin', tenant: null, platformAdmin: true };
    return {
      token: await this.#issuer.sign(claims),
      user: { id: admin.id, username: admin.username, fullName: admin.fullName, role: 'Admin', roleName: 'Admin', roleId: 0, clientIds: null, reportTypeIds: null, tenant: null, platformAdmin: true },
      tenant: null,
    };
  }

  async #throttledOrFail(userKey: string, ip: string, failure: string, attempt: () => Promise<LoginResult | null>): Promise<LoginResult> {
    return (await this.#throttled(userKey, ip, failure, attempt))!;
  }

  /**
   * Runs an attempt under the throttle. With a failure message, a failed attempt throws
   * 401 with it; with null it returns null so the caller may try another way (and the
   * caller records the final failure).
   */
  async #throttled(userKey: string, ip: string, failure: string | null, attempt: () => Promise<LoginResult | null>): Promise<LoginResult | null> {
    this.#throttle.assertAllowed(userKey, ip);
    const result = await attempt();
    if (result) {
      this.#throttle.recordSuccess(userKey);
      return result;
    }
    if (failure === null) return null;
    this.#throttle.recordFailure(userKey, ip);
    throw new Unauthenticated(failure);
  }
}
