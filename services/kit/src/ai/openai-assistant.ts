import OpenAI from 'openai';
import { Unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { AI_MESSAGES, type AiAnswer, type AiAssistant, type AiQuestion, type AnswerOptions } from './ai-assistant.ts';
import type { FirmRateLimit } from './firm-rate-limit.ts';
import { estimateTokens, fitToBudget, type PromptBudget } from './prompt-budget.ts';
import { FIXED_PROMPT_TEXT, promptMessages } from './prompt-messages.ts';

export interface OpenAiAssistantOptions extends PromptBudget {
  apiKey?: string;
  baseUrl?: string;
  model: string;
  requestTimeoutMs: number;
  maxRetries: number;
  rateLimit: FirmRateLimit;
  logger: Logger;
}

/**
 * A language model behind any OpenAI-compatible chat completions endpoint. The openai
 * client retries 408/409/429/5xx and lost connections with exponential backoff (honouring
 * Retry-After) before the first byte; once the answer streams, a failure ends it (what the
 * user saw cannot be taken back by a retry). The whole answer, retries and streaming
 * included, must finish within `requestTimeoutMs`.
 */
export class OpenAiAssistant implements AiAssistant {
  readonly mode = 'model' as const;
  readonly #client: OpenAI;
  readonly #options: OpenAiAssistantOptions;

  constructor(options: OpenAiAssistantOptions) {
    this.#options = options;
    this.#client = new OpenAI({
      // Local servers (Ollama, llama.cpp, vLLM) take no key, but the client insists on one.
      apiKey: options.apiKey ?? 'not-needed',
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      // The deadline is the whole answer's (below): retrying an attempt that ran out of it is pointless.
      timeout: options.requestTimeoutMs + 1000,
      maxRetries: options.maxRetries,
    });
  }

  async answer(q: AiQuestion, options: AnswerOptions): Promise<AiAnswer> {
    this.#options.rateLimit.take(options.firm, options.user);
    const fitted = fitToBudget(q, this.#options, estimateTokens(FIXED_PROMPT_TEXT));
    const timeout = AbortSignal.timeout(this.#options.requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let text = '';
    let finished = false;
    try {
      const stream = await this.#client.chat.completions.create({
        model: this.#options.model,
        messages: promptMessages(fitted),
        max_tokens: this.#options.answerMaxTokens,
        temperature: 0.2,
        stream: true,
      }, { signal });
      for await (const chunk of stream) {
        if (chunk.choices[0]?.finish_reason) finished = true;
        const delta = chunk.choices[0]?.delta?.content;
        if (!delta) continue;
        text += delta;
        options.onDelta?.(delta);
      }
      // The client ends an aborted stream quietly: a cut-off answer is a failure, not an answer.
      if (!finished) throw new Error(timeout.aborted ? 'timed out while streaming' : 'the stream ended before the answer did');
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const timedOut = timeout.aborted || error instanceof OpenAI.APIConnectionTimeoutError;
      this.#options.logger.warn({ err: describe(error), model: this.#options.model }, 'AI provider failed');
      throw new Unavailable(timedOut ? AI_MESSAGES.timedOut : AI_MESSAGES.failed);
    }
    if (!text.trim()) throw new Unavailable(AI_MESSAGES.failed);
    return { text, mode: this.mode };
  }
}

/** The provider's status and message, never the request (which holds the document). */
const describe = (error: unknown) =>
  error instanceof OpenAI.APIError ? { status: error.status, message: error.message } : { message: error instanceof Error ? error.message : String(error) };
