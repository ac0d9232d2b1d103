import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { WS_DELIVERY_GROUP } from '../lib/metrics.ts';
import type { Scenario, VuContext } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

const NOTIFICATION_PUSH = 'notification:new';
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Realtime delivery: each VU keeps a socket.io connection (websocket transport, through the
 * gateway) as a staff user; an Admin assigns that user a task, and the time from the
 * POST's answer to the notification's arrival on the socket is the delivery time.
 */
export const realtimeScenario: Scenario = {
  name: 'realtime delivery',
  weight: 3,
  groups: { tasks: { p95Ms: 500 }, [WS_DELIVERY_GROUP]: { p95Ms: 1000 } },
  async run(ctx) {
    const { socket, userId } = await socketOf(ctx);
    const admin = await userOf(ctx, 'Admin');
    const title = `Load test push ${randomBytes(4).toString('hex')}`;
    const delivered = new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => { socket.off(NOTIFICATION_PUSH, onPush); resolve(null); }, DELIVERY_TIMEOUT_MS);
      const onPush = (n: { taskTitle?: string | null }) => {
        if (n.taskTitle !== title) return;
        clearTimeout(timer);
        socket.off(NOTIFICATION_PUSH, onPush);
        resolve(performance.now());
      };
      socket.on(NOTIFICATION_PUSH, onPush);
    });
    const created = await ctx.http.request<{ id?: number }>('tasks', 'POST', tenantApi(ctx, 'tasks'), { token: admin.token, json: { title, assignedToId: userId } });
    const answeredAt = performance.now();
    if (created.body.id !== undefined) ctx.fixture.created.tasks.push(created.body.id);
    const arrivedAt = await delivered;
    // Pushed before the answer arrived counts as 0 ms.
    ctx.recorder.record({ group: WS_DELIVERY_GROUP, ms: arrivedAt === null ? DELIVERY_TIMEOUT_MS : Math.max(0, arrivedAt - answeredAt), ok: arrivedAt !== null });
    ctx.check('notification delivered on the socket', arrivedAt !== null);
  },
};

/** This VU's socket.io connection as a staff user (one per VU, as one per browser tab), opened on first use. */
export async function socketOf(ctx: VuContext): Promise<{ socket: Socket; userId: number }> {
  const kept = ctx.state.get('realtime') as { socket: Socket; userId: number } | undefined;
  if (kept?.socket.connected) return kept;
  kept?.socket.close();
  const user = await userOf(ctx, 'DTA', 'CPA');
  const socket = io(ctx.http.baseUrl, { path: '/socket.io', auth: { token: user.token, tenant: ctx.fixture.tenant }, transports: ['websocket'], reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const entry = { socket, userId: user.id };
  ctx.state.set('realtime', entry);
  ctx.onClose(() => { socket.close(); });
  return entry;
}
