import { ROLES } from '../auth/roles.ts';
import type { Queryable } from '../db/database.ts';

/** A live user who reaches a client's records, and whether they are that client's own user. */
export interface ReachingUser {
  userId: number;
  /** The report types that limit what they see ('all': Admin, DTA and the client's users). */
  reportTypes: 'all' | number[];
  isClient: boolean;
}

/**
 * The firm's live users who reach a client (access-scope.ts, as a query over the user-access
 * read model `userAccessTable`): Admin and DTA, the client's own users (their first client), and
 * staff whose client list holds it, each with the report types that limit them. Whoever pushes
 * a change to browsers asks this, never a firm room (which holds other clients' users too).
 */
export async function usersReaching(db: Queryable, userAccessTable: string, clientId: number): Promise<ReachingUser[]> {
  const res = await db.query<{ user_id: number; limited: boolean; is_client: boolean; report_type_ids: number[] }>(
    `SELECT user_id, NOT (lower(trim(role)) = ANY($2::text[]) OR lower(trim(role)) = $3) AS limited, lower(trim(role)) = $3 AS is_client, report_type_ids
     FROM ${userAccessTable} WHERE NOT deleted AND (
       lower(trim(role)) = ANY($2::text[])
       OR (lower(trim(role)) = $3 AND client_ids[1] = $1)
       OR (lower(trim(role)) <> $3 AND $1 = ANY(client_ids))
     ) ORDER BY user_id`, [clientId, [ROLES.admin, ROLES.dta].map((x) => x.toLowerCase()), ROLES.client.toLowerCase()]);
  return res.rows.map((x) => ({ userId: x.user_id, reportTypes: x.limited ? x.report_type_ids.map(Number) : 'all', isClient: x.is_client }));
}
