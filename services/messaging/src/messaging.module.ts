import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { identityTenantSource, TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { serviceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
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
    const { db, logger } = deps;
    const api = new ApiRegistry('messaging');
    const peer = (name: string) => () => deps.peers().find((p) => p.service === name)!.url;
    const registry = new TenantRegistry({ source: identityTenantSource(peer('identity')) });
    const tenants = serviceTenants(db, registry, userAccess, peer('identity'));
    const store = new MessagingStore(userAccess);
    const service = new MessagingService({ store, users: userAccess, files: new FileAccessClient(peer('files')), push: new MessagingPush(deps.realtime, store) });
    let poller: { stop(): void } | undefined;
    const subscriptions: Subscription[] = [];

    return {
      api,
      routers: [createMessagingRouter({ api, service, tokens: deps.tokens, tenants })],
      async start() {
        poller = registry.poll(config.tenantPollMs, logger);
        subscriptions.push(await userAccess.follow({ db, bus: deps.bus, logger, tenants: registry }));
      },
      async stop() {
        poller?.stop();
        for (const s of subscriptions.splice(0)) await s.close();
      },
    };
  },
};
