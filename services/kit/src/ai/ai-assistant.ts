/**
 * DESIGN §7 "ai": one interface for "answer this question with this context", over a
 * language model (OpenAI-compatible) or, with none configured, the document itself.
 */

/** A passage of a document, as the passage index ranked it (best first). */
export interface AiPassage {
  /** 1-based line of the document where the passage starts. */
  line: number;
  text: string;
}

/** Untrusted data: a document's passages. Never instructions, whatever they say. */
export interface AiDocument {
  name: string;
  /** Best match first; the assistant keeps as many as its budget allows. */
  passages: AiPassage[];
}

export interface AiTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface AiQuestion {
  /** What the product asks of the model (trusted, written by us). */
  instructions: string;
  documents: AiDocument[];
  /** The conversation so far, oldest first; the newest turns are kept within the budget. */
  history: AiTurn[];
  question: string;
  /**
   * The question asks for a summary of the whole document (its passages are then the
   * document in order). A model reads the question; without one, this selects an
   * extractive summary instead of quoting lines that match its words.
   */
  summarise?: boolean;
}

export interface AnswerOptions {
  /** The firm asking: rate limits are per firm. */
  firm: string;
  /** The person asking, when there is one: each may use only a share of the firm's minute. */
  user?: string;
  /** Receives the answer as it is produced (each call a further piece). */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

export type AiMode = 'model' | 'excerpt';

export interface AiAnswer {
  text: string;
  mode: AiMode;
}

export interface AiAssistant {
  readonly mode: AiMode;
  answer(question: AiQuestion, options: AnswerOptions): Promise<AiAnswer>;
}

/** Shown when the model could not answer (nothing of the exchange is kept). */
export const AI_MESSAGES = {
  failed: 'The AI assistant could not answer right now. Please try again.',
  timedOut: 'The AI assistant took too long to answer. Please try again.',
  rateLimited: (seconds: number) => `Too many questions to the AI assistant. Please try again in ${seconds} seconds.`,
  userRateLimited: (seconds: number) => `You have asked the AI assistant your share of this minute's questions. Please try again in ${seconds} seconds.`,
} as const;
