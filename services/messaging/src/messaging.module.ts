import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { MessagingPush } from './conversations/messaging-push.ts';
import { createMessagingRouter } from './conversations/messaging.router.ts';
import { MessagingService } from './conversations/messaging.service.ts';
import { MessagingStore } from './conversations/messaging.store.ts';
import { FileAccessClient } from './files/file-access.client.ts';
import { loadMessagingConfig } from './messaging.config.ts';
import { messagingTenantMigrations } from './messaging.migrations.ts';

const userAccess = createUserAccessReadModel('messaging');

/**
 * Conversations between a firm's staff and its clients (spec 001 messaging). It holds no
 * sockets: changes reach browsers through the realtime hub (deps.realtime), whose endpoint
 * the tasks service owns.
 */
export const messagingModule: ServiceModule = {
  name: 'messaging',
  defaultPort: 8109,
  apiResources: ['conversations', 'messages'],
  migrations: [messagingTenantMigrations, userAccess.migrations],
  async init(deps) {
    const config = loadMessagingConfig(deps.env);
    const api = new ApiRegistry('messaging');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants } = runtime;
    const store = new MessagingStore(userAccess);
    const service = new MessagingService({ store, users: userAccess, accessOf: tenants.accessOf, files: new FileAccessClient(peer('files')), push: new MessagingPush(deps.realtime, store) });

    return {
      api,
      routers: [createMessagingRouter({ api, service, tokens: deps.tokens, tenants })],
      start: () => runtime.start({ follow: [(c) => userAccess.follow(c)] }),
      stop: () => runtime.stop(),
    };
  },
};
