import type { AiAssistant } from '@ledgerline/kit/ai/ai-assistant.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { CLASSIFY_INSTRUCTIONS, CLASSIFY_QUESTION, parseClassification, type ReportClassification } from '../rules/report-classification.ts';

/** Lines per passage handed to the model (the prompt budget keeps as many as fit, first ones first). */
const LINES_PER_PASSAGE = 40;

/**
 * Mode "model" (a language model is configured): asks it to classify a newly extracted
 * report. Null whenever there is no usable answer (no model, rate limit, timeout, a reply
 * that is not the schema's JSON): the rules then decide alone.
 */
export class ReportClassifier {
  readonly #assistant: AiAssistant;
  readonly #logger: Logger;

  constructor(assistant: AiAssistant, logger: Logger) {
    this.#assistant = assistant;
    this.#logger = logger;
  }

  get enabled(): boolean {
    return this.#assistant.mode === 'model';
  }

  async classify(firm: string, name: string, text: string): Promise<ReportClassification | null> {
    if (!this.enabled || !text.trim()) return null;
    const lines = text.split('\n');
    const passages = [];
    for (let i = 0; i < lines.length; i += LINES_PER_PASSAGE) passages.push({ line: i + 1, text: lines.slice(i, i + LINES_PER_PASSAGE).join('\n') });
    try {
      const answer = await this.#assistant.answer({ instructions: CLASSIFY_INSTRUCTIONS, documents: [{ name, passages }], history: [], question: CLASSIFY_QUESTION }, { firm });
      const parsed = parseClassification(answer.text);
      if (!parsed) this.#logger.warn({ firm, name }, 'model classification was not the expected JSON; rules only');
      return parsed;
    } catch (err) {
      this.#logger.warn({ firm, name, err: String(err) }, 'model classification failed; rules only');
      return null;
    }
  }
}
