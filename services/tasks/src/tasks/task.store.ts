import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { DirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import type { RecurringPattern, Task, TaskClientComment, TaskClientStatus, TaskListQuery, TaskPriority, TaskStats, TaskStatus } from '@ledgerline/contracts/tasks.contracts.ts';
import { canReachClient, reachableTasks, type TaskReach } from '../access-rules.ts';

/** A task row as the service works with it (calendar dates as 'YYYY-MM-DD', instants as Date). */
export interface TaskRow {
  id: number;
  title: string;
  description: string | null;
  priority: TaskPriority;
  status: TaskStatus;
  dueDate: string | null;
  assignedToId: number | null;
  createdById: number;
  clientIds: number[];
  reportTypeId: number | null;
  isRecurring: boolean;
  recurringPattern: RecurringPattern | null;
  recurringEndDate: string | null;
  seriesId: number | null;
  occurrence: number;
  seriesOrigin: string | null;
  originOccurrence: number;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns a caller may set; the store writes exactly what it is given. */
export type TaskFields = Partial<Omit<TaskRow, 'id' | 'createdAt' | 'updatedAt'>>;

const COLUMNS: Record<keyof TaskFields, string> = {
  title: 'title', description: 'description', priority: 'priority', status: 'status', dueDate: 'due_date',
  assignedToId: 'assigned_to_id', createdById: 'created_by_id', clientIds: 'client_ids', reportTypeId: 'report_type_id',
  isRecurring: 'is_recurring', recurringPattern: 'recurring_pattern', recurringEndDate: 'recurring_end_date',
  seriesId: 'series_id', occurrence: 'occurrence', seriesOrigin: 'series_origin', originOccurrence: 'origin_occurrence', completedAt: 'completed_at',
};
/** Calendar-date columns are read as text: a driver would turn a date into an instant in its own zone. */
const DATE_COLUMNS: ReadonlySet<string> = new Set(['due_date', 'recurring_end_date', 'series_origin']);
const read = (c: string) => (DATE_COLUMNS.has(c) ? `to_char(${c}, 'YYYY-MM-DD')` : c);
const SELECT = `SELECT id, ${Object.entries(COLUMNS).map(([k, c]) => `${read(c)} AS "${k}"`).join(', ')}, created_at AS "createdAt", updated_at AS "updatedAt" FROM tasks`;
const OPEN = `status NOT IN ('completed', 'cancelled')`;
const ORDER = 'ORDER BY due_date ASC NULLS LAST, id';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export class TaskStore {
  readonly #users: UserAccessReadModel;
  readonly #directory: DirectoryReadModel;

  constructor(users: UserAccessReadModel, directory: DirectoryReadModel) {
    this.#users = users;
    this.#directory = directory;
  }

  async get(db: Queryable, id: number, lock = false): Promise<TaskRow | null> {
    const { rows } = await db.query<TaskRow>(`${SELECT} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [id]);
    return rows[0] ?? null;
  }

  async getReachable(db: Queryable, reach: TaskReach, id: number, lock = false): Promise<TaskRow | null> {
    const p = new SqlParams();
    const { rows } = await db.query<TaskRow>(`${SELECT} WHERE id = ${p.add(id)} AND ${reachableTasks(reach, p)}${lock ? ' FOR UPDATE' : ''}`, p.values);
    return rows[0] ?? null;
  }

  async list(db: Queryable, reach: TaskReach, q: TaskListQuery): Promise<TaskRow[]> {
    const p = new SqlParams();
    const where = [reachableTasks(reach, p)];
    if (q.assignedToId !== undefined) where.push(`assigned_to_id = ${p.add(q.assignedToId)}`);
    if (q.clientId !== undefined) where.push(`client_ids @> ARRAY[${p.add(q.clientId)}::int]`);
    if (q.status) where.push(`status = ${p.add(q.status)}`);
    if (q.priority) where.push(`priority = ${p.add(q.priority)}`);
    const { rows } = await db.query<TaskRow>(`${SELECT} WHERE ${where.join(' AND ')} ${ORDER} LIMIT ${p.add(q.limit)} OFFSET ${p.add(q.offset)}`, p.values);
    return rows;
  }

  /** Open tasks due before `today` (the firm's date: §4 overdue, read as calendar dates). */
  async overdue(db: Queryable, reach: TaskReach, today: string): Promise<TaskRow[]> {
    const p = new SqlParams();
    const { rows } = await db.query<TaskRow>(`${SELECT} WHERE ${reachableTasks(reach, p)} AND ${OPEN} AND due_date < ${p.add(today)}::date ${ORDER} LIMIT 500`, p.values);
    return rows;
  }

  /** Open tasks due from `today` (the firm's date) to `days` days ahead. */
  async upcoming(db: Queryable, reach: TaskReach, today: string, days: number): Promise<TaskRow[]> {
    const p = new SqlParams();
    const from = p.add(today);
    const { rows } = await db.query<TaskRow>(
      `${SELECT} WHERE ${reachableTasks(reach, p)} AND ${OPEN} AND due_date >= ${from}::date AND due_date <= ${from}::date + ${p.add(days)}::int ${ORDER} LIMIT 500`, p.values,
    );
    return rows;
  }

  async stats(db: Queryable, reach: TaskReach, today: string): Promise<TaskStats> {
    const p = new SqlParams();
    const overdueBefore = p.add(today);
    const { rows } = await db.query<TaskStats>(
      `SELECT count(*)::int AS total,
         count(*) FILTER (WHERE status = 'pending')::int AS pending,
         count(*) FILTER (WHERE status = 'in_progress')::int AS in_progress,
         count(*) FILTER (WHERE status = 'completed')::int AS completed,
         count(*) FILTER (WHERE ${OPEN} AND due_date < ${overdueBefore}::date)::int AS overdue,
         count(*) FILTER (WHERE created_at >= date_trunc('month', now()))::int AS "thisMonth"
       FROM tasks WHERE ${reachableTasks(reach, p)}`, p.values,
    );
    return rows[0]!;
  }

  async insert(tx: Queryable, fields: TaskFields): Promise<TaskRow> {
    const keys = Object.keys(fields) as (keyof TaskFields)[];
    const p = new SqlParams();
    const values = keys.map((k) => p.add(fields[k]));
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO tasks (${keys.map((k) => COLUMNS[k]).join(', ')}) VALUES (${values.join(', ')}) RETURNING id`, p.values,
    );
    return (await this.get(tx, rows[0]!.id))!;
  }

  /**
   * The next occurrence of a series, or null when another request or replica made it first
   * (the unique series/occurrence pair decides; a concurrent insert waits for the other's commit).
   */
  async insertOccurrence(tx: Queryable, fields: TaskFields): Promise<TaskRow | null> {
    const keys = Object.keys(fields) as (keyof TaskFields)[];
    const p = new SqlParams();
    const values = keys.map((k) => p.add(fields[k]));
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO tasks (${keys.map((k) => COLUMNS[k]).join(', ')}) VALUES (${values.join(', ')})
       ON CONFLICT (series_id, occurrence) DO NOTHING RETURNING id`, p.values,
    );
    return rows[0] ? this.get(tx, rows[0].id) : null;
  }

  async update(tx: Queryable, id: number, fields: TaskFields): Promise<TaskRow> {
    const keys = Object.keys(fields) as (keyof TaskFields)[];
    const p = new SqlParams();
    const sets = keys.map((k) => `${COLUMNS[k]} = ${p.add(fields[k])}`);
    await tx.query(`UPDATE tasks SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = ${p.add(id)}`, p.values);
    return (await this.get(tx, id))!;
  }

  async remove(tx: Queryable, id: number): Promise<void> {
    await tx.query('DELETE FROM tasks WHERE id = $1', [id]);
  }

  /** One status row per client of the task: new clients start pending, removed ones go. */
  async syncClients(tx: Queryable, taskId: number, clientIds: readonly number[]): Promise<void> {
    await tx.query('DELETE FROM task_client_statuses WHERE task_id = $1 AND NOT (client_id = ANY($2::int[]))', [taskId, clientIds]);
    await tx.query(
      `INSERT INTO task_client_statuses (task_id, client_id) SELECT $1, unnest($2::int[]) ON CONFLICT (task_id, client_id) DO NOTHING`,
      [taskId, clientIds],
    );
  }

  async clientStatuses(db: Queryable, taskId: number, reach: TaskReach, statusFilter?: TaskStatus): Promise<TaskClientStatus[]> {
    const p = new SqlParams();
    const where = [`s.task_id = ${p.add(taskId)}`];
    if (reach.clients !== 'all') where.push(`s.client_id = ANY(${p.add(reach.clients)}::int[])`);
    if (statusFilter) where.push(`s.status = ${p.add(statusFilter)}`);
    const { rows } = await db.query<TaskClientStatus & { updatedAt: Date }>(
      `SELECT s.id, s.task_id AS "taskId", s.client_id AS "clientId", c.name AS "clientName", s.status, s.comments,
         s.updated_by_id AS "updatedById", s.updated_by_name AS "updatedByName", s.updated_at AS "updatedAt"
       FROM task_client_statuses s LEFT JOIN ${this.#directory.tables.clients} c ON c.id = s.client_id
       WHERE ${where.join(' AND ')} ORDER BY c.name NULLS LAST, s.client_id`, p.values,
    );
    return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
  }

  async setClientStatus(tx: Queryable, taskId: number, clientId: number, values: { status: TaskStatus; comments: string | null; updatedById: number; updatedByName: string }): Promise<boolean> {
    const r = await tx.query(
      `UPDATE task_client_statuses SET status = $3, comments = $4, updated_by_id = $5, updated_by_name = $6, updated_at = now()
       WHERE task_id = $1 AND client_id = $2`,
      [taskId, clientId, values.status, values.comments, values.updatedById, values.updatedByName],
    );
    return r.rowCount > 0;
  }

  /**
   * Rows as the API shows them, with assignee and client names from the read models. A task
   * may touch clients outside the caller's list (put there by others): their ids stay (an
   * edit keeps them), their names are not shown.
   */
  async present(db: Queryable, reach: TaskReach, rows: readonly TaskRow[]): Promise<Task[]> {
    const users = await this.#users.names(db, rows.flatMap((r) => (r.assignedToId ? [r.assignedToId] : [])));
    const clientIds = [...new Set(rows.flatMap((r) => r.clientIds))].filter((id) => canReachClient(reach, id));
    const clients = new Map<number, string>();
    if (clientIds.length) {
      const { rows: named } = await db.query<{ id: number; name: string }>(`SELECT id, name FROM ${this.#directory.tables.clients} WHERE id = ANY($1::int[])`, [clientIds]);
      for (const c of named) clients.set(c.id, c.name);
    }
    const { progress, comments } = await this.#clientSummaries(db, reach, rows.map((r) => r.id));
    return rows.map((r) => {
      const names = r.clientIds.map((id) => clients.get(id)).filter((n): n is string => !!n);
      const assignee = r.assignedToId ? users.get(r.assignedToId) : undefined;
      return {
        id: r.id, title: r.title, description: r.description, priority: r.priority, status: r.status,
        dueDate: r.dueDate, assignedToId: r.assignedToId, assignedToName: assignee ? assignee.fullName : null,
        createdById: r.createdById, clientIds: r.clientIds.map(Number), clientName: names.length ? names.join(', ') : null,
        reportTypeId: r.reportTypeId, isRecurring: r.isRecurring, recurringPattern: r.recurringPattern,
        recurringEndDate: r.recurringEndDate, completedAt: iso(r.completedAt),
        createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
        clientProgress: progress.get(r.id) ?? { done: 0, total: 0 },
        latestClientComment: comments.get(r.id) ?? null,
      };
    });
  }

  /** Per task, over the clients the caller reaches: how many are completed, and the newest comment. */
  async #clientSummaries(db: Queryable, reach: TaskReach, taskIds: readonly number[]) {
    const progress = new Map<number, Task['clientProgress']>();
    const comments = new Map<number, TaskClientComment>();
    if (!taskIds.length) return { progress, comments };
    const p = new SqlParams();
    const where = [`s.task_id = ANY(${p.add(taskIds)}::int[])`];
    if (reach.clients !== 'all') where.push(`s.client_id = ANY(${p.add(reach.clients)}::int[])`);
    const counted = await db.query<{ taskId: number; done: number; total: number }>(
      `SELECT s.task_id AS "taskId", count(*) FILTER (WHERE s.status = 'completed')::int AS done, count(*)::int AS total
       FROM task_client_statuses s WHERE ${where.join(' AND ')} GROUP BY s.task_id`, p.values,
    );
    for (const c of counted.rows) progress.set(c.taskId, { done: c.done, total: c.total });
    const latest = await db.query<TaskClientComment & { taskId: number; updatedAt: Date }>(
      `SELECT DISTINCT ON (s.task_id) s.task_id AS "taskId", s.client_id AS "clientId", c.name AS "clientName", s.comments,
         s.updated_by_name AS "updatedByName", s.updated_at AS "updatedAt"
       FROM task_client_statuses s LEFT JOIN ${this.#directory.tables.clients} c ON c.id = s.client_id
       WHERE ${where.join(' AND ')} AND s.comments IS NOT NULL
       ORDER BY s.task_id, s.updated_at DESC, s.id DESC`, p.values,
    );
    for (const { taskId, ...comment } of latest.rows) comments.set(taskId, { ...comment, updatedAt: comment.updatedAt.toISOString() });
    return { progress, comments };
  }
}
