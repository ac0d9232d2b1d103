import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import { usersReaching, type ReachingUser } from '@ledgerline/kit/access/users-reaching.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type {
  DocumentRequest, DocumentRequestChanged, DocumentRequestSummary, ItemStatus, RequestItem, RequestItemFile, RequestStatus, RequestTemplate,
} from '@ledgerline/contracts/requests.contracts.ts';
import { reachableItems, reachableRequests } from '../access-rules.ts';
import { LinkTable } from '../link-table.ts';
import { isoInstantOrNull as iso } from '@ledgerline/kit/db/instants.ts';

const REQUEST_COLUMNS = `r.id, r.client_id, r.client_name, r.title, r.message, r.due_date, r.status, r.reminder_every_days, r.report_type_id,
  r.tracker_item_id, r.assigned_to_id, r.assigned_to_name, r.created_by_id, r.required_count, r.done_count, r.uploaded_count, r.created_at, r.updated_at, r.last_activity_at`;

interface RequestRow {
  id: number; client_id: number; client_name: string; title: string; message: string | null; due_date: string; status: RequestStatus;
  reminder_every_days: number; report_type_id: number | null; tracker_item_id: number | null; assigned_to_id: number; assigned_to_name: string;
  created_by_id: number; required_count: number; done_count: number; uploaded_count: number; created_at: Date; updated_at: Date; last_activity_at: Date;
}

const summary = (r: RequestRow): DocumentRequestSummary => ({
  id: r.id, clientId: r.client_id, clientName: r.client_name, title: r.title, message: r.message, dueDate: r.due_date, status: r.status,
  reminderEveryDays: r.reminder_every_days, reportTypeId: r.report_type_id, trackerItemId: r.tracker_item_id,
  assignedToId: r.assigned_to_id, assignedToName: r.assigned_to_name, createdById: r.created_by_id,
  createdAt: iso(r.created_at)!, updatedAt: iso(r.updated_at)!, lastActivityAt: iso(r.last_activity_at)!,
  progress: { required: r.required_count, done: r.done_count, uploaded: r.uploaded_count },
});

export interface NewRequest {
  clientId: number; clientName: string; title: string; message: string | null; dueDate: string; reminderEveryDays: number;
  reportTypeId: number | null; trackerItemId: number | null; assignedToId: number; assignedToName: string; createdById: number;
}
/** An open request as a reminder or a "send now" tells it (chaseTargets). */
export interface ChaseTarget {
  id: number; clientId: number; clientName: string; title: string; dueDate: string; reminderEveryDays: number; createdById: number;
  missing: string[]; clientUserIds: number[]; recipients: string[];
}
export interface NewItem { title: string; description: string | null; required: boolean; reportTypeId: number | null }
export type TemplateInput = Omit<RequestTemplate, 'id' | 'createdAt' | 'updatedAt'>;

/** SQL of the requests service's own tables (requests.migrations.ts). */
export class RequestStore {
  readonly #userAccessTable: string;

  constructor(userAccessTable: string) {
    this.#userAccessTable = userAccessTable;
  }

  // Templates

  async templates(db: Queryable): Promise<RequestTemplate[]> {
    const r = await db.query<{ id: number; name: string; report_type_id: number | null; items: RequestTemplate['items']; created_at: Date; updated_at: Date }>(
      'SELECT * FROM request_templates ORDER BY name, id');
    return r.rows.map((t) => ({ id: t.id, name: t.name, reportTypeId: t.report_type_id, items: t.items, createdAt: iso(t.created_at)!, updatedAt: iso(t.updated_at)! }));
  }

  async template(db: Queryable, id: number): Promise<RequestTemplate | null> {
    return (await this.templates(db)).find((t) => t.id === id) ?? null;
  }

  async saveTemplate(db: Queryable, input: TemplateInput, id?: number): Promise<number | null> {
    const values = [input.name, input.reportTypeId, JSON.stringify(input.items)];
    const r = id === undefined
      ? await db.query<{ id: number }>('INSERT INTO request_templates (name, report_type_id, items) VALUES ($1, $2, $3::jsonb) RETURNING id', values)
      : await db.query<{ id: number }>('UPDATE request_templates SET name = $1, report_type_id = $2, items = $3::jsonb, updated_at = now() WHERE id = $4 RETURNING id', [...values, id]);
    return r.rows[0]?.id ?? null;
  }

