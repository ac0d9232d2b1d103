import type { ClientJurisdiction, ClientRegistration, EntityType } from '@ledgerline/contracts/directory.contracts.ts';
import type { Bus, EventEnvelope, Subscription } from '../bus/bus.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';
import type { Logger } from '../logger.ts';
import { consumeTenantEvents } from '../outbox/tenant-consumer.ts';
import type { TenantRegistry } from '../tenancy/tenant-registry.ts';

/** What the directory publishes (services/contracts/src/directory.contracts.ts). */
export const CLIENT_UPSERTED = 'client.upserted';
/** Many clients at once (an import's chunk): `{ clients }`, each as `client.upserted` would carry it. */
export const CLIENTS_UPSERTED = 'clients.upserted';
export const CLIENT_DELETED = 'client.deleted';
export const REPORT_TYPE_UPSERTED = 'report-type.upserted';
export const REPORT_TYPE_DELETED = 'report-type.deleted';

/** A client as the directory last announced it. */
export interface DirectoryClient {
  id: number;
  name: string;
  uploadDestination: 'server' | 'google_drive';
  googleDriveConfigured: boolean;
  /** null: announced before clients had one (the lookup asks the directory again). */
  jurisdiction: ClientJurisdiction | null;
  entityType: EntityType | null;
  /**
   * What the statutory calendars read (issue 39): "MM-DD" (undefined or null: announced before
   * clients had one, and the lookup asks again), the State, the registrations (null: not said).
   */
  fiscalYearEnd?: string | null;
  state?: string | null;
  registrations?: ClientRegistration[] | null;
}

/** One client's write: what it is, whether it is a tombstone, and the change time it carries. */
interface ClientEntry {
  client: DirectoryClient;
  deleted: boolean;
  version: string;
}

/** A client as an event announced it; fields an older event lacks are null (not said). */
const announced = (p: DirectoryClient): DirectoryClient => ({
  id: p.id, name: p.name, uploadDestination: p.uploadDestination, googleDriveConfigured: p.googleDriveConfigured,
  jurisdiction: p.jurisdiction ?? null, entityType: p.entityType ?? null,
  fiscalYearEnd: p.fiscalYearEnd ?? null, state: p.state ?? null, registrations: p.registrations ?? null,
});

export interface DirectoryReportType {
  id: number;
  name: string;
}

export interface DirectoryReadModel {
  /** Tenant-scoped tables `<service>_clients` and `<service>_report_types`: include in the service's migrations. */
  migrations: ServiceMigrations;
  /** Table names, for joins (names beside files, tasks…); rows with `deleted` set are tombstones. */
  tables: { clients: string; reportTypes: string };
  /** Consumes the directory's client and report-type events into each firm's schema until closed. */
  follow(deps: { db: Database; bus: Bus; logger: Logger; tenants: TenantRegistry }): Promise<Subscription>;
  client(db: Queryable, id: number): Promise<DirectoryClient | null>;
  reportType(db: Queryable, id: number): Promise<DirectoryReportType | null>;
  /**
   * Records what the directory answered when asked directly (an event not delivered yet,
   * or a service deployed after the record was made). `version` is the record's own
   * change time, so any event about a later change still wins.
   */
  rememberClient(db: Queryable, client: DirectoryClient, version: string): Promise<void>;
  rememberReportType(db: Queryable, reportType: DirectoryReportType, version: string): Promise<void>;
}

/**
 * DESIGN §2: services other than the directory never read its tables, so each keeps the
 * client and report-type names (and a client's upload destination) it shows in a small
 * local table fed by the directory's events. As with the user-access read model, every
 * event is applied once (inbox) and only if newer than the row (`occurredAt`); a deletion
 * leaves a tombstone so a late upsert cannot bring the record back.
 */
