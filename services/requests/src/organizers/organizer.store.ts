import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { organizerTemplateInputSchema } from '@ledgerline/contracts/organizers.contracts.ts';
import type {
  OrganizerAnswers, OrganizerSection, OrganizerStatus, OrganizerSummary, OrganizerTemplate, OrganizerTemplateInput,
} from '@ledgerline/contracts/organizers.contracts.ts';
import { LinkTable } from '../link-table.ts';
import { reachableOrganizers } from './organizer-access.ts';
import type { ShippedOrganizerTemplate } from './shipped/index.ts';

/** An organizer row as the service works with it: the summary plus what the detail and the rules need. */
export interface StoredOrganizer extends OrganizerSummary {
  message: string | null;
  reminderEveryDays: number;
  sections: OrganizerSection[];
  /** The non-sensitive answers; the sensitive ones are `sealedAnswers`. */
  answers: OrganizerAnswers;
  sealedAnswers: string | null;
  prefilledFromId: number | null;
  builtIn: string | null;
  createdById: number;
  createdByName: string;
}

export interface NewOrganizer {
  clientId: number; clientName: string; templateId: number; templateName: string; builtIn: string | null; year: number; title: string;
  message: string | null; dueDate: string; reminderEveryDays: number; reportTypeId: number | null; trackerItemId: number | null;
  sections: OrganizerSection[]; prefilledFromId: number | null; createdById: number; createdByName: string;
}

interface TemplateRow { id: number; name: string; report_type_id: number | null; jurisdiction: string | null; description: string | null; sections: OrganizerSection[]; built_in: string | null; created_at: Date; updated_at: Date }

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const day = (d: Date | string): string => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

const toTemplate = (r: TemplateRow): OrganizerTemplate => ({
  id: r.id, name: r.name, reportTypeId: r.report_type_id, jurisdiction: r.jurisdiction as OrganizerTemplate['jurisdiction'], description: r.description,
  sections: r.sections, builtIn: r.built_in, createdAt: r.created_at.toISOString(), updatedAt: r.updated_at.toISOString(),
});

const ORGANIZER_COLUMNS = `id, client_id, client_name, template_id, template_name, built_in, year, title, message, status, due_date, reminder_every_days,
  report_type_id, tracker_item_id, request_id, report_file_id, sections, answers, sensitive_answers, prefilled_from_id, answered_count, question_count,
  sent_at, submitted_at, reviewed_at, created_by_id, created_by_name, updated_at`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function toOrganizer(r: any): StoredOrganizer {
  return {
    id: r.id, clientId: r.client_id, clientName: r.client_name, templateId: r.template_id, templateName: r.template_name, year: r.year, title: r.title,
    status: r.status, dueDate: day(r.due_date), reportTypeId: r.report_type_id, trackerItemId: r.tracker_item_id, requestId: r.request_id,
    reportFileId: r.report_file_id, answeredCount: r.answered_count, questionCount: r.question_count,
    sentAt: iso(r.sent_at), submittedAt: iso(r.submitted_at), reviewedAt: iso(r.reviewed_at), updatedAt: r.updated_at.toISOString(),
    message: r.message, reminderEveryDays: r.reminder_every_days, sections: r.sections, answers: r.answers ?? {}, sealedAnswers: r.sensitive_answers,
    prefilledFromId: r.prefilled_from_id, builtIn: r.built_in, createdById: r.created_by_id, createdByName: r.created_by_name,
  };
}

/**
 * Adds the shipped templates to a firm's schema, or brings its copies up to date (a migration
 * calls this: requests.migrations.ts 008). A release that changes a shipped template adds a
 * migration calling it again; organizers already made keep the sections they were made with.
 */
export async function installShippedTemplates(tx: Queryable, shipped: readonly ShippedOrganizerTemplate[]): Promise<void> {
  for (const s of shipped) {
    const t = organizerTemplateInputSchema.parse(s.template);
    await tx.query(
      `INSERT INTO organizer_templates (name, jurisdiction, description, sections, built_in, fits_report_type)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (built_in) DO UPDATE SET name = EXCLUDED.name, jurisdiction = EXCLUDED.jurisdiction, description = EXCLUDED.description,
         sections = EXCLUDED.sections, fits_report_type = EXCLUDED.fits_report_type, report_type_id = NULL, updated_at = now()`,
      [t.name, t.jurisdiction ?? null, t.description ?? null, JSON.stringify(t.sections), s.builtIn, s.reportTypeName],
    );
  }
}

