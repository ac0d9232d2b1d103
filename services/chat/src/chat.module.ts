import { createAiAssistant } from '@ledgerline/kit/ai/create-ai-assistant.ts';
import { loadAiConfig } from '@ledgerline/kit/ai/ai.config.ts';
import { createPassageIndex } from '@ledgerline/kit/ai/passage-index.ts';
import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
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
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants, firms } = runtime;
    const sessions = new ChatSessionStore();
    const chat = new ChatService({
      sessions, passages,
      files: new FileTextClient(peer('files')),
      assistant: createAiAssistant(ai, logger),
      historyMaxMessages: config.historyMaxMessages,
      modelPassages: config.modelPassages,
    });

    return {
      api,
      routers: [
        createChatRouter({ api, tokens: deps.tokens, tenants, chat, logger }),
        createPromptTemplatesRouter({ api, tokens: deps.tokens, tenants, templates: new PromptTemplateStore() }),
        createAdminChatSessionsRouter({ api, db, sessions, tokens: deps.tokens, checkCaller: tenants.checkCaller, logger, firms }),
      ],
      start: () => runtime.start({
        follow: [
          (c) => userAccess.follow(c),
          (c) => followFileDeletions({ ...c, sessions, passages }),
        ],
      }),
      stop: () => runtime.stop(),
    };
  },
};
