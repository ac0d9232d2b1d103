import { tablePortability, type ServicePortability } from '@ledgerline/kit/portability/portability.ts';

/**
 * Identity's part of a firm: its tenant tables (users with their password hashes, roles,
 * access lists) row for row, plus the platform-wide username index the generic /login
 * uses. A username another firm of this installation already has stays that firm's at
 * /login; the imported user signs in on the firm's own login page.
 */
export const identityPortability: ServicePortability = {
  export: tablePortability.export,
  async import(ctx) {
    await tablePortability.import(ctx);
    await ctx.db.query(
      'INSERT INTO portal.user_logins (username, schema_name) SELECT username, $1 FROM users ON CONFLICT (username) DO NOTHING', [ctx.db.schema]);
  },
  async discard(ctx) {
    await ctx.db.query('DELETE FROM portal.user_logins WHERE schema_name = $1', [ctx.db.schema]);
  },
};
