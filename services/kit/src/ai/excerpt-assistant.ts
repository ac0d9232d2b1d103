import type { AiAnswer, AiAssistant, AiPassage, AiQuestion, AnswerOptions } from './ai-assistant.ts';
import { rankExcerpts, type RankedQuote } from './excerpt-ranking.ts';
import { extractiveSummary, type NumberedLine } from './extractive-summary.ts';
import type { FirmRateLimit } from './firm-rate-limit.ts';
import { describeField, type FieldNoun, type FormField } from './form-fields.ts';

/** Lines (or a form's boxes) quoted in one answer, and the longest a quote may be. */
const QUOTED_LINES = 8;
const QUOTE_MAX_CHARS = 1200;

export const EXCERPT_LABEL = 'No language model is configured, so this answer quotes the lines of the document that best match your question, the best match first.';
export const SUMMARY_LABEL = 'No language model is configured, so this is an extractive summary: the document\'s opening, a form\'s boxes with their values, its headings and its most central sentences, quoted as written with their line numbers.';
export const SUMMARY_SECTIONS = { opening: 'Opening', fields: 'Form boxes', headings: 'Headings', central: 'Most central sentences' } as const;
export const noMatch = (name: string): string =>
  `No language model is configured, and no passage of "${escapeMarkdown(name)}" matches the words of your question. Try words that appear in the document.`;

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
    this.#rateLimit.take(options.firm, options.user);
    const text = q.summarise ? summaries(q) : excerpts(q);
    options.onDelta?.(text);
    return { text, mode: this.mode };
  }
}

/**
 * The lines (and a form's boxes) that answer the question, best first: a box is said as
 * "Box 2, Federal income tax withheld: 19,872.16" above the lines it is read from.
 */
function excerpts(q: AiQuestion): string {
  const ranked = q.documents.map((d) => ({ name: d.name, ...rankExcerpts(q.question, d.passages, QUOTED_LINES) }));
  const parts = ranked.map((d) => (d.quotes.length ? d.quotes.map((quote) => rankedQuote(d.name, quote, d.noun)).join('\n\n') : noMatch(d.name)));
  return ranked.some((d) => d.quotes.length) ? `${EXCERPT_LABEL}\n\n${parts.join('\n\n')}` : parts.join('\n\n');
}

function rankedQuote(name: string, q: RankedQuote, noun: FieldNoun): string {
  const where = { line: q.line, lastLine: q.lastLine, text: q.text };
  return `**${escapeMarkdown(name)}, ${whereOf(where)}:**\n\n${q.fields.length ? `${fieldList(q.fields, noun)}\n\n` : ''}${quote(q.text)}`;
}

/**
 * Boxes as a list of text ('Box 2, Federal income tax withheld: 19,872.16'): a document's
 * words, never markup; with the file's name, each says its lines.
 */
const fieldList = (fields: readonly FormField[], noun: FieldNoun, file?: string): string =>
  fields.map((f) => `- ${asText(describeField(f, noun))}${file ? ` (${file}, ${whereOf({ line: f.line, lastLine: f.lastLine, text: '' })})` : ''}`).join('\n');

/** Each document's opening, a form's boxes, headings and central sentences, each section quoted like an excerpt. */
function summaries(q: AiQuestion): string {
  const parts = q.documents.map((d) => {
    const summary = extractiveSummary(d.passages);
    return (Object.keys(SUMMARY_SECTIONS) as (keyof typeof SUMMARY_SECTIONS)[])
      .filter((section) => summary[section].length)
      .map((section) => `### ${SUMMARY_SECTIONS[section]}\n\n${section === 'fields'
        ? fieldList(summary.fields, summary.noun, `**${escapeMarkdown(d.name)}**`)
        : quoteAll(d.name, mergeAdjacent(summary[section].map(asPassage)))}`)
      .join('\n\n');
  });
  return `${SUMMARY_LABEL}\n\n${parts.join('\n\n')}`;
}

const asPassage = (l: NumberedLine): AiPassage => ({ line: l.line, text: l.text });

interface Quote { line: number; lastLine: number; text: string }

/** Single lines that follow each other become one quote ('lines 4–5'). */
function mergeAdjacent(passages: AiPassage[]): Quote[] {
  const out: Quote[] = [];
  for (const p of passages) {
    const lines = p.text.split('\n').length;
    const prev = out.at(-1);
    if (prev && prev.lastLine + 1 === p.line) {
      prev.text += `\n${p.text}`;
      prev.lastLine = p.line + lines - 1;
    } else {
      out.push({ line: p.line, lastLine: p.line + lines - 1, text: p.text });
    }
  }
  return out;
}

const whereOf = (q: Quote) => (q.lastLine > q.line ? `lines ${q.line}–${q.lastLine}` : `line ${q.line}`);
const quoteAll = (name: string, quotes: Quote[]): string =>
  quotes.map((q) => `**${escapeMarkdown(name)}, ${whereOf(q)}:**\n\n${quote(q.text)}`).join('\n\n');

/**
 * A Markdown block quote of the passage as it is written (cut, never rephrased), shown as
 * text: a document is untrusted, and a link, image or tag written in it must not become a
 * live one in the assistant's answer (the product's own voice).
 */
function quote(text: string): string {
  const cut = text.length > QUOTE_MAX_CHARS ? `${text.slice(0, QUOTE_MAX_CHARS)}…` : text;
  return cut.trim().split('\n').map((line) => `> ${asText(line)}`).join('\n');
}

/** Every ASCII punctuation mark escaped (CommonMark allows it for each): no Markdown, HTML or autolink is left. */
const asText = (s: string): string => s.replace(/[!-/:-@[-`{-~]/g, '\\$&');

/** A file name in the label: emphasis, links and autolinks (scheme, e-mail, www.) stay text, the dots of 'r.txt' plain. */
const escapeMarkdown = (s: string): string => s.replace(/([\\`*_[\]<>#:@()!])/g, '\\$1').replace(/(www)\./gi, '$1\\.');
