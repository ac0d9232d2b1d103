import { z } from 'zod';
import { TAX_ID_RULES, TAX_ID_TYPES, type TaxIdType } from './tax-ids.ts';

/*
 * Client import (issue 40): POST /api/{tenant}/clients/import, multipart `file` (CSV or
 * XLSX), `dryRun` and an optional `mapping` (JSON: header → field). Each row becomes or
 * updates one client (matched on a tax ID, else its name) with up to two contacts, who
 * become its Client users, and the staff who serve it. A row with any error is skipped
 * whole and reported; the dry run reports the same errors and writes nothing.
 */

export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Cells holding several names (report types, staff, registrations) separate them so. */
export const IMPORT_LIST_SEPARATOR = /[;|\n]/;

export const CONTACT_SLOTS = [1, 2] as const;
const CONTACT_PARTS = { FirstName: 'first name', LastName: 'last name', Email: 'e-mail', Phone: 'phone' } as const;
export type ContactField = `contact${(typeof CONTACT_SLOTS)[number]}${keyof typeof CONTACT_PARTS}`;
export type TaxIdField = `taxId.${TaxIdType}`;

/**
 * Every column the import understands: its field, the template's header and other headers it
 * is matched by (compared without case, spaces or punctuation). A new client field is one line.
 */
export const IMPORT_COLUMNS = [
  { field: 'name', header: 'Name', aliases: ['client', 'client name', 'company', 'business name', 'account name'] },
  { field: 'entityType', header: 'Entity type', aliases: ['entity', 'type', 'legal form'] },
  { field: 'jurisdiction', header: 'Jurisdiction', aliases: ['country'] },
  { field: 'state', header: 'State', aliases: ['province', 'region', 'state code'] },
  { field: 'fiscalYearEnd', header: 'Fiscal year end', aliases: ['year end', 'fye', 'financial year end'] },
  { field: 'registrations', header: 'Registrations', aliases: [] },
  { field: 'address', header: 'Address', aliases: ['street address', 'mailing address'] },
  { field: 'phone', header: 'Phone', aliases: ['phone number', 'telephone', 'mobile'] },
  { field: 'email', header: 'Email', aliases: ['e-mail', 'email address', 'client email'] },
  { field: 'federalId', header: 'Federal ID', aliases: ['federal id number', 'fein'] },
  { field: 'stateId', header: 'State ID', aliases: ['state id number', 'state tax id'] },
  { field: 'employeeCount', header: 'Employees', aliases: ['employee count', 'number of employees'] },
  { field: 'startDate', header: 'Start date', aliases: ['client since'] },
  ...TAX_ID_TYPES.map((type) => ({ field: `taxId.${type}` as TaxIdField, header: TAX_ID_RULES[type].label, aliases: [type] })),
  { field: 'reportTypes', header: 'Report types', aliases: ['services', 'report type'] },
  { field: 'staff', header: 'Assigned staff', aliases: ['staff', 'assigned to', 'team'] },
  ...CONTACT_SLOTS.flatMap((slot) => (Object.keys(CONTACT_PARTS) as (keyof typeof CONTACT_PARTS)[]).map((part) => ({
    field: `contact${slot}${part}` as ContactField,
    header: `Contact ${slot} ${CONTACT_PARTS[part]}`,
    aliases: slot === 1 ? [`contact ${CONTACT_PARTS[part]}`, `${CONTACT_PARTS[part]}`.replace('e-mail', 'contact email')] : [`spouse ${CONTACT_PARTS[part]}`],
  }))),
  { field: 'invite', header: 'Invite', aliases: ['send invitation', 'invite contacts'] },
] as const satisfies readonly { field: string; header: string; aliases: readonly string[] }[];

export type ImportField = (typeof IMPORT_COLUMNS)[number]['field'];
export const IMPORT_FIELDS = IMPORT_COLUMNS.map((c) => c.field) as ImportField[];

const normalHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');
/** The field a header names, or null (the mapper shows it as not imported). */
export function matchImportHeader(header: string): ImportField | null {
  const wanted = normalHeader(header);
  if (!wanted) return null;
  const found = IMPORT_COLUMNS.find((c) => normalHeader(c.header) === wanted || c.field.toLowerCase() === wanted)
    ?? IMPORT_COLUMNS.find((c) => c.aliases.some((a) => normalHeader(a) === wanted));
  return found?.field ?? null;
}

