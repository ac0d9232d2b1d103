import type { Scenario } from '../lib/scenario.ts';
import { pick } from '../lib/scenario.ts';
import { tenantApi, userOf } from './users.ts';

/** Anyone opens the files page (a page of 25), and searches the documents' content. */
export const fileListScenario: Scenario = {
  name: 'file list',
  weight: 10,
  groups: { 'files list': { p95Ms: 300 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA', 'CPA', 'Client');
    const r = await ctx.http.request<unknown[]>('files list', 'GET', `${tenantApi(ctx, 'files')}?limit=25&offset=0`, { token: user.token });
    ctx.check('file list answers a list', r.ok && Array.isArray(r.body));
  },
};

export const fileSearchScenario: Scenario = {
  name: 'file content search',
  weight: 8,
  groups: { 'files search': { p95Ms: 500 } },
  async run(ctx) {
    const user = await userOf(ctx, 'Admin', 'DTA', 'CPA', 'Client');
    const term = pick(ctx.fixture.searchTerms, ctx);
    const r = await ctx.http.request<unknown[]>('files search', 'GET', `${tenantApi(ctx, 'files')}?search=${encodeURIComponent(term)}&limit=25`, { token: user.token });
    ctx.check('file search answers a list', r.ok && Array.isArray(r.body));
  },
};
