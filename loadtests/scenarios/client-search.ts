import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/** Staff look a client up by part of its name (the clients page's search box). */
export const clientSearchScenario: Scenario = {
  name: 'client search',
  weight: 10,
  groups: { clients: { p95Ms: 300 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA', 'CPA');
    const term = pick(['LT Client', 'Client 1', 'lt client 2', 'Client'], ctx);
    const r = await ctx.http.request<unknown[]>('clients', 'GET', `${tenantApi(ctx, 'clients')}?search=${encodeURIComponent(term)}`, { token: user.token });
    ctx.check('client search answers a list', r.ok && Array.isArray(r.body));
  },
};
