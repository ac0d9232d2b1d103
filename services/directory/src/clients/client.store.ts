import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
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
  created_at: Date | string;
  updated_at: Date | string;
}

const SELECT = `SELECT c.id, c.name, c.address, c.phone, c.federal_id, c.state_id, c.email, c.employee_count, c.start_date,
  c.upload_destination, c.jurisdiction, c.entity_type, c.fiscal_year_end, c.state, c.registrations, c.created_at, c.updated_at,
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
      `INSERT INTO clients (name, address, phone, federal_id, state_id, email, employee_count, start_date, upload_destination, jurisdiction, entity_type,
         fiscal_year_end, state, registrations)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`, values(input),
    );
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
    return this.get(tx, id);
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
