import type { TokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { IdentityConfig } from '../identity.config.ts';
import { BuiltinIdentityProvider } from './builtin-identity-provider.ts';
import type { IdentityProvider } from './identity-provider.ts';

export function createIdentityProvider(
  _config: IdentityConfig,
  deps: { db: Database; issuer: TokenIssuer; schemaOf: (tenant: string) => Promise<string>; logger: Logger },
): IdentityProvider {
  return new BuiltinIdentityProvider(deps.db, deps.issuer, deps.schemaOf);
}
