import { signIn, type LoadUser, type Role } from '../fixture.ts';
import { pick, type VuContext } from '../lib/scenario.ts';

/** A user of one of `roles` for this VU and iteration, signed in (their token refreshed when old). */
export async function userOf(ctx: VuContext, ...roles: Role[]): Promise<LoadUser & { token: string }> {
  const user = pick(ctx.fixture.users.filter((u) => roles.includes(u.role)), ctx);
  await signIn(ctx.http, ctx.fixture, user);
  return user;
}

export const tenantApi = (ctx: VuContext, path: string): string => `/api/${ctx.fixture.tenant}/${path}`;
