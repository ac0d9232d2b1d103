import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Invalid } from '@ledgerline/kit/errors.ts';
import { TAX_ID_RULES, taxIdJurisdictionProblem, type TaxId } from '@ledgerline/contracts/tax-ids.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import {
  CLIENT_DELETED, CLIENT_FIELD_MESSAGES, type ClientInput, CLIENT_TAX_IDS_REVEALED, type ClientTaxIdsRevealedEvent, CLIENT_UPSERTED, CLIENTS_UPSERTED, clientInputSchema, jurisdictionOfState,
  type Client, type ClientDeletedEvent, type ClientEvent, type ClientsUpsertedEvent,
} from '@ledgerline/contracts/directory.contracts.ts';
import type { ClientFieldSettingsStore } from '../field-settings/client-field-settings.store.ts';
import type { TenantHandle } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ClientRecord, ClientStore } from './client.store.ts';

const clientEvent = (c: Client): ClientEvent => ({
  id: c.id, name: c.name, uploadDestination: c.uploadDestination, googleDriveConfigured: c.googleDriveConfigured,
  jurisdiction: c.jurisdiction, entityType: c.entityType, fiscalYearEnd: c.fiscalYearEnd, state: c.state, registrations: c.registrations,
});
export const clientUpserted = (tenant: string, c: Client) => newEvent<ClientEvent>(CLIENT_UPSERTED, tenant, clientEvent(c));
/** Many written clients in one event (an import's chunk); none when there are none. */
export const clientsUpserted = (tenant: string, clients: readonly Client[]) =>
  (clients.length ? [newEvent<ClientsUpsertedEvent>(CLIENTS_UPSERTED, tenant, { clients: clients.map(clientEvent) })] : []);

/** A State must be in the client's jurisdiction, given or taken from the firm or the client as it was (400). */
function checkState(record: { jurisdiction: Client['jurisdiction']; state?: string | null }) {
  if (record.state && jurisdictionOfState(record.state) !== record.jurisdiction) throw new Invalid(`${CLIENT_FIELD_MESSAGES.stateCountry} (${record.jurisdiction})`);
}

export const taxIdTaken = (type: keyof typeof TAX_ID_RULES) => `Another client of the firm already has this ${TAX_ID_RULES[type].label}`;

/** Tax IDs must be of the client's jurisdiction (400). */
function checkTaxIds(record: ClientRecord) {
  const problem = record.taxIds ? taxIdJurisdictionProblem(record.taxIds, record.jurisdiction) : null;
  if (problem) throw new Invalid(problem);
}

/**
 * Client changes: validated with the firm's own field settings (the same rules and
 * messages the form shows), written with their event in one transaction.
 */
export class ClientService {
  readonly #clients: ClientStore;
  readonly #settings: ClientFieldSettingsStore;

  constructor(clients: ClientStore, settings: ClientFieldSettingsStore) {
    this.#clients = clients;
    this.#settings = settings;
  }

  /** Without a jurisdiction the client files in the firm's country (its phone country, else US). */
  async create(t: TenantHandle, body: unknown): Promise<Client> {
    const settings = await this.#settings.find(t.db);
    const record = this.recordToCreate(parseInput(clientInputSchema(settings), body), settings);
    return this.#withEvent(t, async (tx) => this.createIn(tx, record));
  }

  /** A jurisdiction, entity type, fiscal year end, State, registrations or tax IDs left out stay as they were. */
  async update(t: TenantHandle, id: number, body: unknown): Promise<Client> {
    const input = parseInput(clientInputSchema(await this.#settings.find(t.db)), body);
    return this.#withEvent(t, async (tx) => this.updateIn(tx, id, await this.recordToUpdate(tx, id, input)));
  }

  /** What a create stores for parsed input, or the 400 it answers (the import checks its rows with it too). */
  recordToCreate(input: ClientInput, settings: { phoneCountry: ClientRecord['jurisdiction'] } | null): ClientRecord {
    const record = {
      ...input, jurisdiction: input.jurisdiction ?? settings?.phoneCountry ?? 'US', entityType: input.entityType ?? null,
      fiscalYearEnd: input.fiscalYearEnd ?? null, state: input.state ?? null, registrations: input.registrations ?? null,
    };
    checkState(record);
    checkTaxIds(record);
    return record;
  }

  /** What an update of client `id` stores: fields left out as they were. */
  async recordToUpdate(db: Queryable, id: number, input: ClientInput): Promise<ClientRecord> {
    const before = await this.#clients.get(db, id);
    const record = {
      ...input, jurisdiction: input.jurisdiction ?? before.jurisdiction, entityType: input.entityType === undefined ? before.entityType : input.entityType,
      fiscalYearEnd: input.fiscalYearEnd === undefined ? await this.#clients.storedFiscalYearEnd(db, id) : input.fiscalYearEnd,
      state: input.state === undefined ? before.state : input.state,
      registrations: input.registrations === undefined ? before.registrations : input.registrations,
    };
    checkState(record);
    checkTaxIds(record);
    return record;
  }

  /** Inside the caller's transaction (which must also enqueue `clientUpserted`). */
  async createIn(tx: Queryable, record: ClientRecord): Promise<Client> {
    await this.assertTaxIdsFree(tx, record, null);
    return this.#clients.create(tx, record);
  }

  async updateIn(tx: Queryable, id: number, record: ClientRecord): Promise<Client> {
    await this.assertTaxIdsFree(tx, record, id);
    return this.#clients.update(tx, id, record);
  }

  /** The whole values; the reveal is announced in the same transaction, so identity's security log never misses one. */
  async revealTaxIds(t: TenantRequest, id: number): Promise<TaxId[]> {
    return t.db.transaction(async (tx) => {
      const client = await this.#clients.get(tx, id);
      const taxIds = await this.#clients.taxIds(tx, id);
      const userId = t.claims.platformAdmin ? null : Number(t.claims.sub);
      await enqueueEvents(tx, [newEvent<ClientTaxIdsRevealedEvent>(CLIENT_TAX_IDS_REVEALED, t.shortName, {
        clientId: id, clientName: client.name, userId, types: taxIds.map((x) => x.type),
      })]);
      return taxIds;
    });
  }

  /** Other services drop the client's files and work data, identity its access entries (client.deleted). */
  delete(t: TenantHandle, id: number): Promise<Client> {
    return t.db.transaction(async (tx) => {
      const removed = await this.#clients.delete(tx, id);
      await enqueueEvents(tx, [newEvent<ClientDeletedEvent>(CLIENT_DELETED, t.shortName, { id: removed.id, name: removed.name })]);
      return removed;
    });
  }

  /** A number belongs to one client of the firm (409). */
  async assertTaxIdsFree(tx: Queryable, record: ClientRecord, self: number | null): Promise<void> {
    const holder = await this.#clients.taxIdHolder(tx, record.taxIds ?? [], self);
    if (holder) throw new Conflict(taxIdTaken(holder.type));
  }

  #withEvent(t: TenantHandle, write: (tx: Queryable) => Promise<Client>): Promise<Client> {
    return t.db.transaction(async (tx) => {
      const client = await write(tx);
      await enqueueEvents(tx, [clientUpserted(t.shortName, client)]);
      return client;
    });
  }
}
