import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { Notification } from '@ledgerline/contracts/notifications.contracts.ts';
import type { notificationRequestSchema } from '@ledgerline/contracts/notifications.contracts.ts';
import type { z } from 'zod';

const SELECT = `SELECT id, title, message, type, category, user_id AS "userId", task_id AS "taskId", task_title AS "taskTitle",
  reminder_id AS "reminderId", client_id AS "clientId", client_name AS "clientName", is_read AS "isRead",
  action_url AS "actionUrl", metadata, created_at AS "createdAt" FROM notifications`;

type Row = Omit<Notification, 'createdAt'> & { createdAt: Date };
const present = (r: Row): Notification => ({ ...r, createdAt: r.createdAt.toISOString() });

/** Every read and write names its user: a caller only ever reaches their own notifications. */
export class NotificationStore {
  /** Null when this event was stored already (a redelivery). */
  async insert(tx: Queryable, eventId: string, n: z.output<typeof notificationRequestSchema>): Promise<Notification | null> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO notifications (event_id, user_id, title, message, type, category, task_id, task_title, reminder_id, client_id, client_name, action_url, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb)
       ON CONFLICT (event_id) DO NOTHING RETURNING id`,
      [eventId, n.userId, n.title, n.message, n.type, n.category, n.taskId ?? null, n.taskTitle ?? null, n.reminderId ?? null,
        n.clientId ?? null, n.clientName ?? null, n.actionUrl ?? null, n.metadata ? JSON.stringify(n.metadata) : null],
    );
    return rows[0] ? this.get(tx, n.userId, rows[0].id) : null;
  }

  async get(db: Queryable, userId: number, id: number): Promise<Notification | null> {
    const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1 AND user_id = $2`, [id, userId]);
    return rows[0] ? present(rows[0]) : null;
  }

  async list(db: Queryable, userId: number, q: { isRead?: boolean; limit: number }): Promise<Notification[]> {
    const params: unknown[] = [userId, q.limit];
    const read = q.isRead === undefined ? '' : ` AND is_read = $${params.push(q.isRead)}`;
    const { rows } = await db.query<Row>(`${SELECT} WHERE user_id = $1${read} ORDER BY created_at DESC, id DESC LIMIT $2`, params);
    return rows.map(present);
  }

  async unreadCount(db: Queryable, userId: number): Promise<number> {
    const { rows } = await db.query<{ n: number }>('SELECT unread AS n FROM notification_unread_counts WHERE user_id = $1', [userId]);
    return rows[0]?.n ?? 0;
  }

  async markRead(db: Queryable, userId: number, id: number): Promise<Notification | null> {
    const r = await db.query('UPDATE notifications SET is_read = true WHERE id = $1 AND user_id = $2', [id, userId]);
    return r.rowCount ? this.get(db, userId, id) : null;
  }

  async markAllRead(db: Queryable, userId: number): Promise<number> {
    return (await db.query('UPDATE notifications SET is_read = true WHERE user_id = $1 AND NOT is_read', [userId])).rowCount;
  }

  async remove(db: Queryable, userId: number, id: number): Promise<boolean> {
    return (await db.query('DELETE FROM notifications WHERE id = $1 AND user_id = $2', [id, userId])).rowCount > 0;
  }

  /** Removes (`message` null) or rewrites the users' notifications about `about`; answers whose changed. */
  async revise(tx: Queryable, r: { userIds: number[]; about: Record<string, number>; message: string | null }): Promise<number[]> {
    const where = 'user_id = ANY($1::int[]) AND metadata @> $2::jsonb';
    const { rows } = r.message === null
      ? await tx.query<{ user_id: number }>(`DELETE FROM notifications WHERE ${where} RETURNING user_id`, [r.userIds, JSON.stringify(r.about)])
      : await tx.query<{ user_id: number }>(`UPDATE notifications SET message = $3 WHERE ${where} RETURNING user_id`, [r.userIds, JSON.stringify(r.about), r.message]);
    return [...new Set(rows.map((x) => x.user_id))];
  }

  /** For the email job (no caller: the scheduler runs it). */
  async byId(db: Queryable, id: number): Promise<Notification | null> {
    const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
    return rows[0] ? present(rows[0]) : null;
  }
}