  async deleteTemplate(db: Queryable, id: number): Promise<boolean> {
    return ((await db.query('DELETE FROM request_templates WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  // Requests

  async insert(tx: Queryable, r: NewRequest, items: readonly NewItem[]): Promise<number> {
    const row = await tx.query<{ id: number }>(
      `INSERT INTO document_requests (client_id, client_name, title, message, due_date, reminder_every_days, report_type_id, tracker_item_id, assigned_to_id, assigned_to_name, created_by_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [r.clientId, r.clientName, r.title, r.message, r.dueDate, r.reminderEveryDays, r.reportTypeId, r.trackerItemId, r.assignedToId, r.assignedToName, r.createdById],
    );
    const id = row.rows[0]!.id;
    await tx.query(
      `INSERT INTO document_request_items (request_id, position, title, description, required, report_type_id)
       SELECT $1, i.position, i.title, i.description, i.required, i.report_type_id
       FROM jsonb_to_recordset($2::jsonb) AS i(position int, title text, description text, required boolean, report_type_id int)`,
      [id, JSON.stringify(items.map((i, position) => ({ position, title: i.title, description: i.description, required: i.required, report_type_id: i.reportTypeId })))],
    );
    await this.recount(tx, id);
    return id;
  }

  async list(db: Queryable, scope: AccessScope, filter: { clientId?: number; status?: RequestStatus; overdueBefore?: string; limit: number; offset: number }): Promise<DocumentRequestSummary[]> {
    const p = new SqlParams();
    const where = [reachableRequests(scope, p)];
    if (filter.clientId !== undefined) where.push(`r.client_id = ${p.add(filter.clientId)}`);
    if (filter.status) where.push(`r.status = ${p.add(filter.status)}`);
    if (filter.overdueBefore) where.push(`r.status = 'open' AND r.due_date < ${p.add(filter.overdueBefore)}::date`);
    // A caller limited by report types sees the progress of the items they reach, not the stored counts of all.
    const items = reachableItems(scope, p, 'vi');
    const seen = items
      ? `, seen.required_count AS seen_required, seen.done_count AS seen_done, seen.uploaded_count AS seen_uploaded FROM document_requests r
         CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE vi.required)::int AS required_count,
                                    count(*) FILTER (WHERE vi.required AND vi.status IN ('accepted', 'not_applicable'))::int AS done_count,
                                    count(*) FILTER (WHERE vi.status = 'uploaded')::int AS uploaded_count
                             FROM document_request_items vi WHERE vi.request_id = r.id AND ${items}) seen`
      : ' FROM document_requests r';
    const r = await db.query<RequestRow & { seen_required?: number; seen_done?: number; seen_uploaded?: number }>(
      `SELECT ${REQUEST_COLUMNS}${seen} WHERE ${where.join(' AND ')} ORDER BY r.due_date, r.id LIMIT ${p.add(filter.limit)} OFFSET ${p.add(filter.offset)}`, p.values);
    return r.rows.map((row) => (row.seen_required === undefined ? summary(row)
      : { ...summary(row), progress: { required: row.seen_required, done: row.seen_done!, uploaded: row.seen_uploaded! } }));
  }

  async summary(db: Queryable, id: number, lock = false): Promise<DocumentRequestSummary | null> {
    const r = await db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM document_requests r WHERE r.id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return r.rows[0] ? summary(r.rows[0]) : null;
  }

  async find(db: Queryable, id: number): Promise<DocumentRequest | null> {
    const request = await this.summary(db, id);
    return request && { ...request, items: await this.items(db, id) };
  }

  async items(db: Queryable, requestId: number): Promise<RequestItem[]> {
    const items = await db.query<{ id: number; title: string; description: string | null; required: boolean; report_type_id: number | null; status: ItemStatus; client_comment: string | null; staff_comment: string | null }>(
      'SELECT * FROM document_request_items WHERE request_id = $1 ORDER BY position, id', [requestId]);
    const files = await db.query<{ item_id: number; file_id: number; file_name: string; uploaded_at: Date; uploaded_by_name: string; via_link: boolean }>(
      `SELECT f.* FROM document_request_files f JOIN document_request_items i ON i.id = f.item_id WHERE i.request_id = $1 ORDER BY f.uploaded_at, f.id`, [requestId]);
    const byItem = new Map<number, RequestItemFile[]>();
    for (const f of files.rows) {
      const list = byItem.get(f.item_id) ?? [];
      list.push({ fileId: f.file_id, fileName: f.file_name, uploadedAt: iso(f.uploaded_at)!, uploadedByName: f.uploaded_by_name, viaLink: f.via_link });
      byItem.set(f.item_id, list);
    }
    return items.rows.map((i) => ({
      id: i.id, title: i.title, description: i.description, required: i.required, reportTypeId: i.report_type_id, status: i.status,
      clientComment: i.client_comment, staffComment: i.staff_comment, files: byItem.get(i.id) ?? [],
    }));
  }

  async update(tx: Queryable, id: number, fields: Partial<Pick<NewRequest, 'title' | 'message' | 'dueDate' | 'reminderEveryDays' | 'assignedToId' | 'assignedToName'>> & { status?: RequestStatus }): Promise<void> {
    const columns: Record<string, string> = { title: 'title', message: 'message', dueDate: 'due_date', reminderEveryDays: 'reminder_every_days', assignedToId: 'assigned_to_id', assignedToName: 'assigned_to_name', status: 'status' };
    const p = new SqlParams();
    const sets = Object.entries(fields).filter(([, v]) => v !== undefined).map(([k, v]) => `${columns[k]} = ${p.add(v)}`);
    await tx.query(`UPDATE document_requests SET ${[...sets, 'updated_at = now()', 'last_activity_at = now()'].join(', ')} WHERE id = ${p.add(id)}`, p.values);
  }

  /** Keeps the list's progress columns in step with the items (the list never reads items). */
  /** One more item at the end of a request's list; its id. */
  async addItem(tx: Queryable, requestId: number, item: NewItem): Promise<number> {
    const r = await tx.query<{ id: number }>(
      `INSERT INTO document_request_items (request_id, position, title, description, required, report_type_id)
       SELECT $1, COALESCE(max(position) + 1, 0), $2, $3, $4, $5 FROM document_request_items WHERE request_id = $1 RETURNING id`,
      [requestId, item.title, item.description, item.required, item.reportTypeId]);
    return r.rows[0]!.id;
  }

  async recount(tx: Queryable, id: number): Promise<{ required: number; done: number }> {
    const r = await tx.query<{ required_count: number; done_count: number }>(
      `UPDATE document_requests r SET
         required_count = c.required, done_count = c.done, uploaded_count = c.uploaded, last_activity_at = now(), updated_at = now()
       FROM (SELECT count(*) FILTER (WHERE required)::int AS required,
                    count(*) FILTER (WHERE required AND status IN ('accepted', 'not_applicable'))::int AS done,
                    count(*) FILTER (WHERE status = 'uploaded')::int AS uploaded
             FROM document_request_items WHERE request_id = $1) c
       WHERE r.id = $1 RETURNING r.required_count, r.done_count`, [id]);
    return { required: r.rows[0]!.required_count, done: r.rows[0]!.done_count };
  }

  /** The request's next revision and its state, for the event of a change (locks the row until the transaction ends). */
  async nextRevision(tx: Queryable, id: number): Promise<Omit<DocumentRequestChanged, 'action' | 'actorId' | 'actorName'>> {
    const r = await tx.query<{ client_id: number; client_name: string; title: string; report_type_id: number | null; tracker_item_id: number | null; status: RequestStatus; required_count: number; done_count: number; revision: number }>(
      `UPDATE document_requests SET revision = revision + 1 WHERE id = $1
       RETURNING client_id, client_name, title, report_type_id, tracker_item_id, status, required_count, done_count, revision`, [id]);
    const x = r.rows[0]!;
    const items = await tx.query<{ id: number; report_type_id: number | null; required: boolean; status: ItemStatus }>(
      'SELECT id, report_type_id, required, status FROM document_request_items WHERE request_id = $1 ORDER BY position, id', [id]);
    return {
      requestId: id, clientId: x.client_id, clientName: x.client_name, title: x.title, reportTypeId: x.report_type_id, trackerItemId: x.tracker_item_id,
      status: x.status, progress: { required: x.required_count, done: x.done_count }, revision: x.revision,
      items: items.rows.map((i) => ({ id: i.id, reportTypeId: i.report_type_id, required: i.required, status: i.status })),
    };
  }

  /** Records that the reviewer is told about this due date; false when they already were. */
  async claimOverdueNotice(tx: Queryable, id: number, dueDate: string): Promise<boolean> {
    const r = await tx.query(`UPDATE document_requests SET overdue_notice_for = $2 WHERE id = $1 AND overdue_notice_for IS DISTINCT FROM $2::date`, [id, dueDate]);
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * Everything chasing open requests needs, for many at once in one statement (a morning's
   * reminders): the required items still waiting for the client (neither uploaded, accepted nor
   * not applicable), the client's users and the recipients of links not revoked (an expired
   * link's recipient is still the client's contact: each e-mail carries a fresh link). Locks the requests.
   */
  async chaseTargets(tx: Queryable, requestIds: readonly number[]): Promise<ChaseTarget[]> {
    const r = await tx.query<{ id: number; client_id: number; client_name: string; title: string; due_date: string; reminder_every_days: number; created_by_id: number; missing: string[]; users: number[]; recipients: string[] }>(
      // The client users are grouped once for the whole set (one pass over the read model), not looked up per request.
      `WITH client_users AS (
         SELECT u.client_ids[1] AS client_id, array_agg(u.user_id ORDER BY u.user_id) AS ids
         FROM ${this.#userAccessTable} u WHERE NOT u.deleted AND lower(u.role) = 'client' GROUP BY 1
       )
       SELECT r.id, r.client_id, r.client_name, r.title, r.due_date::text AS due_date, r.reminder_every_days, r.created_by_id,
         ARRAY(SELECT i.title FROM document_request_items i WHERE i.request_id = r.id AND i.required AND i.status IN ('requested', 'rejected') ORDER BY i.position, i.id) AS missing,
         COALESCE(cu.ids, '{}') AS users,
         ARRAY(SELECT DISTINCT l.email FROM document_request_links l
               WHERE l.request_id = r.id AND l.email IS NOT NULL AND l.revoked_at IS NULL ORDER BY l.email) AS recipients
       FROM document_requests r LEFT JOIN client_users cu ON cu.client_id = r.client_id
       WHERE r.id = ANY($1::int[]) AND r.status = 'open' ORDER BY r.id FOR UPDATE OF r`, [requestIds]);
    return r.rows.map((x) => ({
      id: x.id, clientId: x.client_id, clientName: x.client_name, title: x.title, dueDate: x.due_date, reminderEveryDays: x.reminder_every_days, createdById: x.created_by_id,
      missing: x.missing, clientUserIds: x.users, recipients: x.recipients,
    }));
  }

  // Items

  async setItem(tx: Queryable, itemId: number, fields: { status: ItemStatus; clientComment?: string | null; staffComment?: string | null }): Promise<void> {
    const p = new SqlParams();
    const sets = [`status = ${p.add(fields.status)}`, 'updated_at = now()'];
    if (fields.clientComment !== undefined) sets.push(`client_comment = ${p.add(fields.clientComment)}`);
    if (fields.staffComment !== undefined) sets.push(`staff_comment = ${p.add(fields.staffComment)}`);
    await tx.query(`UPDATE document_request_items SET ${sets.join(', ')} WHERE id = ${p.add(itemId)}`, p.values);
  }

  async addFiles(tx: Queryable, itemId: number, files: readonly { fileId: number; fileName: string }[], uploadedByName: string, viaLink: boolean): Promise<void> {
    for (const f of files) {
      await tx.query('INSERT INTO document_request_files (item_id, file_id, file_name, uploaded_by_name, via_link) VALUES ($1, $2, $3, $4, $5)',
        [itemId, f.fileId, f.fileName, uploadedByName, viaLink]);
    }
  }

  // Links

  /** Upload links (link-table.ts). */
  readonly links = new LinkTable('document_request_links', 'request_id');

  /**
   * Claims an expired (not revoked) link with a recipient for renewal: true at most once per
   * linkRenewEveryMinutes per link, whichever replica asks, so a page reloaded or a token
   * tried again mails nobody twice.
   */
  async claimRenewal(tx: Queryable, linkId: number, everyMinutes: number): Promise<boolean> {
    const r = await tx.query(
      `UPDATE document_request_links SET renewed_at = now()
       WHERE id = $1 AND revoked_at IS NULL AND expires_at <= now() AND email IS NOT NULL
         AND (renewed_at IS NULL OR renewed_at < now() - make_interval(mins => $2::int))`, [linkId, everyMinutes]);
    return (r.rowCount ?? 0) > 0;
  }

  /** The client's users, from the user-access read model (a Client user's first client is theirs). */
  async clientUserIds(db: Queryable, clientId: number): Promise<number[]> {
    const r = await db.query<{ user_id: number }>(
      `SELECT user_id FROM ${this.#userAccessTable} WHERE NOT deleted AND lower(role) = 'client' AND client_ids[1] = $1 ORDER BY user_id`, [clientId]);
    return r.rows.map((x) => x.user_id);
  }

  /**
   * The firm's live users who reach a request's client (access-rules.ts, as a query over the
   * read model), each with the report types that limit what they see of it: Admin and DTA and
   * the client's users every one ('all'), staff whose client list holds it their report types.
   */
  async usersReaching(db: Queryable, r: { clientId: number }): Promise<ReachingUser[]> {
    return usersReaching(db, this.#userAccessTable, r.clientId);
  }

  /** Whether a user is a live staff user of the firm (a reviewer must be). */
  async isStaff(db: Queryable, userId: number): Promise<string | null> {
    const r = await db.query<{ username: string | null; full_name: string | null }>(
      `SELECT username, full_name FROM ${this.#userAccessTable} WHERE user_id = $1 AND NOT deleted AND lower(role) <> 'client'`, [userId]);
    const u = r.rows[0];
    return u ? (u.full_name?.trim() || u.username || `User ${userId}`) : null;
  }
}
