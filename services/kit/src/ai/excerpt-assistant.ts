import type { AiAnswer, AiAssistant, AiPassage, AiQuestion, AnswerOptions } from './ai-assistant.ts';
import type { FirmRateLimit } from './firm-rate-limit.ts';

/** Passages quoted in one answer, and the longest a quoted passage may be. */
const QUOTED_PASSAGES = 3;
const QUOTE_MAX_CHARS = 1200;

export const EXCERPT_LABEL = 'No language model is configured, so this answer quotes the passages of the document that best match your question.';
export const noMatch = (name: string): string =>
  `No language model is configured, and no passage of "${name}" matches the words of your question. Try words that appear in the document.`;

/**
 * The embedded default (DESIGN §1: no model configured): the best-ranked passages,
 * quoted with where they are, under a label saying plainly that no model wrote it.
 * Nothing is generated, so nothing can be invented.
 */
export class ExcerptAssistant implements AiAssistant {
  readonly mode = 'excerpt' as const;
  readonly #rateLimit: FirmRateLimit;

  constructor(rateLimit: FirmRateLimit) {
    this.#rateLimit = rateLimit;
  }

  async answer(q: AiQuestion, options: AnswerOptions): Promise<AiAnswer> {
    this.#rateLimit.take(options.firm);
    const parts: string[] = [];
    for (const d of q.documents) {
      const best = d.passages.slice(0, QUOTED_PASSAGES).sort((a, b) => a.line - b.line);
      parts.push(best.length ? quoteAll(d.name, best) : noMatch(d.name));
    }
    const text = q.documents.some((d) => d.passages.length) ? `${EXCERPT_LABEL}\n\n${parts.join('\n\n')}` : parts.join('\n\n');
    options.onDelta?.(text);
    return { text, mode: this.mode };
  }
}

const quoteAll = (name: string, passages: AiPassage[]): string =>
  passages.map((p) => `**${escapeMarkdown(name)}, line ${p.line}:**\n\n${quote(p.text)}`).join('\n\n');

/** A Markdown block quote of the passage as it is written (cut, never rephrased). */
function quote(text: string): string {
  const cut = text.length > QUOTE_MAX_CHARS ? `${text.slice(0, QUOTE_MAX_CHARS)}…` : text;
  return cut.trim().split('\n').map((line) => `> ${line}`).join('\n');
}

const escapeMarkdown = (s: string): string => s.replace(/([\\`*_[\]<>#])/g, '\\$1');
