import { stemmer } from 'stemmer';
import type { AiPassage } from './ai-assistant.ts';
import { linesOf, STOP_WORDS, type NumberedLine } from './extractive-summary.ts';
import { fieldNoun, formFields, type FieldNoun, type FormField } from './form-fields.ts';

/*
 * Which lines of a document answer a question, when no model can read it (issue 44: asked
 * "How much federal income tax was withheld, and what are the Box 12 codes?" on a W-2, the
 * answer must lead with Box 2). Each line, or each box of a form (its number and label), is
 * scored by BM25 over the passages searched: the question's words it holds, each weighted by
 * how rare it is there ("federal" and "withheld", on a line or two, outweigh "tax" and
 * "box", on many), a short line holding them ahead of a long one. A question naming a box
 * ("Box 12") counts that box's fields ('12a', '12b') as strongly as its rarest word, and a
 * question asking "when" counts a line stating a date the same.
 */

/** A quote worth at least half the best one's score is kept: the W-2's Box 2 and 12a/12b, not every line saying "tax". */
const KEEP_SHARE = 0.5;
/**
 * BM25's constants: how fast a repeated word stops counting (the usual 1.2), and how much a
 * unit's length matters: less than for whole documents (0.75), as lines are short and a
 * one-word title ("INVOICE") must not outrank the line holding the question's rarest word.
 */
const K1 = 1.2;
const B = 0.3;
/** A day: '20/04/2027', '2027-04-20', '28 April 2027', 'November 12, 2026'. */
const A_DAY = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},\s+\d{4}\b/i;
const asksWhen = (question: string): boolean => /\bwhen\b|\bwhat (?:day|date)\b|\bwhich (?:day|date)\b/i.test(question);

/** Words of a question that say how it is asked, not what about. */
const QUESTION_WORDS = new Set(('how much many what which who whom whose when where why does did was were is are the and for of to in on at by or '
  + 'as it if me my we us an be do tell show give please there any list find').split(' '));

/** The words of a text as terms: lower case, stemmed ('codes' is 'code', 'federal' 'feder'), numbers kept, filler dropped. */
export function termsOf(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .filter((w) => (/^\d/.test(w) || w.length > 1) && !STOP_WORDS.has(w) && !QUESTION_WORDS.has(w))
    .map((w) => (/^\p{L}+$/u.test(w) ? stemmer(w) : w));
}

/** The boxes a question names: 'Box 12', 'line 9', 'label G1'. */
const boxesAskedFor = (question: string): string[] =>
  [...question.matchAll(/\b(?:box|line|label)\s+(\d{1,2}[a-z]{0,2}|[a-z]{1,2}\d{1,2}|\d[a-z])\b/gi)].map((m) => m[1]!.toLowerCase());

/** 'Box 12' asks for 12, 12a and 12b; 'Box 1' not for 12. */
const isBoxAskedFor = (box: string, asked: readonly string[]): boolean =>
  asked.some((a) => box.toLowerCase() === a || (/\d$/.test(a) && new RegExp(`^${a}[a-z]+$`).test(box.toLowerCase())));

/** Lines of the document quoted together, with the form fields among them (best first in a ranking). */
export interface RankedQuote {
  line: number;
  lastLine: number;
  /** The lines as written, joined by '\n'. */
  text: string;
  fields: FormField[];
  score: number;
}

export interface RankedExcerpts {
  quotes: RankedQuote[];
  /** What the document calls its boxes ('Box', or 'Line' on a 1040). */
  noun: FieldNoun;
}

interface Unit { line: number; lastLine: number; field: FormField | null; text: string; terms: string[]; score: number }

/**
 * The quotes answering `question` from `passages` (any order: document lines are read back
 * from them), best first, at most `limit` lines or fields; none when no word matches.
 */
export function rankExcerpts(question: string, passages: readonly AiPassage[], limit: number): RankedExcerpts {
  const lines = linesOf([...passages].sort((a, b) => a.line - b.line));
  const byLine = new Map(lines.map((l) => [l.line, l]));
  const fields = formFields(lines);
  const noun = fieldNoun(lines.map((l) => l.text).join('\n'));
  const covered = new Set(fields.flatMap((f) => range(f.line, f.lastLine)));
  // A box is found by its number and label; its value's digits would only make it look long.
  const units: Unit[] = [
    ...fields.map((f) => ({ line: f.line, lastLine: f.lastLine, field: f, text: `${f.label} ${f.value}`, terms: termsOf(`${f.box} ${f.label}`), score: 0 })),
    ...lines.filter((l) => !covered.has(l.line)).map((l) => ({ line: l.line, lastLine: l.line, field: null, text: l.text, terms: termsOf(l.text), score: 0 })),
  ];
  const asked = [...new Set(termsOf(question))];
  const boxes = boxesAskedFor(question);
  const when = asksWhen(question);
  const idf = new Map(asked.map((t) => {
    const df = units.filter((u) => u.terms.includes(t)).length;
    return [t, df ? Math.log(1 + (units.length - df + 0.5) / (df + 0.5)) : 0];
  }));
  const rarest = Math.max(0, ...idf.values()) || 1;
  const averageLength = units.reduce((n, u) => n + u.terms.length, 0) / Math.max(1, units.length) || 1;
  for (const u of units) {
    const lengthFactor = K1 * (1 - B + (B * u.terms.length) / averageLength);
    u.score = asked.reduce((sum, t) => {
      const tf = u.terms.filter((x) => x === t).length;
      return sum + (tf ? (idf.get(t)! * tf * (K1 + 1)) / (tf + lengthFactor) : 0);
    }, 0);
    if (u.field && boxes.length && isBoxAskedFor(u.field.box, boxes)) u.score += rarest;
    if (u.score > 0 && when && A_DAY.test(u.text)) u.score += rarest;
  }
  const ranked = units.filter((u) => u.score > 0).sort((a, b) => b.score - a.score || a.line - b.line);
  const best = ranked[0]?.score ?? 0;
  const kept = ranked.filter((u) => u.score >= best * KEEP_SHARE).slice(0, limit);
  return { quotes: quotesOf(kept, byLine), noun };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Kept lines that follow each other become one quote, ranked by its best line; a form's box
 * stays a quote of its own, so the box asked for leads the answer.
 */
function quotesOf(kept: Unit[], byLine: Map<number, NumberedLine>): RankedQuote[] {
  const quotes: RankedQuote[] = [];
  for (const u of [...kept].sort((a, b) => a.line - b.line || a.lastLine - b.lastLine)) {
    const prev = quotes.at(-1);
    if (prev && !u.field && !prev.fields.length && u.line <= prev.lastLine + 1) {
      prev.lastLine = Math.max(prev.lastLine, u.lastLine);
      prev.score = Math.max(prev.score, u.score);
    } else {
      quotes.push({ line: u.line, lastLine: u.lastLine, text: '', fields: u.field ? [u.field] : [], score: u.score });
    }
  }
  for (const q of quotes) q.text = range(q.line, q.lastLine).map((n) => byLine.get(n)?.text ?? '').join('\n');
  return quotes.sort((a, b) => b.score - a.score || a.line - b.line);
}
