import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import type { UserStore } from '../users/user.store.ts';
import { policyRequires, type MfaService } from './mfa.service.ts';

/**
 * The firm's second-factor policy handed to the provider for every user of the firm (after the
 * policy changed, or a role was renamed from or to Client). Where a Keycloak realm keeps the
 * factors it enforces the policy itself (required actions); the built-in issuer has nothing to
 * hand over: the portal's second step reads the policy at each sign-in.
 */
export async function applyPolicyToProvider(deps: { provider: IdentityProvider; mfa: MfaService; users: UserStore }, company: Company, db: Queryable): Promise<void> {
  if (deps.provider.kind === 'builtin') return;
  const policy = await deps.mfa.settings.get(db);
  const users = await deps.users.list(db);
  await deps.provider.requireSecondFactor(company.shortName, users.map((u) => ({ id: u.id, username: u.username, required: policyRequires(policy, u.roleName) })));
}
