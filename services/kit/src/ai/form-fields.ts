import type { NumberedLine } from './extractive-summary.ts';

/**
 * A form's boxes read as label–value pairs (issue 44): a W-2's "2 Federal income tax withheld
 * 19,872.16" is Box 2, its label and its value, whether the value follows the label on its
 * line, follows a repeated box number (a 1040's "... total income 9 121,411.20"), or sits on
 * the line below ("12a See instructions for box 12" / "D 6,000.00"). Two boxes on one line
 * (a form's two columns) are two fields.
 */
export interface FormField {
  /** The box as the form numbers it: '2', '12a', 'G1', '1A'. */
  box: string;
  label: string;
  value: string;
  /** The lines it spans (label to value). */
  line: number;
  lastLine: number;
}

/** What the form calls its boxes: a 1040 speaks of lines ("Add lines 1z, 2b"), a W-2 of boxes. */
export type FieldNoun = 'Box' | 'Line';

/** Fewer fields than this and the document is not a form: numbered prose stays prose. */
export const MIN_FORM_FIELDS = 3;

/** A box number: '2', '12a', '1z', 'G1', 'W2', '1A' (always a digit: a lone letter starts a sentence). */
const BOX = String.raw`(?:\d{1,2}[a-z]{0,2}|[A-Z]{1,2}\d{1,2}|\d[A-Z])`;
/** An amount a form prints: grouped or with cents ('142,650.00', '96,400', '$74,432.25', '(1,200.00)'). */
const MONEY = String.raw`\(?-?(?:[$£€₹]|[Rr]s\.?\s?|INR\s?)?\s?(?:\d{1,3}(?:,\d{2,3})+(?:\.\d{1,2})?|\d+\.\d{2})\)?`;
/** What may follow a value: the line's end, the next box of the line, or a 1040's sub-line ('3a ... 2,905.17 b Ordinary dividends 3b ...'). */
const AFTER_VALUE = String.raw`(?=\s*$|\s+(?:[Bb]ox\s+)?${BOX}\s+\p{L}|\s+[a-z]\s+\p{L})`;
/** At the line's start or right after a field: box, label (the shortest that reaches a value), the box repeated, the value. */
const FIELD = new RegExp(String.raw`\s*(?:[Bb]ox\s+)?(${BOX})\s+(\p{L}[^\n]*?)\s+(?:\1\s+)?(${MONEY})${AFTER_VALUE}`, 'uy');
/** A 1040's sub-line after a field: 'b Taxable interest 2b 1,214.33' is box 2b. */
const SUB_FIELD = new RegExp(String.raw`\s+([a-z])\s+(\p{L}[^\n]*?)\s+(\d{1,2}\1)\s+(${MONEY})${AFTER_VALUE}`, 'uy');
/**
 * A whole line 'box label value' whose value is a small plain number or a short code ('G2
 * Export sales 0', 'Box 8 ... EU Member States 0'); not a reference to another box ('See
 * instructions for box 12'), nor an address ('88 Prospect Park West, Apt 4C, Brooklyn, NY
 * 11215': a label with a comma, a five-digit number).
 */
const LAST_VALUE_FIELD = new RegExp(String.raw`^\s*(?:[Bb]ox\s+)?(${BOX})\s+(\p{L}[^,]*?)\s+(?:\1\s+)?(?<!\b(?:[Bb]ox(?:es)?|[Ll]ines?)\s+)(\d{1,4}|[A-Z]{1,3})\s*$`, 'u');
/** A label on its own line, its value on the next; a W-2's lettered boxes too ('b Employer identification number (EIN)' / '13-4567890'). */
const LABEL_ONLY = new RegExp(String.raw`^\s*(?:[Bb]ox\s+)?(${BOX}|[a-f](?=\s+\p{Lu}))\s+(\p{L}.*?)\s*$`, 'u');

/** A value on a line of its own: short, and a number or a form's code ('D 6,000.00', 'X', 'NYC', 'NY 41-22873'); never words. */
function isValueLine(text: string): boolean {
  const t = text.trim();
  if (!t || t.length > 40) return false;
  if (/^\p{Lu}{1,4}$/u.test(t)) return true;
  return /\d/.test(t) && t.split(/\s+/).length <= 3 && !/\p{Ll}{2,}/u.test(t);
}

/** The fields a line starts with, one after the other ('1 Wages ... 142,650.00 2 Federal income tax withheld 19,872.16'). */
function fieldsInLine(text: string, line: number): FormField[] {
  const out: FormField[] = [];
  let at = 0;
  for (;;) {
    FIELD.lastIndex = at;
    SUB_FIELD.lastIndex = at;
    const m = FIELD.exec(text);
    const sub = m || !out.length ? null : SUB_FIELD.exec(text);
    if (m) out.push({ box: m[1]!, label: tidy(m[2]!), value: m[3]!.trim(), line, lastLine: line });
    else if (sub) out.push({ box: sub[3]!, label: tidy(sub[2]!), value: sub[4]!.trim(), line, lastLine: line });
    else return out;
    at = m ? FIELD.lastIndex : SUB_FIELD.lastIndex;
  }
}

/** The fields of a run of lines, in document order; [] when there are fewer than MIN_FORM_FIELDS. */
export function formFields(lines: readonly NumberedLine[]): FormField[] {
  const out: FormField[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const { line, text } = lines[i]!;
    const inLine = fieldsInLine(text, line);
    if (inLine.length) {
      out.push(...inLine);
      continue;
    }
    const last = LAST_VALUE_FIELD.exec(text);
    if (last) {
      out.push({ box: last[1]!, label: tidy(last[2]!), value: last[3]!, line, lastLine: line });
      continue;
    }
    const labelOnly = LABEL_ONLY.exec(text);
    const next = lines[i + 1];
    if (labelOnly && next && next.line === line + 1 && isValueLine(next.text)) {
      out.push({ box: labelOnly[1]!, label: tidy(labelOnly[2]!), value: next.text.trim(), line, lastLine: next.line });
      i += 1;
    }
  }
  return new Set(out.map((f) => f.box)).size >= MIN_FORM_FIELDS ? out : [];
}

const tidy = (label: string): string => label.replace(/\s+/g, ' ').trim();

/** 'Box' unless the form refers to its own boxes as lines ('Add lines 1z, 2b', 'Schedule 1, line 10'). */
export function fieldNoun(text: string): FieldNoun {
  const lines = text.match(/\blines?\s+\d/gi)?.length ?? 0;
  const boxes = text.match(/\bbox(?:es)?\s+\d/gi)?.length ?? 0;
  return lines > boxes ? 'Line' : 'Box';
}

/** 'Box 2, Federal income tax withheld: 19,872.16'. */
export const describeField = (f: FormField, noun: FieldNoun): string => `${noun} ${f.box}, ${f.label}: ${f.value}`;
