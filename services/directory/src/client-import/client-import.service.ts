import { z } from 'zod';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { DomainError, Invalid, Unavailable, type ErrorKind } from '@ledgerline/kit/errors.ts';
import { inSavepoint } from '@ledgerline/kit/db/savepoint.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  CLIENT_IMPORT_MESSAGES, CLIENT_PEOPLE_IMPORT_PATH, CONTACT_SLOTS, IMPORT_COLUMNS, IMPORT_LIST_SEPARATOR, matchImportHeader,
  type ClientImportProgress, type ClientImportResult, type ClientPeopleImport, type ClientPeopleImportResult, type ImportColumn,
  type ImportError, type ImportField, type ImportedContact,
} from '@ledgerline/contracts/client-import.contracts.ts';
import {
  clientInputSchema, ENTITY_TYPE_LABELS, ENTITY_TYPES, type Client, type ClientFieldSettings,
} from '@ledgerline/contracts/directory.contracts.ts';
import { TAX_ID_TYPES, taxIdSchema, type TaxId } from '@ledgerline/contracts/tax-ids.ts';
import type { ClientFieldSettingsStore } from '../field-settings/client-field-settings.store.ts';
import type { ReportTypeStore } from '../report-types/report-type.store.ts';
import { clientsUpserted, taxIdTaken, type ClientService } from '../clients/client.service.ts';
import type { ClientRecord, ClientStore } from '../clients/client.store.ts';
import type { ImportSheet } from './import-file.reader.ts';

