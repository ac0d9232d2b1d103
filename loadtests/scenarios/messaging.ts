import { randomBytes } from 'node:crypto';
import { signIn } from '../fixture.ts';
import { WS_DELIVERY_GROUP } from '../lib/metrics.ts';
import type { Scenario, VuContext } from '../lib/scenario.ts';
import { socketOf } from './realtime.ts';
import { tenantApi, userOf } from './users.ts';

const MESSAGE_PUSH = 'messaging:message';
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Messaging: an Admin writes to this VU's staff user in their conversation; the time from
 * the POST's answer to the message's arrival on the user's socket is the delivery time. The
 * user then reads the thread, marks it read and checks the unread count, as the Messages page
 * does. Conversations have no delete call and go with the load-test firm.
 */
export const messagingScenario: Scenario = {
  name: 'messaging',
  weight: 4,
  groups: { messaging: { p95Ms: 500 }, [WS_DELIVERY_GROUP]: { p95Ms: 1000 } },
  async run(ctx) {
    const { socket, userId } = await socketOf(ctx);
    const admin = await userOf(ctx, 'Admin');
    const conversationId = await conversationOf(ctx, admin.token, userId);
    if (conversationId === null) return;
    const content = `Load test message ${randomBytes(4).toString('hex')}`;
    const delivered = new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => { socket.off(MESSAGE_PUSH, onPush); resolve(null); }, DELIVERY_TIMEOUT_MS);
      const onPush = (push: { message?: { content?: string } }) => {
        if (push.message?.content !== content) return;
        clearTimeout(timer);
        socket.off(MESSAGE_PUSH, onPush);
        resolve(performance.now());
      };
      socket.on(MESSAGE_PUSH, onPush);
    });
    const messages = tenantApi(ctx, `conversations/${conversationId}/messages`);
    const sent = await ctx.http.request<{ id?: number }>('messaging', 'POST', messages, { token: admin.token, json: { content, messageType: 'text' } });
    const answeredAt = performance.now();
    ctx.check('message sent', sent.status === 201);
    const arrivedAt = await delivered;
    ctx.recorder.record({ group: WS_DELIVERY_GROUP, ms: arrivedAt === null ? DELIVERY_TIMEOUT_MS : Math.max(0, arrivedAt - answeredAt), ok: arrivedAt !== null });
    ctx.check('message delivered on the socket', arrivedAt !== null);

    const reader = await signIn(ctx.http, ctx.fixture, ctx.fixture.users.find((u) => u.id === userId)!);
    const thread = await ctx.http.request<{ id: number }[]>('messaging', 'GET', messages, { token: reader });
    ctx.check('thread answers a list', thread.ok && Array.isArray(thread.body));
    if (sent.body.id !== undefined) {
      const read = await ctx.http.request('messaging', 'POST', tenantApi(ctx, `messages/${sent.body.id}/read`), { token: reader });
      ctx.check('message marked read', read.ok);
    }
    const unread = await ctx.http.request<{ count?: number }>('messaging', 'GET', tenantApi(ctx, 'messages/unread/count'), { token: reader });
    ctx.check('unread count answers', unread.ok && typeof unread.body.count === 'number');
  },
};

/** The conversation between the VU's user and the Admin, made on first use (null when that failed). */
async function conversationOf(ctx: VuContext, adminToken: string, userId: number): Promise<number | null> {
  const key = `messaging:${userId}`;
  const kept = ctx.state.get(key) as number | undefined;
  if (kept !== undefined) return kept;
  const created = await ctx.http.request<{ id?: number }>('messaging', 'POST', tenantApi(ctx, 'conversations'), {
    token: adminToken, json: { title: `Load test ${ctx.vu}`, participantIds: [userId] },
  });
  ctx.check('conversation created', created.status === 201);
  if (created.body.id === undefined) return null;
  ctx.state.set(key, created.body.id);
  return created.body.id;
}
