import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/**
 * Questions a firm may ask per minute: the product's own AI budget
 * (AI_FIRM_REQUESTS_PER_MINUTE, 60 by default, 429 beyond) is a limit by design, not a
 * capacity to find. Past it in a minute, VUs read their sessions instead. Set
 * LOADTEST_CHAT_PER_MINUTE below the deployment's budget when it was raised.
 */
const ASKS_PER_MINUTE = Number(process.env.LOADTEST_CHAT_PER_MINUTE ?? 50);
/** One user may ask at most this share of the firm's minute (AI_USER_SHARE_PERCENT, 50 by default). */
const ASKS_PER_USER_PER_MINUTE = Math.max(1, Math.floor(ASKS_PER_MINUTE / 2));
/** When the questions of the last minute were asked, by the firm and by each user (the product's windows slide too). */
const askedAt: number[] = [];
const askedAtBy = new Map<number, number[]>();

const within = (times: number[], now: number): number[] => {
  while (times.length && times[0]! <= now - 60_000) times.shift();
  return times;
};

const mayAsk = (userId: number): boolean => {
  const now = Date.now();
  const mine = within(askedAtBy.get(userId) ?? [], now);
  askedAtBy.set(userId, mine);
  if (within(askedAt, now).length >= ASKS_PER_MINUTE || mine.length >= ASKS_PER_USER_PER_MINUTE) return false;
  askedAt.push(now);
  mine.push(now);
  return true;
};

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
    if (!mayAsk(user.id)) {
      const sessions = await ctx.http.request<unknown[]>('chat', 'GET', `${tenantApi(ctx, 'chat/sessions')}?fileId=${fileId}`, { token: user.token });
      ctx.check('chat sessions answer', sessions.ok && Array.isArray(sessions.body));
      return;
    }
    const r = await ctx.http.request<{ assistantMessage?: unknown }>('chat', 'POST', tenantApi(ctx, 'chat/ask'), {
      token: user.token, json: { fileId, message: `What does this document say about ${pick(ctx.fixture.searchTerms, ctx)}?` },
    });
    ctx.check(`chat answers${r.ok ? '' : ` (${r.status})`}`, r.ok && r.body.assistantMessage !== undefined);
  },
};
