import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/**
 * A question about a document. Without an AI endpoint configured the product answers with
 * excerpts of the file (what a load test should drive: no external service to pay for).
 */
export const chatScenario: Scenario = {
  name: 'chat (excerpt mode)',
  weight: 2,
  groups: { chat: { p95Ms: 3000 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA');
    const fileId = pick(ctx.fixture.fileIds, ctx);
    const r = await ctx.http.request<{ assistantMessage?: unknown }>('chat', 'POST', tenantApi(ctx, 'chat/ask'), {
      token: user.token, json: { fileId, message: `What does this document say about ${pick(ctx.fixture.searchTerms, ctx)}?` },
    });
    ctx.check('chat answers', r.ok && r.body.assistantMessage !== undefined);
  },
};