export function createDirectoryReadModel(service: string): DirectoryReadModel {
  if (!/^[a-z][a-z0-9_]*$/.test(service)) throw new Error(`Invalid service name for a table: ${service}`);
  const tables = { clients: `${service}_clients`, reportTypes: `${service}_report_types` };
  const consumer = `${service}.directory`;

  /**
   * Writes clients in one statement, each only where it is newer than the row (`version`), so
   * a batch obeys the same rules as its events applied one by one. One statement cannot change
   * a row twice: of one client's entries, the newest (the last of equals) stands for them all,
   * which is what applying them in turn would have left.
   */
  const upsertClients = async (tx: Queryable, entries: readonly ClientEntry[]) => {
    const newest = new Map<number, ClientEntry>();
    for (const e of entries) {
      const seen = newest.get(e.client.id);
      if (!seen || Date.parse(seen.version) <= Date.parse(e.version)) newest.set(e.client.id, e);
    }
    if (!newest.size) return;
    const rows = [...newest.values()].map(({ client: c, deleted, version }) => ({
      id: c.id, name: c.name, upload_destination: c.uploadDestination, google_drive_configured: c.googleDriveConfigured,
      jurisdiction: c.jurisdiction, entity_type: c.entityType, deleted, version,
      fiscal_year_end: c.fiscalYearEnd ?? null, state: c.state ?? null, registrations: c.registrations ?? null,
    }));
    await tx.query(
      `INSERT INTO ${tables.clients} (id, name, upload_destination, google_drive_configured, jurisdiction, entity_type, deleted, version,
         fiscal_year_end, state, registrations)
       SELECT id, name, upload_destination, google_drive_configured, jurisdiction, entity_type, deleted, version, fiscal_year_end, state, registrations
       FROM jsonb_to_recordset($1::jsonb) AS x(id integer, name text, upload_destination text, google_drive_configured boolean, jurisdiction text,
         entity_type text, deleted boolean, version timestamptz, fiscal_year_end text, state text, registrations text[])
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, upload_destination = EXCLUDED.upload_destination,
         google_drive_configured = EXCLUDED.google_drive_configured, jurisdiction = EXCLUDED.jurisdiction, entity_type = EXCLUDED.entity_type,
         deleted = EXCLUDED.deleted, version = EXCLUDED.version, fiscal_year_end = EXCLUDED.fiscal_year_end, state = EXCLUDED.state,
         registrations = EXCLUDED.registrations
       WHERE ${tables.clients}.version <= EXCLUDED.version`,
      [JSON.stringify(rows)],
    );
  };
  const upsertReportType = (tx: Queryable, r: DirectoryReportType, deleted: boolean, version: string) => tx.query(
    `INSERT INTO ${tables.reportTypes} (id, name, deleted, version) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, deleted = EXCLUDED.deleted, version = EXCLUDED.version
     WHERE ${tables.reportTypes}.version <= EXCLUDED.version`,
    [r.id, r.name, deleted, version],
  );

  const apply = async (tx: Queryable, event: EventEnvelope): Promise<void> => {
    const at = event.occurredAt;
    switch (event.type) {
      case CLIENT_UPSERTED:
        await upsertClients(tx, [{ client: announced(event.payload as DirectoryClient), deleted: false, version: at }]);
        break;
      case CLIENTS_UPSERTED:
        // A whole chunk in one write: one inbox row and one statement instead of one per client.
        await upsertClients(tx, (event.payload as { clients: DirectoryClient[] }).clients.map((c) => ({ client: announced(c), deleted: false, version: at })));
        break;
      case CLIENT_DELETED: {
        const p = event.payload as { id: number; name: string };
        await upsertClients(tx, [{ client: { id: p.id, name: p.name, uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: null, entityType: null }, deleted: true, version: at }]);
        break;
      }
      case REPORT_TYPE_UPSERTED:
      case REPORT_TYPE_DELETED: {
        const p = event.payload as DirectoryReportType;
        await upsertReportType(tx, { id: p.id, name: p.name }, event.type === REPORT_TYPE_DELETED, at);
        break;
      }
    }
  };

  return {
    tables,
    migrations: {
      service: `${service}-directory`,
      scope: 'tenant',
      migrations: [{
        id: '001_directory_read_model',
        sql: `CREATE TABLE ${tables.clients} (
          id integer PRIMARY KEY,
          name text NOT NULL,
          upload_destination text NOT NULL DEFAULT 'server',
          google_drive_configured boolean NOT NULL DEFAULT false,
          deleted boolean NOT NULL DEFAULT false,
          version timestamptz NOT NULL
        );
        CREATE TABLE ${tables.reportTypes} (
          id integer PRIMARY KEY,
          name text NOT NULL,
          deleted boolean NOT NULL DEFAULT false,
          version timestamptz NOT NULL
        )`,
      }, {
        id: '002_client_jurisdiction_entity',
        sql: `ALTER TABLE ${tables.clients} ADD COLUMN jurisdiction text;
        ALTER TABLE ${tables.clients} ADD COLUMN entity_type text`,
      }, {
        id: '003_client_calendar_facts',
        sql: `ALTER TABLE ${tables.clients} ADD COLUMN fiscal_year_end text;
        ALTER TABLE ${tables.clients} ADD COLUMN state text;
        ALTER TABLE ${tables.clients} ADD COLUMN registrations text[]`,
      }],
    },

    follow(deps) {
      return consumeTenantEvents(deps, consumer, [CLIENT_UPSERTED, CLIENTS_UPSERTED, CLIENT_DELETED, REPORT_TYPE_UPSERTED, REPORT_TYPE_DELETED], (tx, event) => apply(tx, event));
    },

    async client(db, id) {
      const { rows } = await db.query<{
        id: number; name: string; upload_destination: DirectoryClient['uploadDestination']; google_drive_configured: boolean;
        jurisdiction: ClientJurisdiction | null; entity_type: EntityType | null;
        fiscal_year_end: string | null; state: string | null; registrations: ClientRegistration[] | null;
      }>(
        `SELECT id, name, upload_destination, google_drive_configured, jurisdiction, entity_type, fiscal_year_end, state, registrations FROM ${tables.clients} WHERE id = $1 AND NOT deleted`, [id],
      );
      const r = rows[0];
      return r ? {
        id: r.id, name: r.name, uploadDestination: r.upload_destination, googleDriveConfigured: r.google_drive_configured,
        jurisdiction: r.jurisdiction, entityType: r.entity_type,
        fiscalYearEnd: r.fiscal_year_end, state: r.state, registrations: r.registrations,
      } : null;
    },

    async reportType(db, id) {
      const { rows } = await db.query<DirectoryReportType>(`SELECT id, name FROM ${tables.reportTypes} WHERE id = $1 AND NOT deleted`, [id]);
      return rows[0] ?? null;
    },

    async rememberClient(db, client, version) {
      await upsertClients(db, [{ client, deleted: false, version }]);
    },

    async rememberReportType(db, reportType, version) {
      await upsertReportType(db, reportType, false, version);
    },
  };
}
