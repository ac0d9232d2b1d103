import type { Database, Queryable } from '@ledgerline/kit/db/database.ts';
import { isUniqueViolation } from '@ledgerline/kit/db/sql-errors.ts';
import { Conflict, NotFound } from '@ledgerline/kit/errors.ts';
import type { Company, CompanyInput } from '@ledgerline/contracts/identity.contracts.ts';
import { firmCurrency, type FirmCountry } from '@ledgerline/contracts/firm-country.ts';

interface CompanyRow {
  id: number;
  name: string;
  short_name: string;
  schema_name: string;
  custom_domain: string | null;
  custom_subdomain: string | null;
  url_pattern: Company['urlPattern'];
  is_active: boolean;
  time_zone: string | null;
  country: FirmCountry | null;
  created_at: Date | string;
}

const COLUMNS = 'id, name, short_name, schema_name, custom_domain, custom_subdomain, url_pattern, is_active, time_zone, country, created_at';

const toCompany = (r: CompanyRow, defaultTimeZone: string): Company => ({
  id: r.id,
  name: r.name,
  shortName: r.short_name,
  schemaName: r.schema_name,
  customDomain: r.custom_domain,
  customSubdomain: r.custom_subdomain,
  urlPattern: r.url_pattern,
  isActive: r.is_active,
  timeZone: r.time_zone ?? defaultTimeZone,
  timeZoneIsDefault: r.time_zone === null,
  country: r.country,
  currency: firmCurrency(r.country),
  createdAt: new Date(r.created_at).toISOString(),
});

export const TENANT_NOT_FOUND = 'Tenant not found';
export const SHORT_NAME_TAKEN = 'A tenant with this short name already exists';
export const SCHEMA_NAME_TAKEN = 'A tenant with this schema name already exists';

/** Firms (tenants) in the platform schema. */
export class CompanyStore {
  readonly #db: Database;
  readonly #defaultTimeZone: string;
  #current: { version: string; list: Company[] } | null = null;

  constructor(db: Database, defaultTimeZone: string) {
    this.#db = db;
    this.#defaultTimeZone = defaultTimeZone;
  }

  readonly #toCompany = (r: CompanyRow): Company => toCompany(r, this.#defaultTimeZone);

  /** The firm list's version: bumped by every change to companies in the changing transaction. */
  async listVersion(): Promise<string> {
    const { rows } = await this.#db.query<{ version: string }>('SELECT version::text AS version FROM portal.tenant_list_version');
    return rows[0]!.version;
  }

  /**
   * The firm list and its version, read whole only when the version moved since the last
   * call (a one-row read otherwise): for the pollers and identity's scheduler, which ask every
   * few seconds whatever the number of firms. The version is read first, so the list is at
   * least that new; a change in between only makes the next call read the list again.
   */
  async current(): Promise<{ version: string; list: Company[] }> {
    const version = await this.listVersion();
    if (this.#current?.version !== version) this.#current = { version, list: await this.list() };
    return this.#current;
  }

  async list(): Promise<Company[]> {
    const { rows } = await this.#db.query<CompanyRow>(`SELECT ${COLUMNS} FROM portal.companies ORDER BY created_at DESC, id DESC`);
    return rows.map(this.#toCompany);
  }

  async get(id: number, q: Queryable = this.#db): Promise<Company> {
    const { rows } = await q.query<CompanyRow>(`SELECT ${COLUMNS} FROM portal.companies WHERE id = $1`, [id]);
    if (!rows[0]) throw new NotFound(TENANT_NOT_FOUND);
    return this.#toCompany(rows[0]);
  }

  async findByShortName(shortName: string): Promise<Company | null> {
    const { rows } = await this.#db.query<CompanyRow>(`SELECT ${COLUMNS} FROM portal.companies WHERE short_name = $1`, [shortName]);
    return rows[0] ? this.#toCompany(rows[0]) : null;
  }

  async findBySchema(schemaName: string): Promise<Company | null> {
    const { rows } = await this.#db.query<CompanyRow>(`SELECT ${COLUMNS} FROM portal.companies WHERE schema_name = $1`, [schemaName]);
    return rows[0] ? this.#toCompany(rows[0]) : null;
  }

  async insert(tx: Queryable, input: CompanyInput & { schemaName: string }): Promise<Company> {
    const { rows } = await uniqueAsConflict(tx.query<CompanyRow>(
      `INSERT INTO portal.companies (name, short_name, schema_name, custom_domain, custom_subdomain, url_pattern, is_active, time_zone, country)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [input.name, input.shortName, input.schemaName, input.customDomain, input.customSubdomain, input.urlPattern, input.isActive, input.timeZone ?? null, input.country ?? null],
    ));
    return this.#toCompany(rows[0]!);
  }

  /**
   * The schema name never changes after creation (spec: editing the short name keeps it);
   * a form without a time zone or country (the spec's tenant form) keeps the firm's.
   */
  async update(tx: Queryable, id: number, input: CompanyInput): Promise<Company> {
    const { rows } = await uniqueAsConflict(tx.query<CompanyRow>(
      `UPDATE portal.companies SET name = $2, short_name = $3, custom_domain = $4, custom_subdomain = $5, url_pattern = $6, is_active = $7,
         time_zone = CASE WHEN $8 THEN $9 ELSE time_zone END,
         country = CASE WHEN $10 THEN $11 ELSE country END
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, input.name, input.shortName, input.customDomain, input.customSubdomain, input.urlPattern, input.isActive,
        input.timeZone !== undefined, input.timeZone ?? null, input.country !== undefined, input.country ?? null],
    ));
    if (!rows[0]) throw new NotFound(TENANT_NOT_FOUND);
    return this.#toCompany(rows[0]);
  }

  /** A firm's own time zone (null: the platform's default). */
  async setTimeZone(tx: Queryable, id: number, timeZone: string | null): Promise<Company> {
    const { rows } = await tx.query<CompanyRow>(`UPDATE portal.companies SET time_zone = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, timeZone]);
    if (!rows[0]) throw new NotFound(TENANT_NOT_FOUND);
    return this.#toCompany(rows[0]);
  }

  async delete(tx: Queryable, id: number): Promise<Company> {
    const { rows } = await tx.query<CompanyRow>(`DELETE FROM portal.companies WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
    if (!rows[0]) throw new NotFound(TENANT_NOT_FOUND);
    return this.#toCompany(rows[0]);
  }
}

async function uniqueAsConflict<T>(query: Promise<T>): Promise<T> {
  try {
    return await query;
  } catch (err) {
    if (isUniqueViolation(err, 'companies_short_name_key')) throw new Conflict(SHORT_NAME_TAKEN);
    if (isUniqueViolation(err, 'companies_schema_name_key')) throw new Conflict(SCHEMA_NAME_TAKEN);
    throw err;
  }
}
