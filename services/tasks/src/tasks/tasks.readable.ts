import { tablePortability, type ServicePortability } from '@ledgerline/kit/portability/portability.ts';
import { firmDateTime, writeReadableCsv } from '@ledgerline/kit/portability/readable-csv.ts';

interface ReadableTask {
  id: number;
  title: string;
  description: string | null;
  status: string;
  priority: string;
  due_date: string | null;
  assigned_to: string | null;
  clients: string[];
  report_type: string | null;
  recurring_pattern: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/**
 * The tasks service's part of a firm: its tables row for row (the default), and in the
 * readable copy `tasks.csv`, with the names of the assignee, clients and report type from
 * the service's own read models (`tables`).
 */
export function tasksPortability(tables: { users: string; clients: string; reportTypes: string }): ServicePortability {
  return {
    ...tablePortability,
    async readable(ctx) {
      const { rows } = await ctx.db.query<ReadableTask>(
        `SELECT t.id, t.title, t.description, t.status, t.priority, to_char(t.due_date, 'YYYY-MM-DD') AS due_date, u.full_name AS assigned_to,
           coalesce((SELECT array_agg(c.name ORDER BY lower(c.name)) FROM ${tables.clients} c WHERE c.id = ANY(t.client_ids)), '{}') AS clients,
           rt.name AS report_type, t.recurring_pattern, t.created_at, t.completed_at
         FROM tasks t
         LEFT JOIN ${tables.users} u ON u.user_id = t.assigned_to_id
         LEFT JOIN ${tables.reportTypes} rt ON rt.id = t.report_type_id
         ORDER BY t.due_date NULLS LAST, t.id`);
      await writeReadableCsv(ctx, 'tasks.csv', [
        ['id', (t) => t.id],
        ['title', (t) => t.title],
        ['description', (t) => t.description],
        ['status', (t) => t.status],
        ['priority', (t) => t.priority],
        ['due date', (t) => t.due_date],
        ['assigned to', (t) => t.assigned_to],
        ['clients', (t) => t.clients.join('; ')],
        ['report type', (t) => t.report_type],
        ['repeats', (t) => t.recurring_pattern],
        ['created at', (t) => firmDateTime(t.created_at, ctx.timeZone)],
        ['completed at', (t) => firmDateTime(t.completed_at, ctx.timeZone)],
      ], rows);
    },
  };
}