/** The template's one line of headers (the screen offers it as a download). */
export const IMPORT_TEMPLATE_HEADERS: readonly string[] = IMPORT_COLUMNS.map((c) => c.header);

/** `mapping`: header as in the file → field, or '' to leave the column out. Absent headers are matched automatically. */
export const importMappingSchema = z.record(z.string().max(200), z.union([z.literal(''), z.enum(IMPORT_FIELDS as [ImportField, ...ImportField[]])]), {
  error: 'mapping must map column headers to import fields',
}).refine((m) => Object.keys(m).length <= 200, 'mapping has too many columns');

/** The multipart form's text fields. */
export const clientImportFieldsSchema = z.object({
  dryRun: z.enum(['true', 'false'], { error: 'dryRun must be true or false' }).optional().transform((v) => v === 'true'),
  mapping: z.string().max(20_000).optional().transform((v, ctx) => {
    if (!v) return undefined;
    try {
      const parsed = importMappingSchema.safeParse(JSON.parse(v));
      if (parsed.success) return parsed.data;
      ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'mapping is not valid' });
    } catch {
      ctx.addIssue({ code: 'custom', message: 'mapping must be JSON' });
    }
    return z.NEVER;
  }),
});

/** One problem of one row (row 1 is the header: data rows start at 2, as a spreadsheet numbers them). */
export interface ImportError { row: number; field: string; message: string }

export interface ImportColumn { header: string; field: ImportField | null }

export interface ClientImportResult {
  dryRun: boolean;
  /** Data rows read (blank rows not counted). */
  rows: number;
  /** Clients made, and clients found by tax ID or name and updated (in a dry run: that would be). */
  created: number;
  updated: number;
  /** Rows skipped whole, each problem once. */
  errors: ImportError[];
  /** How the file's columns were read. */
  columns: ImportColumn[];
  /** Client users made for contacts (in a dry run: that would be). */
  contactsCreated: number;
}

/** With `Accept: text/event-stream` the import answers `progress` events, then `result` (or `error`). */
export const CLIENT_IMPORT_EVENTS = { progress: 'progress', result: 'result', error: 'error' } as const;
export interface ClientImportProgress { done: number; total: number }

export const CLIENT_IMPORT_MESSAGES = {
  noFile: 'Choose a CSV or Excel (.xlsx) file to import.',
  unreadable: 'The file could not be read as CSV or Excel (.xlsx).',
  empty: 'The file has no header row.',
  tooLarge: `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`,
  tooManyRows: `A file may hold at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} clients.`,
  noName: 'No column holds the client name: map one to Name.',
  mappedTwice: (field: string) => `Two columns are mapped to ${field}.`,
} as const;

// ---------------------------------------------------------------- directory → identity (service port only)

/**
 * Internal call on identity's port (the gateway never routes /internal), with the importing
 * user's token: checks (dryRun) or makes each row's Client users and staff assignments, each
 * row in its own transaction, and answers the problems by row.
 */
export const CLIENT_PEOPLE_IMPORT_PATH = '/internal/client-import/people';

const personText = (max: number) => z.string().trim().max(max);
export const importedContactSchema = z.object({
  slot: z.union([z.literal(1), z.literal(2)]),
  firstName: personText(100),
  lastName: personText(100),
  email: z.email().max(254).transform((v) => v.toLowerCase()),
  phone: personText(40),
});
export type ImportedContact = z.infer<typeof importedContactSchema>;

export const clientPeopleImportSchema = z.object({
  dryRun: z.boolean(),
  rows: z.array(z.object({
    row: z.number().int().min(1),
    /** null in a dry run for a client the import would make. */
    clientId: z.number().int().min(1).nullable(),
    contacts: z.array(importedContactSchema).max(2),
    /** Usernames or e-mail addresses of staff who serve the client. */
    staff: z.array(z.string().trim().min(1).max(254)).max(50),
    /** Report types granted to those of the staff whose access lists name report types (CPA, custom roles). */
    reportTypeIds: z.array(z.number().int().min(1)).max(500),
    /** E-mail the contacts made an invitation to set a password (POST /api/users/{id}/invite). */
    invite: z.boolean(),
  })).max(1000),
});
export type ClientPeopleImport = z.infer<typeof clientPeopleImportSchema>;
export interface ClientPeopleImportResult {
  errors: ImportError[];
  /** Client users made. */
  contactsCreated: number;
  /** In a dry run: [row, contacts that would become new users] for each row without problems. */
  newContactsByRow: [number, number][];
}
