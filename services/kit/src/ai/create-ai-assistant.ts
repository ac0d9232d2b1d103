import type { Logger } from '../logger.ts';
import type { AiAssistant } from './ai-assistant.ts';
import type { AiConfig } from './ai.config.ts';
import { ExcerptAssistant } from './excerpt-assistant.ts';
import { FirmRateLimit } from './firm-rate-limit.ts';
import { OpenAiAssistant } from './openai-assistant.ts';

/** A model when `AI_MODEL` names one, else the embedded extractive default. */
export function createAiAssistant(config: AiConfig, logger: Logger): AiAssistant {
  const rateLimit = new FirmRateLimit(config.firmRequestsPerMinute, Date.now, config.userSharePercent);
  if (!config.model) return new ExcerptAssistant(rateLimit);
  return new OpenAiAssistant({
    model: config.model,
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    requestTimeoutMs: config.requestTimeoutMs,
    maxRetries: config.maxRetries,
    contextTokens: config.contextTokens,
    answerMaxTokens: config.answerMaxTokens,
    rateLimit,
    logger,
  });
}
