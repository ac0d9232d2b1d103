import { createTokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import { createJwksRouter } from '@ledgerline/kit/auth/jwks-router.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { createAuthRouter } from './auth/auth.router.ts';
import { PlatformAdminStore } from './auth/platform-admin.store.ts';
import { loadIdentityConfig } from './identity.config.ts';
import { identityPlatformMigrations } from './identity.migrations.ts';
import { DbSigningKeyStore } from './keys/db-signing-key.store.ts';

export const identityModule: ServiceModule = {
  name: 'identity',
  defaultPort: 8101,
  apiResources: ['auth', 'admin/auth'],
  otherPaths: ['/.well-known/'],
  migrations: [identityPlatformMigrations],
  async init(deps) {
    const config = loadIdentityConfig(deps.env);
    const api = new ApiRegistry('identity');
    const admins = new PlatformAdminStore(deps.db);
    const issuer = createTokenIssuer({
      issuer: config.tokenIssuer,
      keyStore: new DbSigningKeyStore(deps.db),
      tokenTtlSeconds: config.tokenTtlSeconds,
      rotateAfterSeconds: config.keyRotateAfterSeconds,
      logger: deps.logger,
    });
    return {
      api,
      routers: [createJwksRouter(issuer), createAuthRouter({ api, admins, issuer, tokens: deps.tokens })],
      async start() {
        if (config.adminUsername && config.adminPassword) {
          if (await admins.seed(config.adminUsername, config.adminPassword, config.adminFullName)) {
            deps.logger.info({ username: config.adminUsername }, 'platform administrator created');
          }
        }
      },
    };
  },
};
