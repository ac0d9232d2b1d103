import type { Readable } from 'node:stream';
import type { SchemaDb } from '../db/database.ts';
import { Invalid } from '../errors.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { exportTables, inSnapshot, TableImporter, type ExportRewrites } from './table-portability.ts';
import type { TarEntry } from './tar-archive.ts';

/**
 * Moving a firm (DESIGN §8 "portability"): each service writes and restores its own data
 * through these hooks, and no service reads another's tables. A service's part of a firm
 * archive is a set of named entries; the firm archive prefixes them with the service name.
 */
export interface ExportContext {
  service: string;
  /** The firm's schema. */
  db: SchemaDb;
  storage: ObjectStore;
  /** The service's tables in this schema, parents first. */
  tables: readonly string[];
  /** Names of the service's tenant migration sets (its own and its kit read models'). */
  migrationSets: readonly string[];
  /** Adds an entry of exactly `size` bytes to the service's part. */
  write(name: string, size: number, body: Readable | Buffer): Promise<void>;
}

export interface ImportContext {
  service: string;
  /** The new firm's schema, migrated to the archive's versions. */
  db: SchemaDb;
  storage: ObjectStore;
  tables: readonly string[];
  /** The schema the firm had where it was exported (keys that embed it are rewritten). */
  sourceSchema: string;
  /** The service's entries in archive order; each body is read to the end or not at all. */
  entries: AsyncIterable<TarEntry>;
}

export interface DiscardContext {
  service: string;
  db: SchemaDb;
  storage: ObjectStore;
}

/**
 * A readable copy of a service's part of a firm (issue 44): what a person opens without
 * Ledgerline (CSV tables, documents in folders), beside the archive made for re-import. Each
 * service writes its own entries (names are the copy's paths, e.g. `clients.csv`); the copy is
 * never imported.
 */
export interface ReadableContext {
  service: string;
  db: SchemaDb;
  storage: ObjectStore;
  /** The firm's short name (stored files are opened by it) and its time zone (dates are its calendar days). */
  shortName: string;
  timeZone: string;
  /** Whether whole tax IDs may be written (the caller's role may reveal them); else only their last four. */
  revealTaxIds: boolean;
  /** Adds an entry of exactly `size` bytes to the copy. */
  write(name: string, size: number, body: Readable | Buffer): Promise<void>;
}

export interface ServicePortability {
  export(ctx: ExportContext): Promise<void>;
  /** Restores the part into an empty schema; the schema is dropped if any service fails. */
  import(ctx: ImportContext): Promise<void>;
  /** Removes what an import put outside the schema (objects, platform rows) when the firm import fails. */
  discard?(ctx: DiscardContext): Promise<void>;
  /** The service's part of the readable copy; without it the service adds nothing. */
  readable?(ctx: ReadableContext): Promise<void>;
  /**
   * After every part is in: the ids of what the service owns and others name (`clients`,
   * `reportTypes`, `users`), so the firm import can refuse rows that name one the archive
   * does not contain (a later firm's record would take its id, and the access with it).
   */
  ids?(db: SchemaDb): Promise<OwnedIds>;
}

export type OwnedIds = Partial<Record<'clients' | 'reportTypes' | 'users', number[]>>;

/** Every owned table's rows as of one instant, its sequences and the schema's migration ids; some rows rewritten on the way. */
export const exportOwnTables = (ctx: ExportContext, rewrites?: ExportRewrites): Promise<void> =>
  inSnapshot(ctx.db, (snapshot) => exportTables(snapshot, ctx.migrationSets, ctx.tables, (name, body) => ctx.write(name, body.length, body), rewrites));

/** The default: the owned tables exported as they are, and restored row for row. */
export const tablePortability: ServicePortability = {
  export: (ctx) => exportOwnTables(ctx),
  async import(ctx) {
    const tables = new TableImporter(ctx.db, ctx.tables);
    for await (const entry of ctx.entries) {
      if (!(await tables.accept(entry))) throw new UnknownEntry(ctx.service, entry.name);
    }
  },
};

export class UnknownEntry extends Invalid {
  constructor(service: string, name: string) {
    super(`The archive holds an entry the ${service} service does not know: ${name}.`);
  }
}
