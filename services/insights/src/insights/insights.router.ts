import express, { type Router } from 'express';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Conflict, DomainError } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  canMoveInsight, INSIGHT_MESSAGES, INSIGHT_UNDO_MINUTES, insightBulkStatusSchema, insightUndoSchema, insightListQuerySchema, insightRuleSettingsSchema, insightUpdateSchema,
  type AnalysisResult, type ComplianceInsight, type FirmAnalysisResult, type InsightBulkResult,
} from '@ledgerline/contracts/insights.contracts.ts';
import { readableInsights, requireAdmin, requireStaff, reviewable } from '../access-rules.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import type { InsightStore } from './insight.store.ts';
import type { RuleSettingsStore } from './rule-settings.store.ts';

/** Spec 001 §7 "Insights", the firm's rule settings, and the on-demand analysis (Admin only). */
export function createInsightsRouter(deps: {
  api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; insights: InsightStore; settings: RuleSettingsStore; analysis: AnalysisService; directory: DirectoryLookup;
}): Router {
  const { api, tenants, insights, settings, analysis, directory } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];

  api.route(router, { method: 'get', path: '/api/compliance-insights', summary: 'Insights about the caller\'s clients, newest first (clientId, status, priority filters)', query: insightListQuerySchema, before }, async ({ res, query }) => {
    const t = await tenants.ofRequest(res);
    return insights.list(t.db, (p) => readableInsights(t, p), query);
  });

  api.route(router, { method: 'get', path: '/api/compliance-insights/rules', summary: 'The firm\'s threshold_alert keywords and thresholds (defaults until an Admin saves them)', before }, async ({ res }) => {
    const t = await tenants.ofRequest(res);
    requireStaff(t);
    return settings.get(t.db);
  });

  api.route(router, { method: 'put', path: '/api/compliance-insights/rules', summary: 'Set the firm\'s threshold_alert keywords and thresholds (Admin)', body: insightRuleSettingsSchema, before }, async ({ res, body }) => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t);
    return settings.save(t.db, body, actorId(t.claims));
  });

  api.route(router, { method: 'post', path: '/api/compliance-insights/bulk-status', summary: 'Move several insights at once (same transitions as one by one); answers those moved and why each other one was not', body: insightBulkStatusSchema, before }, async ({ res, body }): Promise<InsightBulkResult> => {
    const t = await tenants.ofRequest(res);
    requireStaff(t);
    const reviewer = { id: actorId(t.claims), name: actorName(t.claims) };
    const refused: InsightBulkResult['refused'] = [];
    const moved: number[] = [];
    await t.db.transaction(async (tx) => {
      for (const id of body.ids) {
        try {
          const insight = reviewable(t, await insights.get(tx, id, true));
          if (!canMoveInsight(insight.status, body.status)) throw new Conflict(INSIGHT_MESSAGES.transition(insight.status, body.status));
          await insights.review(tx, id, body.status, reviewer);
          moved.push(id);
        } catch (err) {
          // One insight out of reach or already final does not stop the others.
          if (!(err instanceof DomainError)) throw err;
          refused.push({ id, message: err.message });
        }
      }
    });
    const updated = await Promise.all(moved.map(async (id) => (await insights.get(t.db, id))!));
    return { updated, refused };
  });

  api.route(router, {
    method: 'post', path: '/api/compliance-insights/undo-dismissal', body: insightUndoSchema, before,
    summary: `Undo dismissals the caller made in the last ${INSIGHT_UNDO_MINUTES} minutes (the toast's Undo): each insight gets back its status and reviewer; answers those restored and why each other one was not`,
  }, async ({ res, body }): Promise<InsightBulkResult> => {
    const t = await tenants.ofRequest(res);
    requireStaff(t);
    const refused: InsightBulkResult['refused'] = [];
    const restored: number[] = [];
    await t.db.transaction(async (tx) => {
      for (const id of body.ids) {
        try {
          reviewable(t, await insights.get(tx, id, true));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          refused.push({ id, message: err.message });
          continue;
        }
        const outcome = await insights.undoDismissal(tx, id, actorId(t.claims), INSIGHT_UNDO_MINUTES);
        if (outcome === 'done') restored.push(id);
        else refused.push({ id, message: outcome === 'superseded' ? INSIGHT_MESSAGES.undoSuperseded : INSIGHT_MESSAGES.notUndoable });
      }
    });
    const updated = await Promise.all(restored.map(async (id) => (await insights.get(t.db, id))!));
    return { updated, refused };
  });

  api.route(router, { method: 'post', path: '/api/compliance-insights/analyze-all', summary: 'Analyse every client of the firm now (Admin)', status: 200, before }, async ({ res }): Promise<FirmAnalysisResult> => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t);
    const result = await t.db.transaction((tx) => analysis.analyzeFirm(tx, t.shortName));
    return { message: INSIGHT_MESSAGES.firmAnalysis(result.created, result.clients), newInsights: result.created, retired: result.retired, clients: result.clients };
  });

  api.route(router, { method: 'put', path: '/api/compliance-insights/:id', summary: 'Move an insight on (pending → reviewed | acted_upon | dismissed; reviewed → acted_upon | dismissed); the reviewer is the caller', body: insightUpdateSchema, before }, async ({ res, params, body }) => {
    const t = await tenants.ofRequest(res);
    const id = parsePathId(params.id, INSIGHT_MESSAGES.notFound);
    await t.db.transaction(async (tx) => {
      const insight = reviewable(t, await insights.get(tx, id, true));
      if (!canMoveInsight(insight.status, body.status)) throw new Conflict(INSIGHT_MESSAGES.transition(insight.status, body.status));
      await insights.review(tx, id, body.status, { id: actorId(t.claims), name: actorName(t.claims) });
    });
    return (await insights.get(t.db, id)) as ComplianceInsight;
  });

  api.route(router, { method: 'post', path: '/api/public/clients/:clientId/analyze-compliance', summary: 'Analyse one client now (Admin of the client\'s firm; the path is the spec\'s, the call is not public)', status: 200, before }, async ({ res, params }): Promise<AnalysisResult> => {
    const t = await tenants.ofRequest(res);
    requireAdmin(t);
    const client = await directory.client(t, parsePathId(params.clientId, INSIGHT_MESSAGES.clientNotFound));
    const result = await t.db.transaction((tx) => analysis.analyzeClient(tx, t.shortName, client.id));
    return { message: INSIGHT_MESSAGES.analysis(result.created), newInsights: result.created, retired: result.retired };
  });
  return router;
}
