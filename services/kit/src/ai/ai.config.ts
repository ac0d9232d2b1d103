import { ConfigError, env, field, loadConfig, type ConfigOf } from '../config.ts';

/**
 * The AI provider settings every AI-using service reads (chat now, insights later). With
 * no `AI_MODEL` the embedded default answers from the document itself (extractive).
 */
export const aiConfigSpec = {
  apiKey: field('OPENAI_API_KEY', env.optionalString(), 'API key of the OpenAI-compatible endpoint (local servers usually need none)'),
  baseUrl: field('OPENAI_BASE_URL', env.optionalUrl(), 'OpenAI-compatible endpoint, e.g. Azure OpenAI, Ollama, vLLM or llama.cpp (`…/v1`); default OpenAI'),
  model: field('AI_MODEL', env.optionalString(), 'model name; unset: no language model, answers quote the document'),
  requestTimeoutMs: field('AI_REQUEST_TIMEOUT_MS', env.int(60_000, 100), 'longest one answer may take, streaming included'),
  maxRetries: field('AI_MAX_RETRIES', env.int(2, 0), 'retries (with backoff) after a 408, 409, 429, 5xx or a lost connection'),
  contextTokens: field('AI_CONTEXT_TOKENS', env.int(8192, 1024), "the model's context window in tokens; the prompt is cut to fit"),
  answerMaxTokens: field('AI_ANSWER_MAX_TOKENS', env.int(1024, 16), 'longest answer in tokens (reserved out of the context window)'),
  firmRequestsPerMinute: field('AI_FIRM_REQUESTS_PER_MINUTE', env.int(60, 1), 'questions one firm may ask per minute (per process), 429 beyond'),
  userSharePercent: field('AI_USER_SHARE_PERCENT', env.int(50, 1), 'the part of the firm\'s minute one user may ask (at least one question), 429 beyond'),
};

export type AiConfig = ConfigOf<typeof aiConfigSpec>;

export function loadAiConfig(e: NodeJS.ProcessEnv): AiConfig {
  const config = loadConfig(aiConfigSpec, e);
  // The openai client would otherwise send an empty key to OpenAI itself and fail on the first question.
  if (config.model && !config.apiKey && !config.baseUrl) {
    throw new ConfigError('Invalid configuration:\n  AI_MODEL is set but neither OPENAI_API_KEY (OpenAI) nor OPENAI_BASE_URL (a compatible server) is.');
  }
  if (config.userSharePercent > 100) throw new ConfigError('Invalid configuration:\n  AI_USER_SHARE_PERCENT must be at most 100.');
  if (config.answerMaxTokens * 2 > config.contextTokens) {
    throw new ConfigError('Invalid configuration:\n  AI_ANSWER_MAX_TOKENS must be at most half of AI_CONTEXT_TOKENS (the rest holds the document and the conversation).');
  }
  return config;
}
