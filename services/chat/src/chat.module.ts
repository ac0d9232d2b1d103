import { createAiAssistant } from '@ledgerline/kit/ai/create-ai-assistant.ts';
import { loadAiConfig } from '@ledgerline/kit/ai/ai.config.ts';
import { createPassageIndex } from '@ledgerline/kit/ai/passage-index.ts';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { identityTenantSource, TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { serviceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { createAdminChatSessionsRouter } from './admin/admin-chat-sessions.router.ts';
import { loadChatConfig } from './chat.config.ts';
import { chatTenantMigrations } from './chat.migrations.ts';
import { followFileDeletions } from './events/file-deleted.consumer.ts';
import { FileTextClient } from './files/file-text.client.ts';
import { ChatSessionStore } from './sessions/chat-session.store.ts';
import { ChatService } from './sessions/chat.service.ts';
import { createChatRouter } from './sessions/chat.router.ts';
import { PromptTemplateStore } from './templates/prompt-template.store.ts';
import { createPromptTemplatesRouter } from './templates/prompt-templates.router.ts';

const userAccess = createUserAccessReadModel('chat');
const passages = createPassageIndex('chat');

/**
 * Chat (DESIGN §2): the AI assistant on a file (sessions, messages) and the firm's prompt
 * templates. The file's text and the caller's right to open it come from the files
 * service; the answer from kit's AI layer (a model, or the document's own passages).
 */
export const chatModule: ServiceModule = {
  name: 'chat',
  defaultPort: 8105,
  // 'admin/chat-sessions' is longer than identity's 'admin/…' entries: the gateway routes by longest prefix.
  apiResources: ['chat', 'prompt-templates', 'admin/chat-sessions'],
  migrations: [chatTenantMigrations, userAccess.migrations, passages.migrations],
  async init(deps) {
    const config = loadChatConfig(deps.env);
    const ai = loadAiConfig(deps.env);
    const { db, logger } = deps;
    const api = new ApiRegistry('chat');
    const peer = (name: string) => () => deps.peers().find((p) => p.service === name)!.url;
    const firms = identityTenantSource(peer('identity'));
    const registry = new TenantRegistry({ source: firms });
    const tenants = serviceTenants(db, registry, userAccess, peer('identity'));
    const sessions = new ChatSessionStore();
    const chat = new ChatService({
      sessions, passages,
      files: new FileTextClient(peer('files')),
      assistant: createAiAssistant(ai, logger),
      historyMaxMessages: config.historyMaxMessages,
      modelPassages: config.modelPassages,
    });
    let poller: { stop(): void } | undefined;
    const subscriptions: Subscription[] = [];

    return {
      api,
      routers: [
        createChatRouter({ api, tokens: deps.tokens, tenants, chat, logger }),
        createPromptTemplatesRouter({ api, tokens: deps.tokens, tenants, templates: new PromptTemplateStore() }),
        createAdminChatSessionsRouter({ api, db, sessions, tokens: deps.tokens, logger, firms }),
      ],
      async start() {
        poller = registry.poll(config.tenantPollMs, logger);
        const consumerDeps = { db, bus: deps.bus, logger, tenants: registry };
        subscriptions.push(
          await userAccess.follow(consumerDeps),
          await followFileDeletions({ ...consumerDeps, sessions, passages }),
        );
      },
      async stop() {
        poller?.stop();
        for (const s of subscriptions.splice(0)) await s.close();
      },
    };
  },
};
