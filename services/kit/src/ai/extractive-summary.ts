import type { AiPassage } from './ai-assistant.ts';
import { fieldNoun, formFields, type FieldNoun, type FormField } from './form-fields.ts';

/** A line of the document as it is written, with its 1-based number. */
export interface NumberedLine { line: number; text: string }

export interface ExtractiveSummary {
  /** The first lines with text: who wrote it, to whom, about what, as most documents start. */
  opening: NumberedLine[];
  /** Lines set out as headings (Markdown `#`, NUMBERED or ALL CAPS titles), after the opening. */
  headings: NumberedLine[];
  /** The sentences sharing most words with the rest of the document, in document order. */
  central: NumberedLine[];
  /** A form's first boxes with their values (a W-2's Box 1 and Box 2 first), in document order; [] for a document that is not a form. */
  fields: FormField[];
  /** What the form calls its boxes. */
  noun: FieldNoun;
}

const OPENING_LINES = 3;
const MAX_HEADINGS = 8;
const CENTRAL_SENTENCES = 5;
/** A form's boxes listed in its summary. */
const SUMMARY_FIELDS = 12;
const HEADING_MAX_CHARS = 70;
/** A sentence shorter than this says too little to stand for the document. */
const SENTENCE_MIN_WORDS = 5;

/** Words that carry no topic: they would make every long sentence look central. */
export const STOP_WORDS: ReadonlySet<string> = new Set(('the and for are but not you all any can had her was one our out has have him his how its may new now '
  + 'who did get let say she too use with this that from they will would there their what which when were been into than then them '
  + 'these those each other such only also over under about after before your more most some very just per shall must should could').split(' '));

/** The document's lines back from its passages (a passage's lines are joined by '\n', blank lines kept). */
export function linesOf(passages: readonly AiPassage[]): NumberedLine[] {
  const out: NumberedLine[] = [];
  for (const p of passages) {
    p.text.split('\n').forEach((text, i) => {
      const line = p.line + i;
      const prev = out.at(-1);
      // A long line cut into pieces comes back as one line.
      if (prev && prev.line === line) prev.text += ` ${text}`;
      else if (text.trim()) out.push({ line, text });
    });
  }
  return out;
}

function isHeading(text: string): boolean {
  const t = text.trim();
  if (/^#{1,6}\s+\S/.test(t)) return true;
  if (t.length > HEADING_MAX_CHARS || /[.,;:]$/.test(t)) return false;
  const letters = t.replace(/[^\p{L}]/gu, '');
  const allCaps = letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
  const numbered = /^(\d+(\.\d+)*\.?|[IVX]+\.)\s+\p{Lu}/u.test(t) && t.split(/\s+/).length <= 8;
  return allCaps || numbered;
}

const termsOf = (text: string): Set<string> =>
  new Set((text.toLowerCase().match(/\p{L}[\p{L}'-]{2,}/gu) ?? []).filter((w) => !STOP_WORDS.has(w)));

/**
 * What a reader skims first when no model can write a summary: the opening, the headings
 * and the most central sentences (centroid ranking: a sentence scores by how many other
 * sentences share each of its words, normalised by its length). Linear in the document's
 * size, so a long document is summarised as quickly as it is read. Nothing is rephrased.
 */
export function extractiveSummary(passages: readonly AiPassage[]): ExtractiveSummary {
  const lines = linesOf(passages);
  const opening = lines.slice(0, OPENING_LINES);
  const allFields = formFields(lines);
  const fields = allFields.slice(0, SUMMARY_FIELDS);
  const noun = fieldNoun(lines.map((l) => l.text).join('\n'));
  // A form's boxes are listed with their values; they are not its central sentences too.
  const taken = new Set([...opening.map((l) => l.line), ...allFields.flatMap((f) => [f.line, f.lastLine])]);
  const headings = lines.filter((l) => !taken.has(l.line) && isHeading(l.text)).slice(0, MAX_HEADINGS);
  headings.forEach((h) => taken.add(h.line));

  const sentences = lines
    .filter((l) => !taken.has(l.line) && !isHeading(l.text))
    .flatMap((l) => l.text.split(/(?<=[.!?])\s+/).map((text) => ({ line: l.line, text: text.trim(), terms: termsOf(text) })))
    .filter((s) => s.text.split(/\s+/).length >= SENTENCE_MIN_WORDS && s.terms.size > 0);
  const sentencesWith = new Map<string, number>();
  for (const s of sentences) for (const t of s.terms) sentencesWith.set(t, (sentencesWith.get(t) ?? 0) + 1);
  const scored = sentences.map((s, order) => {
    let shared = 0;
    for (const t of s.terms) shared += sentencesWith.get(t)! - 1;
    return { ...s, order, score: shared / Math.sqrt(s.terms.size) };
  });
  const central = scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, CENTRAL_SENTENCES)
    .sort((a, b) => a.order - b.order)
    .map(({ line, text }) => ({ line, text }));
  return { opening, headings, central, fields, noun };
}
