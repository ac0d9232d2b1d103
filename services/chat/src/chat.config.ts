import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

/** The chat service's own settings; the AI provider's are kit's (`loadAiConfig`). */
export const chatConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  historyMaxMessages: field('CHAT_HISTORY_MAX_MESSAGES', env.int(20, 0), 'earlier messages of a session sent with a follow-up (the token budget may keep fewer)'),
  modelPassages: field('CHAT_MODEL_PASSAGES', env.int(40, 1), 'best-ranked passages offered to a model (the token budget keeps those that fit)'),
};

export type ChatConfig = ConfigOf<typeof chatConfigSpec>;
export const loadChatConfig = (e: NodeJS.ProcessEnv): ChatConfig => loadConfig(chatConfigSpec, e);
