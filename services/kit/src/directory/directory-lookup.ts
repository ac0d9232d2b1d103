import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { TaxId } from '@ledgerline/contracts/tax-ids.ts';
import { canReadClient, canReadReportType } from '../access/access-scope.ts';
import { NotFound, Unavailable } from '../errors.ts';
import { TENANT_HEADER } from '../service-module.ts';
import type { TenantRequest } from '../tenancy/tenant-requests.ts';
import type { DirectoryClient, DirectoryReadModel, DirectoryReportType } from './directory-read-model.ts';

/**
 * How long a caller without a token of its own (an upload the requests service forwards
 * under its signed assertion, possibly from a link with no account) waits for a record's
 * event to reach the local read model: it cannot ask the directory, which answers only
 * a firm user's token. The requests service has already checked the record exists.
 */
const TOKENLESS_WAIT_MS = 15_000;
const TOKENLESS_POLL_MS = 100;

/** What a record outside the caller's lists, or missing, answers (its existence is not revealed). */
export const DIRECTORY_NOT_FOUND = { client: 'Client not found', reportType: 'Report type not found' } as const;

/**
 * The client and report type a request names (an upload, a task), as the caller may see them. The local read
 * model answers first; a record it does not know yet (its event is still on the way, or
 * this service started after it was made) is asked of the directory with the caller's
 * own token, and remembered. Outside the caller's lists it answers as missing (404).
 */
export class DirectoryLookup {
  readonly #model: DirectoryReadModel;
  readonly #directoryUrl: () => string;

  constructor(model: DirectoryReadModel, directoryUrl: () => string) {
    this.#model = model;
    this.#directoryUrl = directoryUrl;
  }

  async client(t: TenantRequest, id: number): Promise<DirectoryClient> {
    if (!canReadClient(t.scope, id)) throw new NotFound(DIRECTORY_NOT_FOUND.client);
    if (!t.token) return this.#awaitEvent(() => this.#model.client(t.db, id), DIRECTORY_NOT_FOUND.client);
    const known = await this.#model.client(t.db, id);
    // A row from before clients had a jurisdiction (or a fiscal year end, issue 39) is refreshed from the directory.
    if (known?.jurisdiction && known.fiscalYearEnd) return known;
    const fetched = await this.#ask<Client>(t, `/api/clients/${id}`);
    if (!fetched) throw new NotFound(DIRECTORY_NOT_FOUND.client);
    const client: DirectoryClient = {
      id: fetched.id, name: fetched.name, uploadDestination: fetched.uploadDestination, googleDriveConfigured: fetched.googleDriveConfigured,
      jurisdiction: fetched.jurisdiction, entityType: fetched.entityType,
      fiscalYearEnd: fetched.fiscalYearEnd ?? null, state: fetched.state ?? null, registrations: fetched.registrations ?? null,
    };
    await this.#model.rememberClient(t.db, client, fetched.updatedAt);
    return client;
  }

  /**
   * The client's whole record as the directory answers the caller now (an address, its
   * state), for what must be copied as it is at that moment (an invoice's "billed to").
   */
  async clientRecord(t: TenantRequest, id: number): Promise<Client> {
    if (!canReadClient(t.scope, id) || !t.token) throw new NotFound(DIRECTORY_NOT_FOUND.client);
    const fetched = await this.#ask<Client>(t, `/api/clients/${id}`);
    if (!fetched) throw new NotFound(DIRECTORY_NOT_FOUND.client);
    return fetched;
  }

  /** The client's whole tax IDs (the directory lets only Admins, and records each reveal). */
  async clientTaxIds(t: TenantRequest, id: number): Promise<TaxId[]> {
    if (!canReadClient(t.scope, id) || !t.token) throw new NotFound(DIRECTORY_NOT_FOUND.client);
    return (await this.#ask<TaxId[]>(t, `/api/clients/${id}/tax-ids`)) ?? [];
  }

  async reportType(t: TenantRequest, id: number): Promise<DirectoryReportType> {
    if (!canReadReportType(t.scope, id)) throw new NotFound(DIRECTORY_NOT_FOUND.reportType);
    if (!t.token) return this.#awaitEvent(() => this.#model.reportType(t.db, id), DIRECTORY_NOT_FOUND.reportType);
    const known = await this.#model.reportType(t.db, id);
    if (known) return known;
    const fetched = (await this.#ask<ReportType[]>(t, '/api/report-types'))?.find((r) => r.id === id);
    if (!fetched) throw new NotFound(DIRECTORY_NOT_FOUND.reportType);
    await this.#model.rememberReportType(t.db, { id: fetched.id, name: fetched.name }, fetched.updatedAt);
    return { id: fetched.id, name: fetched.name };
  }

  async #awaitEvent<T>(read: () => Promise<T | null>, missing: string): Promise<T> {
    const until = Date.now() + TOKENLESS_WAIT_MS;
    for (;;) {
      const known = await read();
      if (known) return known;
      if (Date.now() >= until) throw new NotFound(missing);
      await new Promise((resolve) => setTimeout(resolve, TOKENLESS_POLL_MS));
    }
  }

  /** null for 404; the directory's own denial otherwise passes on as unavailability. */
  async #ask<T>(t: TenantRequest, path: string): Promise<T | null> {
    let r: Response;
    try {
      r = await fetch(`${this.#directoryUrl()}${path}`, {
        headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName },
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new Unavailable('The directory service is unavailable. Please try again.');
    }
    if (r.status === 404) return null;
    if (!r.ok) throw new Unavailable(`The directory service answered ${r.status}. Please try again.`);
    return (await r.json()) as T;
  }
}
