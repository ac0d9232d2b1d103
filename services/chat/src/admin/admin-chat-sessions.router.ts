import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { sqlState } from '@ledgerline/kit/db/sql-errors.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate, authOf, type CallerCheck } from '@ledgerline/kit/http/authenticate.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { CHAT_MESSAGES, type AdminChatSession } from '@ledgerline/contracts/chat.contracts.ts';
import type { ChatSessionStore } from '../sessions/chat-session.store.ts';

const UNDEFINED_TABLE = '42P01';

/**
 * GET /api/admin/chat-sessions: every chat session of every active firm (spec 001 §7:
 * fileId, userId), the administrator dashboard's 'AI Chat Sessions'. Never the messages.
 */
export function createAdminChatSessionsRouter(deps: {
  api: ApiRegistry; db: Database; sessions: ChatSessionStore; tokens: TokenVerifier; checkCaller: CallerCheck; logger: Logger;
  firms: () => Promise<TenantEventPayload[]>;
}): Router {
  const { api, db, sessions, logger } = deps;
  const router = express.Router();
  api.route(router, {
    method: 'get', path: '/api/admin/chat-sessions', summary: 'Chat sessions (id, fileId, userId, firm) across every active firm (platform administrators)',
    before: [authenticate(deps.tokens, deps.checkCaller)],
  }, async ({ res }): Promise<AdminChatSession[]> => {
    if (!authOf(res).claims.platformAdmin) throw new Forbidden(CHAT_MESSAGES.adminOnly);
    const out: AdminChatSession[] = [];
    for (const firm of (await deps.firms()).filter((f) => f.isActive)) {
      try {
        const rows = await sessions.all(db.forSchema(tenantSchema(firm.schemaName)));
        out.push(...rows.map((s) => ({ ...s, tenantName: firm.name })));
      } catch (err) {
        // A firm whose schema this service has not migrated yet has no sessions.
        if (sqlState(err) !== UNDEFINED_TABLE) throw err;
        logger.warn({ tenant: firm.shortName }, 'chat tables missing in a firm schema; skipped');
      }
    }
    return out;
  });
  return router;
}
