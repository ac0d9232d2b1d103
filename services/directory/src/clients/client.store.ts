import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { maskedTaxId, type TaxId, type TaxIdType } from '@ledgerline/contracts/tax-ids.ts';
import {
  defaultFiscalYearEnd, type Client, type ClientInput, type ClientJurisdiction, type ClientRegistration, type EntityType,
} from '@ledgerline/contracts/directory.contracts.ts';

/**
 * A client's fields as stored: jurisdiction and entity type resolved (ClientService fills the
 * defaults); fiscalYearEnd null is the jurisdiction's default (so a change of jurisdiction moves it).
 */
export type ClientRecord = Omit<ClientInput, 'jurisdiction' | 'entityType' | 'fiscalYearEnd' | 'state' | 'registrations'> & {
  jurisdiction: ClientJurisdiction; entityType: EntityType | null;
  fiscalYearEnd?: string | null; state?: string | null; registrations?: ClientRegistration[] | null;
  /** Compact and validated; absent: unchanged on update, none on create. */
  taxIds?: TaxId[] | undefined;
};

interface ClientRow {
  id: number;
  name: string;
  address: string;
  phone: string;
  federal_id: string;
  state_id: string;
  email: string;
  employee_count: number;
  start_date: string;
  upload_destination: Client['uploadDestination'];
  drive_ready: boolean;
  jurisdiction: ClientJurisdiction;
  entity_type: EntityType | null;
  fiscal_year_end: string | null;
  state: string | null;
  registrations: ClientRegistration[] | null;
  tax_ids: TaxId[] | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const SELECT = `SELECT c.id, c.name, c.address, c.phone, c.federal_id, c.state_id, c.email, c.employee_count, c.start_date,
  c.upload_destination, c.jurisdiction, c.entity_type, c.fiscal_year_end, c.state, c.registrations, c.created_at, c.updated_at,
  (SELECT json_agg(json_build_object('type', t.type, 'value', t.value) ORDER BY t.type) FROM client_tax_ids t WHERE t.client_id = c.id) AS tax_ids,
  coalesce(g.refresh_token_sealed IS NOT NULL AND g.folder_id IS NOT NULL, false) AS drive_ready
  FROM clients c LEFT JOIN client_google_drive g ON g.client_id = c.id`;

const toClient = (r: ClientRow): Client => ({
  id: r.id,
  name: r.name,
  address: r.address,
  phone: r.phone,
  phoneNumber: r.phone,
  federalId: r.federal_id,
  stateId: r.state_id,
  email: r.email,
  employeeCount: r.employee_count,
  startDate: r.start_date,
  uploadDestination: r.upload_destination,
  googleDriveConfigured: r.drive_ready,
  jurisdiction: r.jurisdiction,
  entityType: r.entity_type,
  fiscalYearEnd: r.fiscal_year_end ?? defaultFiscalYearEnd(r.jurisdiction),
  state: r.state,
  registrations: r.registrations,
  // Only the last four leave the service in lists and details; the whole value is revealed on its own call.
  taxIds: (r.tax_ids ?? []).map(maskedTaxId),
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

export const CLIENT_NOT_FOUND = 'Client not found';

/** LIKE pattern for a literal substring: the user's % and _ match themselves. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Shorter terms have no trigram to look up: they are matched by LIKE alone. */
const MIN_INDEXED_TERM = 3;

// Column order of every INSERT and UPDATE below.
const COLUMNS: readonly ((input: ClientRecord) => unknown)[] = [(i) => i.name, (i) => i.address, (i) => i.phone, (i) => i.federalId,
  (i) => i.stateId, (i) => i.email, (i) => i.employeeCount, (i) => i.startDate, (i) => i.uploadDestination, (i) => i.jurisdiction, (i) => i.entityType,
  (i) => i.fiscalYearEnd ?? null, (i) => i.state ?? null, (i) => i.registrations ?? null];
const values = (input: ClientRecord) => COLUMNS.map((pick) => pick(input));
/** What search matches of a client's tax IDs: the last four characters of each. */
const taxIdTails = (taxIds: readonly TaxId[]) => taxIds.map((t) => t.value.slice(-4)).join(' ');

/** The firm's client companies. */
export class ClientStore {
  /** Clients by name; `search` matches a substring of name, email, phone, IDs or address; `ids` limits to a scope. */
  async list(db: Queryable, filter: { search?: string; ids: 'all' | readonly number[] }): Promise<Client[]> {
    if (filter.ids !== 'all' && filter.ids.length === 0) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.search) {
      // Candidates from the trigram index (every trigram of the term), then the exact check.
      if (filter.search.length >= MIN_INDEXED_TERM) {
        params.push(filter.search);
        where.push(`client_search_grams(c.search_text) @> client_search_grams(lower($${params.length}))`);
      }
      params.push(containing(filter.search));
      where.push(`c.search_text LIKE lower($${params.length})`);
    }
    if (filter.ids !== 'all') {
      params.push(filter.ids);
      where.push(`c.id = ANY($${params.length}::int[])`);
    }
    const { rows } = await db.query<ClientRow>(`${SELECT}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY lower(c.name), c.id`, params);
    return rows.map(toClient);
  }

  async get(db: Queryable, id: number): Promise<Client> {
    const { rows } = await db.query<ClientRow>(`${SELECT} WHERE c.id = $1`, [id]);
    if (!rows[0]) throw new NotFound(CLIENT_NOT_FOUND);
    return toClient(rows[0]);
  }

  async create(tx: Queryable, input: ClientRecord): Promise<Client> {
    const { rows } = await tx.query<{ id: number }>(
      // The tails are written with the row: one write of its searched text (and its trigram index), not two.
      `INSERT INTO clients (name, address, phone, federal_id, state_id, email, employee_count, start_date, upload_destination, jurisdiction, entity_type,
         fiscal_year_end, state, registrations, tax_id_tails)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`, [...values(input), taxIdTails(input.taxIds ?? [])],
    );
    if (input.taxIds?.length) await this.#writeTaxIds(tx, rows[0]!.id, input.taxIds, true);
    return this.get(tx, rows[0]!.id);
  }

  /** Many clients in one statement (seeding, imports): column arrays unnested row by row. */
  async createMany(tx: Queryable, inputs: readonly ClientRecord[]): Promise<number[]> {
    const columns = COLUMNS.map((pick) => inputs.map((input) => pick(input)));
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO clients (name, address, phone, federal_id, state_id, email, employee_count, start_date, upload_destination, jurisdiction, entity_type,
         fiscal_year_end, state)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::date[], $9::text[], $10::text[], $11::text[],
         $12::text[], $13::text[])
       RETURNING id`, columns.slice(0, 13),
    );
    return rows.map((r) => r.id);
  }

  async update(tx: Queryable, id: number, input: ClientRecord): Promise<Client> {
    const { rowCount } = await tx.query(
      `UPDATE clients SET name = $2, address = $3, phone = $4, federal_id = $5, state_id = $6, email = $7, employee_count = $8,
         start_date = $9, upload_destination = $10, jurisdiction = $11, entity_type = $12,
         fiscal_year_end = $13, state = $14, registrations = $15, updated_at = now() WHERE id = $1`, [id, ...values(input)],
    );
    if (rowCount === 0) throw new NotFound(CLIENT_NOT_FOUND);
    if (input.taxIds) await this.#writeTaxIds(tx, id, input.taxIds);
    return this.get(tx, id);
  }

  /** The whole values (the reveal call): type order. */
  async taxIds(db: Queryable, id: number): Promise<TaxId[]> {
    await this.get(db, id);
    const { rows } = await db.query<TaxId>('SELECT type, value FROM client_tax_ids WHERE client_id = $1 ORDER BY type', [id]);
    return rows;
  }

  /** Every client's whole tax IDs by client (the readable copy of a caller who may reveal them). */
  async allTaxIds(db: Queryable): Promise<Map<number, TaxId[]>> {
    const { rows } = await db.query<TaxId & { client_id: number }>('SELECT client_id, type, value FROM client_tax_ids ORDER BY client_id, type');
    const byClient = new Map<number, TaxId[]>();
    for (const r of rows) byClient.set(r.client_id, [...(byClient.get(r.client_id) ?? []), { type: r.type, value: r.value }]);
    return byClient;
  }

  /**
   * For a whole import sheet at once: which client holds each of these tax IDs ("type:value")
   * and which client has each of these names (lower case; the first by id), in two queries.
   */
  async matchIndex(db: Queryable, taxIds: readonly TaxId[], names: readonly string[]): Promise<{ byTaxId: Map<string, number>; byName: Map<string, number> }> {
    const byTaxId = new Map<string, number>();
    const byName = new Map<string, number>();
    if (taxIds.length) {
      const { rows } = await db.query<{ client_id: number; type: string; value: string }>(
        'SELECT client_id, type, value FROM client_tax_ids WHERE (type, value) IN (SELECT * FROM unnest($1::text[], $2::text[]))',
        [taxIds.map((t) => t.type), taxIds.map((t) => t.value)]);
      for (const r of rows) byTaxId.set(`${r.type}:${r.value}`, r.client_id);
    }
    if (names.length) {
      const { rows } = await db.query<{ id: number; name: string }>(
        'SELECT id, lower(name) AS name FROM clients WHERE lower(name) = ANY($1::text[]) ORDER BY id DESC', [names.map((n) => n.toLowerCase())]);
      for (const r of rows) byName.set(r.name, r.id);
    }
    return { byTaxId, byName };
  }

  /** The client (other than `except`) that already holds one of these numbers, or null. */
  async taxIdHolder(db: Queryable, taxIds: readonly TaxId[], except: number | null): Promise<{ clientId: number; type: TaxIdType } | null> {
    if (!taxIds.length) return null;
    const { rows } = await db.query<{ client_id: number; type: TaxIdType }>(
      `SELECT client_id, type FROM client_tax_ids WHERE (type, value) IN (SELECT * FROM unnest($1::text[], $2::text[]))
         AND ($3::int IS NULL OR client_id <> $3) LIMIT 1`,
      [taxIds.map((t) => t.type), taxIds.map((t) => t.value), except]);
    return rows[0] ? { clientId: rows[0].client_id, type: rows[0].type } : null;
  }

  /** Replaces the client's list, and the tails search matches (a new client's were inserted with it). */
  async #writeTaxIds(tx: Queryable, id: number, taxIds: readonly TaxId[], isNew = false): Promise<void> {
    if (!isNew) await tx.query('DELETE FROM client_tax_ids WHERE client_id = $1', [id]);
    if (taxIds.length) {
      await tx.query('INSERT INTO client_tax_ids (client_id, type, value) SELECT $1, * FROM unnest($2::text[], $3::text[])',
        [id, taxIds.map((t) => t.type), taxIds.map((t) => t.value)]);
    }
    if (!isNew) await tx.query('UPDATE clients SET tax_id_tails = $2 WHERE id = $1', [id, taxIdTails(taxIds)]);
  }

  /** The year end as saved: null when the client never said (its jurisdiction's default is answered on read). */
  async storedFiscalYearEnd(db: Queryable, id: number): Promise<string | null> {
    const { rows } = await db.query<{ fiscal_year_end: string | null }>('SELECT fiscal_year_end FROM clients WHERE id = $1', [id]);
    return rows[0]?.fiscal_year_end ?? null;
  }

  async delete(tx: Queryable, id: number): Promise<Client> {
    const client = await this.get(tx, id);
    await tx.query('DELETE FROM clients WHERE id = $1', [id]);
    return client;
  }
}
