import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import {
  CLIENT_DELETED, CLIENT_UPSERTED, clientInputSchema,
  type Client, type ClientDeletedEvent, type ClientEvent,
} from '@ledgerline/contracts/directory.contracts.ts';
import type { ClientFieldSettingsStore } from '../field-settings/client-field-settings.store.ts';
import type { TenantHandle } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ClientStore } from './client.store.ts';

export const clientUpserted = (tenant: string, c: Client) => newEvent<ClientEvent>(CLIENT_UPSERTED, tenant, {
  id: c.id, name: c.name, uploadDestination: c.uploadDestination, googleDriveConfigured: c.googleDriveConfigured,
  jurisdiction: c.jurisdiction, entityType: c.entityType,
});

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
    const input = parseInput(clientInputSchema(settings), body);
    const record = { ...input, jurisdiction: input.jurisdiction ?? settings?.phoneCountry ?? 'US', entityType: input.entityType ?? null };
    return this.#withEvent(t, async (tx) => this.#clients.create(tx, record));
  }

  /** A jurisdiction or entity type left out stays as it was. */
  async update(t: TenantHandle, id: number, body: unknown): Promise<Client> {
    const input = parseInput(clientInputSchema(await this.#settings.find(t.db)), body);
    return this.#withEvent(t, async (tx) => {
      const before = await this.#clients.get(tx, id);
      const record = { ...input, jurisdiction: input.jurisdiction ?? before.jurisdiction, entityType: input.entityType === undefined ? before.entityType : input.entityType };
      return this.#clients.update(tx, id, record);
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

  #withEvent(t: TenantHandle, write: (tx: Queryable) => Promise<Client>): Promise<Client> {
    return t.db.transaction(async (tx) => {
      const client = await write(tx);
      await enqueueEvents(tx, [clientUpserted(t.shortName, client)]);
      return client;
    });
  }
}
