import { exportOwnTables, tablePortability, type ReadableContext, type ServicePortability } from '@ledgerline/kit/portability/portability.ts';
import { firmDateTime, writeReadableCsv } from '@ledgerline/kit/portability/readable-csv.ts';

/** Authenticator secrets as MfaService seals them: bound to this installation's key, the schema and the user. */
export interface TotpSeal {
  sealTotp(schema: string, userId: number, secret: string): string;
  openTotp(schema: string, userId: number, sealed: string): string;
}

/**
 * Identity's part of a firm: its tenant tables (users with their password hashes, roles,
 * access lists, second factors) row for row, plus the platform-wide username index the
 * generic /login uses. A username another firm of this installation already has stays that
 * firm's at /login; the imported user signs in on the firm's own login page.
 *
 * Authenticator secrets leave open (as private as the password hashes beside them) and are
 * sealed again for the new firm's rows, since their seal would open nowhere else: not under
 * another installation's key, nor for another schema. A sign-in challenge's sealed
 * password lives minutes and leaves as null.
 */
export function identityPortability(seal: TotpSeal): ServicePortability {
  const open = (schema: string, userId: number, sealed: unknown) => (typeof sealed === 'string' ? seal.openTotp(schema, userId, sealed) : null);
  return {
    export: (ctx) => exportOwnTables(ctx, {
      rows: {
        mfa_factors: (row) => ({
          ...row,
          totp_secret: open(ctx.db.schema, row.user_id as number, row.totp_secret),
          totp_pending_secret: open(ctx.db.schema, row.user_id as number, row.totp_pending_secret),
        }),
        mfa_challenges: (row) => ({ ...row, sealed_password: null }),
      },
    }),
    async import(ctx) {
      await tablePortability.import(ctx);
      const { rows } = await ctx.db.query<{ user_id: number; totp_secret: string | null; totp_pending_secret: string | null }>(
        'SELECT user_id, totp_secret, totp_pending_secret FROM mfa_factors WHERE totp_secret IS NOT NULL OR totp_pending_secret IS NOT NULL');
      const sealed = (userId: number, secret: string | null) => (secret === null ? null : seal.sealTotp(ctx.db.schema, userId, secret));
      for (const r of rows) {
        await ctx.db.query('UPDATE mfa_factors SET totp_secret = $2, totp_pending_secret = $3 WHERE user_id = $1',
          [r.user_id, sealed(r.user_id, r.totp_secret), sealed(r.user_id, r.totp_pending_secret)]);
      }
      await ctx.db.query(
        'INSERT INTO portal.user_logins (username, schema_name) SELECT username, $1 FROM users ON CONFLICT (username) DO NOTHING', [ctx.db.schema]);
    },
    async discard(ctx) {
      await ctx.db.query('DELETE FROM portal.user_logins WHERE schema_name = $1', [ctx.db.schema]);
    },
    readable: readableUsers,
  };
}

interface ReadableUser {
  id: number;
  username: string;
  full_name: string;
  email: string | null;
  role: string;
  client_ids: number[];
  report_type_ids: number[] | null;
  created_at: Date;
  last_login_at: Date | null;
}

/** `users.csv` of the readable copy: who the firm's users are and what they reach; no credentials. */
async function readableUsers(ctx: ReadableContext): Promise<void> {
  const { rows } = await ctx.db.query<ReadableUser>(
    `SELECT u.id, u.username, u.full_name, u.email, r.name AS role, u.report_type_ids, u.created_at, u.last_login_at,
       coalesce((SELECT array_agg(a.client_id ORDER BY a.position) FROM user_client_access a WHERE a.user_id = u.id), '{}') AS client_ids
     FROM users u JOIN roles r ON r.id = u.role_id ORDER BY u.id`);
  await writeReadableCsv(ctx, 'users.csv', [
    ['id', (u) => u.id],
    ['username', (u) => u.username],
    ['full name', (u) => u.full_name],
    ['email', (u) => u.email],
    ['role', (u) => u.role],
    // The access lists as ids (clients.csv and report-types.csv name them), space-separated.
    ['client ids', (u) => u.client_ids.join(' ')],
    ['report type ids', (u) => (u.report_type_ids ?? []).join(' ')],
    ['created at', (u) => firmDateTime(u.created_at, ctx.timeZone)],
    ['last sign-in', (u) => firmDateTime(u.last_login_at, ctx.timeZone)],
  ], rows);
}