/** Rows per call to identity and per progress step. */
const PEOPLE_CHUNK = 250;
const TRUTHY = new Set(['yes', 'y', 'true', '1', 'x']);
const KIND_OF_STATUS: Record<number, ErrorKind> = { 400: 'invalid', 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found', 409: 'conflict' };

/** One data row, read and checked: what it would write, or its problems. */
interface PlannedRow {
  row: number;
  errors: ImportError[];
  /** The client it updates (found by tax ID or name), else null: a new client. */
  matchId: number | null;
  record: ClientRecord | null;
  contacts: ImportedContact[];
  staff: string[];
  reportTypeIds: number[];
  invite: boolean;
}

const splitList = (cell: string) => cell.split(IMPORT_LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean);
const entityTypeOf = (cell: string): string => {
  const wanted = cell.toLowerCase().replace(/[\s-]+/g, '_');
  const byLabel = ENTITY_TYPES.find((t) => ENTITY_TYPE_LABELS[t].toLowerCase() === cell.toLowerCase());
  return byLabel ?? wanted;
};
const jurisdictionOf = (cell: string): string => (cell.toUpperCase() === 'GB' ? 'UK' : cell.toUpperCase());
/** "NY" in a US row means US-NY; a full code stays as it is. */
const stateOf = (cell: string, jurisdiction: string | undefined): string =>
  (cell.includes('-') || !jurisdiction ? cell : `${jurisdiction === 'UK' ? 'GB' : jurisdiction}-${cell}`);

interface PlanContext {
  settings: ClientFieldSettings | null;
  schema: ReturnType<typeof clientInputSchema>;
  reportTypes: Map<string, number>;
  claimed: Map<string, number>;
  index: { byTaxId: Map<string, number>; byName: Map<string, number> };
}

const taxIdsOf = (v: Map<ImportField, string>): TaxId[] =>
  TAX_ID_TYPES.flatMap((type) => { const value = v.get(`taxId.${type}`); return value ? [{ type, value }] : []; });

/** The field a schema issue is about, named as the import's columns are. */
function fieldOfIssue(path: readonly PropertyKey[], taxIds: readonly TaxId[]): string {
  if (path[0] === 'taxIds' && typeof path[1] === 'number') return `taxId.${taxIds[path[1]]?.type ?? 'unknown'}`;
  return String(path[0] ?? 'row');
}

/**
 * The client import (issue 40): a sheet's rows become clients (created, or updated when a
 * tax ID or the name finds one), their contacts Client users and their staff assignments.
 * Rows are checked whole first (the dry run stops there); then each chunk of rows is written
 * in one transaction, each row in its own savepoint, and its people in one of identity's.
 * A row with any problem is skipped
 * and reported; a row identity refuses after its client was made takes the client back out.
 */
export class ClientImportService {
  readonly #clients: ClientStore;
  readonly #service: ClientService;
  readonly #settings: ClientFieldSettingsStore;
  readonly #reportTypes: ReportTypeStore;
  readonly #identityUrl: () => string;

  constructor(deps: { clients: ClientStore; service: ClientService; settings: ClientFieldSettingsStore; reportTypes: ReportTypeStore; identityUrl: () => string }) {
    this.#clients = deps.clients;
    this.#service = deps.service;
    this.#settings = deps.settings;
    this.#reportTypes = deps.reportTypes;
    this.#identityUrl = deps.identityUrl;
  }

  async run(t: TenantRequest, sheet: ImportSheet, options: { dryRun: boolean; mapping?: Record<string, ImportField | ''> | undefined; onProgress?: (p: ClientImportProgress) => void }): Promise<ClientImportResult> {
    const columns = mapColumns(sheet.header, options.mapping);
    const total = sheet.rows.length;
    const settings = await this.#settings.find(t.db);
    const reportTypes = new Map((await this.#reportTypes.list(t.db, 'all')).map((r) => [r.name.toLowerCase(), r.id]));
    const claimed = new Map<string, number>();
    const sheetRows = sheet.rows.map(({ row, cells }) => {
      const values = new Map<ImportField, string>();
      columns.forEach((c, i) => { if (c.field && cells[i]) values.set(c.field, cells[i]!); });
      return { row, values };
    });
    // Every client the sheet could match, found at once rather than row by row.
    const index = await this.#clients.matchIndex(t.db, sheetRows.flatMap((r) => compactValid(taxIdsOf(r.values))), sheetRows.flatMap((r) => r.values.get('name') ?? []));
    const context: PlanContext = { settings, schema: clientInputSchema(settings), reportTypes, claimed, index };
    const planned: PlannedRow[] = [];
    for (const { row, values } of sheetRows) planned.push(await this.#plan(t.db, row, values, context));
    // Identity checks every row's people (contacts' addresses, staff names) before anything is
    // written, rows with other problems too, so the preview shows each row's problems at once.
    const newContacts = new Map<number, number>();
    for (let i = 0; i < planned.length; i += PEOPLE_CHUNK) {
      const chunk = planned.slice(i, i + PEOPLE_CHUNK);
      const checked = await this.#people(t, { dryRun: true, rows: chunk.map((p) => peopleRow(p, p.matchId)) });
      addErrors(chunk, checked.errors);
      for (const [row, n] of checked.newContactsByRow) newContacts.set(row, n);
      if (options.dryRun) options.onProgress?.({ done: Math.min(i + PEOPLE_CHUNK, planned.length), total: planned.length });
    }
    const writable = planned.filter((p) => !p.errors.length);
    let created = 0;
    let updated = 0;
    let contactsCreated = 0;
    if (options.dryRun) {
      for (const p of writable) if (p.matchId === null) created += 1; else updated += 1;
      contactsCreated = writable.reduce((n, p) => n + (newContacts.get(p.row) ?? 0), 0);
    } else {
      for (let i = 0; i < writable.length; i += PEOPLE_CHUNK) {
        const chunk = writable.slice(i, i + PEOPLE_CHUNK);
        const written = new Map<PlannedRow, { id: number; isNew: boolean }>();
        // One transaction per chunk, each row in a savepoint of its own: a row is still all or
        // nothing, and the import waits for the database once per chunk, not once per row.
        await t.db.transaction(async (tx) => {
          const clients: Client[] = [];
          for (const p of chunk) {
            try {
              const client = await inSavepoint(tx, (row) => this.#write(row, p));
              written.set(p, { id: client.id, isNew: p.matchId === null });
              clients.push(client);
            } catch (err) {
              p.errors.push({ row: p.row, field: 'row', message: err instanceof DomainError ? err.message : 'The row could not be saved.' });
            }
          }
          // The written rows announced in one event, committed with them: every other service
          // takes the chunk in with one write (one event per client made a 5,000-row import
          // wait minutes on the read models).
          await enqueueEvents(tx, clientsUpserted(t.shortName, clients));
        });
        const people = await this.#people(t, { dryRun: false, rows: [...written].map(([p, w]) => peopleRow(p, w.id)) });
        contactsCreated += people.contactsCreated;
        addErrors(chunk, people.errors);
        for (const [p, w] of written) {
          if (p.errors.length && w.isNew) {
            // Its people were refused after its client was made: no half a client stays behind.
            await this.#service.delete(t, w.id);
            continue;
          }
          if (w.isNew) created += 1; else updated += 1;
        }
        options.onProgress?.({ done: Math.min(i + PEOPLE_CHUNK, writable.length), total: writable.length });
      }
    }
    return {
      dryRun: options.dryRun, rows: total, created, updated, contactsCreated, columns,
      errors: planned.flatMap((p) => p.errors).sort((a, b) => a.row - b.row),
    };
  }

  async #plan(db: Queryable, row: number, v: Map<ImportField, string>, context: PlanContext): Promise<PlannedRow> {
    const { settings, reportTypes, claimed, index } = context;
    const errors: ImportError[] = [];
    const fail = (field: string, message: string) => errors.push({ row, field, message });
    const plan: PlannedRow = { row, errors, matchId: null, record: null, contacts: [], staff: [], reportTypeIds: [], invite: false };

    const name = v.get('name') ?? '';
    const taxIds = taxIdsOf(v);
    // The same client twice in one file: the second row is reported, not merged into the first.
    const keys = [`name:${name.toLowerCase()}`, ...taxIds.map((x) => `${x.type}:${x.value.toUpperCase().replace(/[\s\-./]/g, '')}`)];
    const earlier = keys.map((k) => claimed.get(k)).find((r) => r !== undefined);
    if (earlier !== undefined) fail(keys.find((k) => claimed.has(k))!.startsWith('name:') ? 'name' : 'taxIds', `Row ${earlier} is the same client`);
    for (const k of keys) if (!claimed.has(k)) claimed.set(k, row);

    const valid = compactValid(taxIds);
    const holders = valid.map((x) => index.byTaxId.get(`${x.type}:${x.value}`));
    const matchedId = holders.find((id) => id !== undefined) ?? index.byName.get(name.toLowerCase()) ?? null;
    const match = matchedId === null ? null : { id: matchedId };
    plan.matchId = matchedId;
    // A number another client holds: refused here, as a save of the client would be.
    const heldBy = valid.find((x, i) => holders[i] !== undefined && holders[i] !== matchedId);
    if (heldBy) fail(`taxId.${heldBy.type}`, taxIdTaken(heldBy.type));
    const before = match ? await this.#clients.get(db, match.id) : null;

    const body: Record<string, unknown> = before ? baseOf(before) : {};
    const set = (field: ImportField, key: string, map: (cell: string) => unknown = (c) => c) => { const cell = v.get(field); if (cell) body[key] = map(cell); };
    for (const field of ['name', 'address', 'phone', 'email', 'federalId', 'stateId', 'employeeCount', 'startDate', 'fiscalYearEnd'] as const) set(field, field);
    set('entityType', 'entityType', entityTypeOf);
    set('jurisdiction', 'jurisdiction', jurisdictionOf);
    set('state', 'state', (c) => stateOf(c, (body.jurisdiction as string | undefined) ?? before?.jurisdiction ?? settings?.phoneCountry ?? 'US'));
    set('registrations', 'registrations', (c) => splitList(c).map((r) => r.toLowerCase()));
    if (taxIds.length) {
      const kept = before ? (await this.#clients.taxIds(db, before.id)).filter((x) => !taxIds.some((n) => n.type === x.type)) : [];
      body.taxIds = [...kept, ...taxIds];
    }
    const parsed = context.schema.safeParse(body);
    if (!parsed.success) {
      const seenFields = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = fieldOfIssue(issue.path, (body.taxIds as TaxId[] | undefined) ?? []);
        if (seenFields.has(field)) continue;
        seenFields.add(field);
        fail(field, issue.message);
      }
    } else {
      try {
        plan.record = match ? await this.#service.recordToUpdate(db, match.id, parsed.data) : this.#service.recordToCreate(parsed.data, settings);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        fail(err.message.includes('State') ? 'state' : 'taxIds', err.message);
      }
    }

    for (const reportType of splitList(v.get('reportTypes') ?? '')) {
      const id = reportTypes.get(reportType.toLowerCase());
      if (id === undefined) fail('reportTypes', `No report type is named ${reportType}`);
      else plan.reportTypeIds.push(id);
    }
    plan.staff = splitList(v.get('staff') ?? '');
    for (const slot of CONTACT_SLOTS) {
      const part = (p: 'FirstName' | 'LastName' | 'Email' | 'Phone') => v.get(`contact${slot}${p}`) ?? '';
      const [firstName, lastName, email, phone] = [part('FirstName'), part('LastName'), part('Email'), part('Phone')];
      if (!firstName && !lastName && !email && !phone) continue;
      if (!email) { fail(`contact${slot}Email`, `Contact ${slot} needs an e-mail address to become a Client user`); continue; }
      if (!z.email().safeParse(email).success) { fail(`contact${slot}Email`, `Contact ${slot} e-mail is not a valid address`); continue; }
      if (`${firstName}${lastName}`.length > 200) { fail(`contact${slot}FirstName`, `Contact ${slot} name is too long`); continue; }
      plan.contacts.push({ slot, firstName, lastName, email: email.toLowerCase(), phone: phone.slice(0, 40) });
    }
    plan.invite = TRUTHY.has((v.get('invite') ?? '').toLowerCase());
    return plan;
  }

  /** One row: its client created or updated (inside the caller's savepoint; the caller enqueues its event). */
  #write(tx: Queryable, p: PlannedRow): Promise<Client> {
    return p.matchId === null ? this.#service.createIn(tx, p.record!) : this.#service.updateIn(tx, p.matchId, p.record!);
  }

  /** Identity, on its port, with the importing user's own token (its rules apply too). */
  async #people(t: TenantRequest, body: ClientPeopleImport): Promise<ClientPeopleImportResult> {
    if (!body.rows.length) return { errors: [], contactsCreated: 0, newContactsByRow: [] };
    let r: Response;
    try {
      r = await fetch(`${this.#identityUrl()}${CLIENT_PEOPLE_IMPORT_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
      });
    } catch {
      throw new Unavailable('The identity service is unavailable. Please try again.');
    }
    const reply = (await r.json().catch(() => ({}))) as ClientPeopleImportResult & { message?: string };
    if (r.ok) return reply;
    const kind = KIND_OF_STATUS[r.status];
    if (kind) throw new DomainError(kind, reply.message ?? 'The import of contacts was refused.');
    throw new Unavailable(`The identity service answered ${r.status}. Please try again.`);
  }
}

/** The file's columns and the field each feeds: the caller's mapping first, else matched by header. */
export function mapColumns(header: readonly string[], mapping: Record<string, ImportField | ''> | undefined): ImportColumn[] {
  const columns = header.map((h): ImportColumn => ({ header: h, field: mapping && h in mapping ? (mapping[h] || null) : matchImportHeader(h) }));
  const fields = columns.flatMap((c) => (c.field ? [c.field] : []));
  const twice = fields.find((f, i) => fields.indexOf(f) !== i);
  if (twice) {
    // Two headers matched automatically to one field: the later is left out (the mapper shows it); a mapping the caller gave is refused.
    if (mapping && columns.some((c) => c.field === twice && c.header in mapping)) throw new Invalid(CLIENT_IMPORT_MESSAGES.mappedTwice(IMPORT_COLUMNS.find((c) => c.field === twice)!.header));
    let first = true;
    for (const c of columns) if (c.field === twice) { if (!first) c.field = null; first = false; }
  }
  if (!columns.some((c) => c.field === 'name')) throw new Invalid(CLIENT_IMPORT_MESSAGES.noName);
  return columns;
}

/** An existing client's fields as a body: the row's cells overlay them, so an update may name only what changes. */
const baseOf = (c: Client): Record<string, unknown> => ({
  name: c.name, address: c.address, phone: c.phone, federalId: c.federalId, stateId: c.stateId, email: c.email,
  employeeCount: c.employeeCount, startDate: c.startDate, uploadDestination: c.uploadDestination,
});

/** The tax IDs of a row that pass their checks, compact (a match is looked up by those only). */
function compactValid(taxIds: readonly TaxId[]): TaxId[] {
  return taxIds.flatMap((x) => { const r = taxIdSchema.safeParse(x); return r.success ? [r.data] : []; });
}

const peopleRow = (p: PlannedRow, clientId: number | null): ClientPeopleImport['rows'][number] => ({
  row: p.row, clientId, contacts: p.contacts, staff: p.staff, reportTypeIds: p.reportTypeIds, invite: p.invite,
});

function addErrors(rows: readonly PlannedRow[], errors: readonly ImportError[]): void {
  const byRow = new Map(rows.map((p) => [p.row, p]));
  for (const e of errors) byRow.get(e.row)?.errors.push(e);
}
