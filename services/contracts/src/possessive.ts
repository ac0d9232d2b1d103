/**
 * A name's English possessive: "Acme LLP's", but "Hudson & Pine CPAs'" — a name that ends in s
 * (a plural, as most firms' names that end so are) takes the apostrophe alone. The apostrophe
 * is typographic (’) only if the name already uses one.
 */
export function possessive(name: string): string {
  const trimmed = name.trim();
  const apostrophe = trimmed.includes('\u2019') ? '\u2019' : "'";
  return /s$/i.test(trimmed) ? `${trimmed}${apostrophe}` : `${trimmed}${apostrophe}s`;
}