/** The organizer tables (requests.migrations.ts 005). */
export class OrganizerStore {
  /** Links to answer without an account (link-table.ts). */
  readonly links = new LinkTable('organizer_links', 'organizer_id');

  /**
   * A shipped template belongs to the firm's report type of the name it fits, found as it is
   * read: so it follows the firm adding, renaming or deleting that report type, with no write.
   */
  readonly #templateColumns: string;

  constructor(reportTypesTable: string) {
    this.#templateColumns = `t.id, t.name, t.jurisdiction, t.description, t.sections, t.built_in, t.created_at, t.updated_at,
      COALESCE(t.report_type_id, (SELECT rt.id FROM ${reportTypesTable} rt WHERE rt.name = t.fits_report_type AND NOT rt.deleted ORDER BY rt.id LIMIT 1)) AS report_type_id`;
  }

  // Templates

  async templates(db: Queryable): Promise<OrganizerTemplate[]> {
    const r = await db.query<TemplateRow>(`SELECT ${this.#templateColumns} FROM organizer_templates t ORDER BY t.name, t.id`);
    return r.rows.map(toTemplate);
  }

  async template(db: Queryable, id: number): Promise<OrganizerTemplate | null> {
    const r = await db.query<TemplateRow>(`SELECT ${this.#templateColumns} FROM organizer_templates t WHERE t.id = $1`, [id]);
    return r.rows[0] ? toTemplate(r.rows[0]) : null;
  }

  async saveTemplate(db: Queryable, input: OrganizerTemplateInput, id?: number): Promise<number | null> {
    const values = [input.name, input.reportTypeId ?? null, input.jurisdiction ?? null, input.description ?? null, JSON.stringify(input.sections)];
    const r = id === undefined
      ? await db.query<{ id: number }>('INSERT INTO organizer_templates (name, report_type_id, jurisdiction, description, sections) VALUES ($1, $2, $3, $4, $5) RETURNING id', values)
      : await db.query<{ id: number }>(`UPDATE organizer_templates SET name = $1, report_type_id = $2, jurisdiction = $3, description = $4, sections = $5, updated_at = now()
          WHERE id = $6 RETURNING id`, [...values, id]);
    return r.rows[0]?.id ?? null;
  }

  async deleteTemplate(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM organizer_templates WHERE id = $1', [id]);
  }

  async templateInUse(db: Queryable, id: number): Promise<boolean> {
    return ((await db.query('SELECT 1 FROM organizers WHERE template_id = $1 LIMIT 1', [id])).rowCount ?? 0) > 0;
  }

  // Organizers

  async insert(tx: Queryable, o: NewOrganizer, answers: OrganizerAnswers, sealed: string | null, progress: { answeredCount: number; questionCount: number }): Promise<number> {
    const r = await tx.query<{ id: number }>(
      `INSERT INTO organizers (client_id, client_name, template_id, template_name, built_in, year, title, message, due_date, reminder_every_days,
         report_type_id, tracker_item_id, sections, answers, sensitive_answers, prefilled_from_id, answered_count, question_count, created_by_id, created_by_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
       ON CONFLICT (client_id, template_id, year) DO NOTHING RETURNING id`,
      [o.clientId, o.clientName, o.templateId, o.templateName, o.builtIn, o.year, o.title, o.message, o.dueDate, o.reminderEveryDays,
        o.reportTypeId, o.trackerItemId, JSON.stringify(o.sections), JSON.stringify(answers), sealed, o.prefilledFromId,
        progress.answeredCount, progress.questionCount, o.createdById, o.createdByName],
    );
    return r.rows[0]?.id ?? 0;
  }

  async find(db: Queryable, id: number, lock = false): Promise<StoredOrganizer | null> {
    const r = await db.query(`SELECT ${ORGANIZER_COLUMNS} FROM organizers WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return r.rows[0] ? toOrganizer(r.rows[0]) : null;
  }

  async list(db: Queryable, scope: AccessScope, filter: { clientId?: number; year?: number; status?: OrganizerStatus; limit: number; offset: number }): Promise<StoredOrganizer[]> {
    const p = new SqlParams();
    const where = [reachableOrganizers(scope, p)];
    if (filter.clientId) where.push(`o.client_id = ${p.add(filter.clientId)}`);
    if (filter.year) where.push(`o.year = ${p.add(filter.year)}`);
    if (filter.status) where.push(`o.status = ${p.add(filter.status)}`);
    const r = await db.query(
      `SELECT ${ORGANIZER_COLUMNS} FROM organizers o WHERE ${where.join(' AND ')} ORDER BY o.due_date, o.id LIMIT ${p.add(filter.limit)} OFFSET ${p.add(filter.offset)}`,
      p.values,
    );
    return r.rows.map(toOrganizer);
  }

  /** The client's submitted or reviewed organizer of `year` from the same template (or the same shipped one): last year's answers. */
  async previous(db: Queryable, o: { clientId: number; templateId: number; builtIn: string | null; year: number }): Promise<StoredOrganizer | null> {
    const r = await db.query(
      `SELECT ${ORGANIZER_COLUMNS} FROM organizers WHERE client_id = $1 AND year = $2 AND status IN ('submitted', 'reviewed')
         AND (template_id = $3 OR ($4::text IS NOT NULL AND built_in = $4)) ORDER BY submitted_at DESC NULLS LAST, id DESC LIMIT 1`,
      [o.clientId, o.year, o.templateId, o.builtIn],
    );
    return r.rows[0] ? toOrganizer(r.rows[0]) : null;
  }

  async update(tx: Queryable, id: number, fields: {
    title?: string; message?: string | null; dueDate?: string; reminderEveryDays?: number; status?: OrganizerStatus;
    answers?: OrganizerAnswers; sealed?: string | null; answeredCount?: number; questionCount?: number;
    requestId?: number | null; reportFileId?: number | null; sentAt?: 'now'; submittedAt?: 'now' | null; reviewedAt?: 'now' | null;
  }): Promise<void> {
    const p = new SqlParams();
    const sets: string[] = ['updated_at = now()'];
    const set = (column: string, value: unknown) => { if (value !== undefined) sets.push(`${column} = ${p.add(value)}`); };
    const stamp = (column: string, value: 'now' | null | undefined) => { if (value !== undefined) sets.push(`${column} = ${value === 'now' ? 'now()' : 'NULL'}`); };
    set('title', fields.title);
    set('message', fields.message);
    set('due_date', fields.dueDate);
    set('reminder_every_days', fields.reminderEveryDays);
    set('status', fields.status);
    set('answers', fields.answers === undefined ? undefined : JSON.stringify(fields.answers));
    set('sensitive_answers', fields.sealed);
    set('answered_count', fields.answeredCount);
    set('question_count', fields.questionCount);
    set('request_id', fields.requestId);
    set('report_file_id', fields.reportFileId);
    stamp('sent_at', fields.sentAt);
    stamp('submitted_at', fields.submittedAt);
    stamp('reviewed_at', fields.reviewedAt);
    await tx.query(`UPDATE organizers SET ${sets.join(', ')} WHERE id = ${p.add(id)}`, p.values);
  }

  /** Whether an open document request for the tracker item still waits for a required document. */
  async documentsOutstanding(tx: Queryable, trackerItemId: number): Promise<boolean> {
    const r = await tx.query(`SELECT 1 FROM document_requests WHERE tracker_item_id = $1 AND status = 'open' AND done_count < required_count LIMIT 1`, [trackerItemId]);
    return (r.rowCount ?? 0) > 0;
  }

  async addFile(tx: Queryable, f: { organizerId: number; questionId: string; fileId: number; name: string }): Promise<void> {
    await tx.query('INSERT INTO organizer_files (organizer_id, question_id, file_id, name) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [f.organizerId, f.questionId, f.fileId, f.name]);
  }

  /** The files uploaded for the organizer, as `questionId:fileId` keys. */
  async uploadedFiles(db: Queryable, organizerId: number): Promise<Set<string>> {
    const r = await db.query<{ question_id: string; file_id: number }>('SELECT question_id, file_id FROM organizer_files WHERE organizer_id = $1', [organizerId]);
    return new Set(r.rows.map((row) => `${row.question_id}:${row.file_id}`));
  }
}
