import type { Database } from '@ledgerline/kit/db/database.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { Conflict, NotFound } from '@ledgerline/kit/errors.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import { TENANT_DELETED, TENANT_UPSERTED, type TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import type { Company, CompanyInput } from '@ledgerline/contracts/identity.contracts.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import { DEFAULT_ROLES } from '../roles/role.store.ts';
import { SCHEMA_NAME_TAKEN, SHORT_NAME_TAKEN, TENANT_NOT_FOUND, type CompanyStore } from './company.store.ts';
import { migrateTenantEverywhere } from './tenant-schema-fanout.ts';

/** What other services know of a firm: its events and identity's internal listing. */
export const tenantEventPayload = (c: Company): TenantEventPayload => ({
  id: c.id, name: c.name, shortName: c.shortName, schemaName: c.schemaName, isActive: c.isActive,
  urlPattern: c.urlPattern, customDomain: c.customDomain, customSubdomain: c.customSubdomain, timeZone: c.timeZone, country: c.country,
});

/** Creating, changing and removing firms, with their schemas, realms and events. */
export class TenantService {
  readonly #db: Database;
  readonly #companies: CompanyStore;
  readonly #provider: IdentityProvider;
  readonly #peers: () => ServicePeer[];

  constructor(deps: { db: Database; companies: CompanyStore; provider: IdentityProvider; peers: () => ServicePeer[] }) {
    this.#db = deps.db;
    this.#companies = deps.companies;
    this.#provider = deps.provider;
    this.#peers = deps.peers;
  }

  /** Schema first (every service migrated), then the realm, then the record and its event. */
  async create(input: CompanyInput, bearerToken: string): Promise<Company> {
    const schemaName = tenantSchema(input.schemaName || input.shortName);
    // Checked before any schema work; the unique constraints still decide under a race.
    if (await this.#companies.findByShortName(input.shortName)) throw new Conflict(SHORT_NAME_TAKEN);
    if (await this.#companies.findBySchema(schemaName)) throw new Conflict(SCHEMA_NAME_TAKEN);
    await migrateTenantEverywhere(this.#db, this.#peers(), schemaName, bearerToken);
    return this.register({ ...input, schemaName });
  }

  /** The last step of creating a firm, once its schema holds every service's tables: realm, record, event. */
  async register(input: CompanyInput & { schemaName: string }): Promise<Company> {
    const { schemaName } = input;
    await this.#provider.provisionTenant(input.shortName, await this.#roleNames(schemaName));
    return this.#db.transaction(async (tx) => {
      const company = await this.#companies.insert(tx, { ...input, schemaName });
      await enqueueEvents(tx, [newEvent(TENANT_UPSERTED, company.shortName, tenantEventPayload(company))]);
      return company;
    });
  }

  async update(id: number, input: CompanyInput): Promise<Company> {
    const before = await this.#companies.get(id);
    const company = await this.#db.transaction(async (tx) => {
      const updated = await this.#companies.update(tx, id, input);
      await enqueueEvents(tx, [newEvent(TENANT_UPSERTED, updated.shortName, tenantEventPayload(updated))]);
      return updated;
    });
    if (before.shortName !== company.shortName) {
      // Realms are named by short name: the old one retires, the new one is provisioned.
      await this.#provider.retireTenant(before.shortName);
    }
    if (company.isActive) await this.#provider.provisionTenant(company.shortName, await this.#roleNames(company.schemaName));
    else await this.#provider.retireTenant(company.shortName);
    return company;
  }

  /** A firm Admin's choice of their firm's time zone (null: the platform's default), announced like any change. */
  async setTimeZone(shortName: string, timeZone: string | null): Promise<Company> {
    const firm = await this.#companies.findByShortName(shortName);
    if (!firm?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return this.#db.transaction(async (tx) => {
      const updated = await this.#companies.setTimeZone(tx, firm.id, timeZone);
      await enqueueEvents(tx, [newEvent(TENANT_UPSERTED, updated.shortName, tenantEventPayload(updated))]);
      return updated;
    });
  }

  /** Removes the company record; the tenant schema and its data stay (spec text). */
  async delete(id: number): Promise<Company> {
    const company = await this.#db.transaction(async (tx) => {
      const removed = await this.#companies.delete(tx, id);
      await enqueueEvents(tx, [newEvent(TENANT_DELETED, removed.shortName, tenantEventPayload(removed))]);
      return removed;
    });
    await this.#provider.retireTenant(company.shortName);
    return company;
  }

  async refreshSchema(id: number, bearerToken: string): Promise<string[]> {
    const company = await this.#companies.get(id);
    const actions = await migrateTenantEverywhere(this.#db, this.#peers(), company.schemaName, bearerToken);
    if (company.isActive) await this.#provider.provisionTenant(company.shortName, await this.#roleNames(company.schemaName));
    return actions;
  }

  async #roleNames(schemaName: string): Promise<string[]> {
    const { rows } = await this.#db.forSchema(schemaName).query<{ name: string }>('SELECT name FROM roles ORDER BY id').catch(() => ({ rows: [] as { name: string }[] }));
    return rows.length ? rows.map((r) => r.name) : [...DEFAULT_ROLES];
  }
}
