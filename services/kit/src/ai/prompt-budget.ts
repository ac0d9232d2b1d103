import type { AiDocument, AiQuestion, AiTurn } from './ai-assistant.ts';

/**
 * Tokens a text may take. No tokenizer for every model an OpenAI-compatible server may
 * run, so a safe overestimate: about 3 characters a token (English averages ~4, digits
 * and other scripts fewer), plus a few per message for the chat format.
 */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 3);
const MESSAGE_OVERHEAD_TOKENS = 8;
/** The conversation gets at most this share of what remains after the fixed parts; the document the rest. */
const HISTORY_SHARE = 1 / 3;

export interface PromptBudget {
  contextTokens: number;
  answerMaxTokens: number;
}

/**
 * Cuts a question's context to the model's window: the instructions, the question and the
 * room for the answer always; then the newest turns of the conversation (up to a third of
 * what is left); then the best-ranked passages that still fit. Nothing is cut mid-text.
 */
export function fitToBudget(q: AiQuestion, budget: PromptBudget, fixedTokens: number): AiQuestion {
  let left = budget.contextTokens - budget.answerMaxTokens - fixedTokens
    - estimateTokens(q.instructions) - estimateTokens(q.question) - 2 * MESSAGE_OVERHEAD_TOKENS;
  const cost = (t: AiTurn) => estimateTokens(t.content) + MESSAGE_OVERHEAD_TOKENS;
  const history: AiTurn[] = [];
  let historyLeft = Math.max(0, Math.floor(left * HISTORY_SHARE));
  for (let i = q.history.length - 1; i >= 0; i -= 1) {
    const c = cost(q.history[i]!);
    if (c > historyLeft) break; // older turns without the newer ones would not make sense
    history.unshift(q.history[i]!);
    historyLeft -= c;
    left -= c;
  }
  const documents: AiDocument[] = q.documents.map((d) => {
    const passages = [];
    for (const p of d.passages) {
      const c = estimateTokens(p.text) + MESSAGE_OVERHEAD_TOKENS;
      if (c > left) continue; // a smaller, lower-ranked passage may still fit
      passages.push(p);
      left -= c;
    }
    return { name: d.name, passages };
  });
  return { ...q, history, documents };
}
