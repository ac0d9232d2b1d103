import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/**
 * The Compliance screen as staff open it: this month's calendar (three items a day and the
 * day counts), the overdue and upcoming panels (three items and the count) and a page of the
 * tracker table. Now and then an Admin adds a monthly schedule and generates this year, so the
 * tracker grows during the run; schedules have no delete call and go with the load-test firm.
 */
export const complianceScenario: Scenario = {
  name: 'compliance tracker',
  weight: 4,
  groups: { compliance: { p95Ms: 500 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA', 'CPA');
    const now = new Date();
    const year = now.getUTCFullYear();
    const range = `startDate=${new Date(Date.UTC(year, now.getUTCMonth(), 1)).toISOString()}&endDate=${new Date(Date.UTC(year, now.getUTCMonth() + 1, 0, 23, 59, 59, 999)).toISOString()}`;
    const tracker = tenantApi(ctx, 'compliance-tracker');
    for (const [what, path] of [
      ['calendar', `${tracker}?${range}&perDay=3`], ['overdue panel', `${tracker}/overdue?limit=3`],
      ['upcoming panel', `${tracker}/upcoming?limit=3`], ['tracker page', `${tracker}?limit=25`],
    ] as const) {
      const r = await ctx.http.request<unknown[]>('compliance', 'GET', path, { token: user.token });
      ctx.check(`compliance ${what} answers a list`, r.ok && Array.isArray(r.body));
    }
    if (ctx.iteration % 5 !== 0 || user.role !== 'Admin') return;
    const schedule = await ctx.http.request<{ id?: number }>('compliance', 'POST', tenantApi(ctx, 'compliance-schedules'), {
      token: user.token, json: { clientId: pick(ctx.fixture.clientIds, ctx), reportTypeId: pick(ctx.fixture.reportTypeIds, ctx), frequency: 'monthly', dueDayOfMonth: 1 + (ctx.iteration % 28) },
    });
    ctx.check('compliance schedule created', schedule.status === 201);
    if (schedule.body.id === undefined) return;
    const generated = await ctx.http.request('compliance', 'POST', tenantApi(ctx, `compliance-schedules/${schedule.body.id}/generate/${year}`), { token: user.token });
    ctx.check('compliance year generated', generated.ok);
  },
};
