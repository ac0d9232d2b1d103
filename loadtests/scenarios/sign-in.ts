import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi } from './users.ts';

/** A user signs in at their firm's login page (a password hash check each time). */
export const signInScenario: Scenario = {
  name: 'sign-in',
  weight: 2,
  groups: { 'sign-in': { p95Ms: 1500 } },
  async run(ctx) {
    const user = pick(ctx.fixture.users, ctx);
    const r = await ctx.http.request<{ token?: string }>('sign-in', 'POST', tenantApi(ctx, 'auth/login'), { json: { username: user.username, password: ctx.fixture.password } });
    ctx.check('sign-in answers a token', r.ok && typeof r.body.token === 'string');
  },
};
