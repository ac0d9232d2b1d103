import type { Scenario } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/** The Admin's and DTA's landing page: totals, recent files, charts. */
export const dashboardScenario: Scenario = {
  name: 'dashboard',
  weight: 5,
  groups: { dashboard: { p95Ms: 1000 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA');
    const r = await ctx.http.request<{ totals?: unknown }>('dashboard', 'GET', tenantApi(ctx, 'dashboard'), { token: user.token });
    ctx.check('dashboard answers an overview', r.ok && typeof r.body === 'object');
  },
};
