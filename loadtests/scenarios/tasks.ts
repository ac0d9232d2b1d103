import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/** Staff read their task list and stats, and now and then add a task for a client. */
export const tasksScenario: Scenario = {
  name: 'tasks',
  weight: 8,
  groups: { tasks: { p95Ms: 500 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA', 'CPA');
    const list = await ctx.http.request<unknown[]>('tasks', 'GET', `${tenantApi(ctx, 'tasks')}?limit=50`, { token: user.token });
    ctx.check('task list answers a list', list.ok && Array.isArray(list.body));
    const stats = await ctx.http.request('tasks', 'GET', tenantApi(ctx, 'tasks/stats'), { token: user.token });
    ctx.check('task stats answer', stats.ok);
    if (ctx.iteration % 4 !== 0 || user.role === 'CPA') return;
    const created = await ctx.http.request<{ id?: number }>('tasks', 'POST', tenantApi(ctx, 'tasks'), {
      token: user.token, json: { title: `Load test task ${ctx.vu}-${ctx.iteration}`, priority: 'medium', clientIds: [pick(ctx.fixture.clientIds, ctx)] },
    });
    if (created.body.id !== undefined) ctx.fixture.created.tasks.push(created.body.id);
    ctx.check('task created', created.status === 201);
  },
};
