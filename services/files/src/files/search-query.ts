import { SNIPPET_MARK } from '@ledgerline/contracts/files.contracts.ts';

/**
 * The search box's text as a PostgreSQL tsquery over the `simple` configuration, in the
 * words the search vector holds (letters and digits; everything else separates words,
 * so "Q3_report-2024" is q3, report, 2024). It understands what people type into a web
 * search box — words (all must match), "quoted phrases", -excluded words and OR — and
 * matches each typed word as a prefix, so a partial word finds the whole one through
 * the same GIN index. (websearch_to_tsquery has the syntax but no prefix matching, and
 * parses words differently from the vector's normalised text.)
 */
const MAX_TERMS = 16;
const WORDS = /[\p{L}\p{N}]+/gu;

const words = (text: string): string[] => (text.toLowerCase().match(WORDS) ?? []);
const lexeme = (word: string, prefix: boolean) => `'${word}'${prefix && word.length > 1 ? ':*' : ''}`;

export function toTsQuery(search: string): string | null {
  const terms: { expr: string; negated: boolean; or: boolean }[] = [];
  let orNext = false;
  for (const m of search.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    if (terms.length >= MAX_TERMS) break;
    let negated = false;
    let expr: string | null = null;
    if (m[2] !== undefined) {
      negated = m[1] === '-';
      const phrase = words(m[2]);
      if (phrase.length) expr = phrase.length === 1 ? lexeme(phrase[0]!, false) : `(${phrase.map((w) => lexeme(w, false)).join(' <-> ')})`;
    } else {
      let token = m[3]!;
      if (token.toLowerCase() === 'or' && terms.length) { orNext = true; continue; }
      if (token.startsWith('-') && token.length > 1) { negated = true; token = token.slice(1); }
      const parts = words(token);
      if (parts.length) expr = parts.length === 1 ? lexeme(parts[0]!, true) : `(${parts.map((w) => lexeme(w, true)).join(' & ')})`;
    }
    if (!expr) continue;
    terms.push({ expr: negated ? `!${expr}` : expr, negated, or: orNext });
    orNext = false;
  }
  // Only exclusions would match nearly everything through a full scan: not a search.
  if (!terms.some((t) => !t.negated)) return null;
  return terms.map((t, i) => (i === 0 ? t.expr : `${t.or ? ' | ' : ' & '}${t.expr}`)).join('');
}

/** The words a search looks for (not the excluded ones), lower-cased: for marking them in a name. */
export function searchWords(search: string): string[] {
  const out: string[] = [];
  for (const m of search.matchAll(/(-?)"([^"]*)"?|(\S+)/g)) {
    if (m[2] !== undefined) { if (m[1] !== '-') out.push(...words(m[2])); continue; }
    const token = m[3]!;
    if (token.startsWith('-') || token.toLowerCase() === 'or') continue;
    out.push(...words(token));
  }
  return out;
}

/**
 * The name with every word that starts with a searched word between SNIPPET_MARK
 * characters (the same prefix rule the search applies), for rows whose content did not
 * provide a passage. Names are short: this costs less than asking the database.
 */
export function highlightName(name: string, searched: readonly string[]): string {
  if (searched.length === 0) return name;
  return name.replace(WORDS, (word) => {
    const lower = word.toLowerCase();
    return searched.some((s) => (s.length > 1 ? lower.startsWith(s) : lower === s)) ? `${SNIPPET_MARK.start}${word}${SNIPPET_MARK.end}` : word;
  });
}
