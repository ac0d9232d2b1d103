/**
 * Which reporting periods a document names, as canonical keys, so a tracker item's period
 * and a file's mentions meet by equality (one pass over each file's text, at extraction):
 *   M2027-03  the month March 2027
 *   Q2026-04  the three months starting April 2026
 *   Y2026-04  the twelve months starting April 2026 (India's fiscal year 2026-27)
 *
 * Formats firms write: 'March 2027', 'Mar-27', '03/2027', '2027-03'; 'Q1 FY27',
 * 'Q1 FY 2026-27', 'Q1 2027' (calendar), 'quarter ended June 2026', 'Apr-Jun 2026';
 * '2026-27', 'FY 2026-27', 'FY27', 'AY 2027-28' (the assessment year after the fiscal year),
 * 'CY 2027', 'calendar year 2027'. A full date ('20/04/2027', '20 April 2027') is a day,
 * not a period: a return filed in April for March must not count as an April document.
 * Quarters and years written with "FY" follow India's April–March fiscal year; a
 * four-digit 'FY 2027' also counts as the calendar year (firms elsewhere close in December).
 */

export type PeriodKey = string;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const MONTH_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
/** A day number before a month name or number makes it a date, not a period. */
const NOT_A_DATE = String.raw`(?<!\d{1,2}(?:st|nd|rd|th)?[\s\-/.,]{1,2})(?<!\d)`;

const pad = (n: number) => String(n).padStart(2, '0');
const monthKey = (year: number, month: number): PeriodKey => `M${year}-${pad(month)}`;
const quarterKey = (year: number, startMonth: number): PeriodKey => `Q${year}-${pad(startMonth)}`;
const yearKey = (year: number, startMonth: number): PeriodKey => `Y${year}-${pad(startMonth)}`;
const monthIndex = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase() as (typeof MONTHS)[number]) + 1;
const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));
/** The calendar months before `month` (1–12) of `year`, as [year, month]. */
const monthsBack = (year: number, month: number, back: number): [number, number] => {
  const i = year * 12 + (month - 1) - back;
  return [Math.floor(i / 12), (i % 12) + 1];
};
/** '2026-27' or '2026-2027': the start year, when the end year follows it. */
const spanStart = (start: string, end: string): number | null => {
  const s = Number(start);
  const e = end.length === 2 ? Math.floor(s / 100) * 100 + Number(end) : Number(end);
  return e === s + 1 ? s : null;
};
/** India's fiscal year written 'FY27', 'FY 2027' or 'FY 2026-27': the calendar year it starts in. */
const indianFyStart = (text: string): number | null => {
  const span = /^(\d{4})\s*[-/–]\s*(\d{2}|\d{4})$/.exec(text);
  if (span) return spanStart(span[1]!, span[2]!);
  return /^\d{2}$|^\d{4}$/.test(text) ? fullYear(text) - 1 : null;
};

type Rule = [RegExp, (m: RegExpExecArray) => PeriodKey[]];

const FY = String.raw`f\.?\s?y\.?\s*'?`;
/** A year written after a quarter ('Q1 FY27', 'Q2 2026-27') names the quarter, not the year. */
const NOT_IN_A_QUARTER = String.raw`(?<!\bq[1-4]\s*[-,/]?\s*)`;
const FY_VALUE = String.raw`(\d{4}\s*[-/–]\s*(?:\d{4}|\d{2})|\d{4}|\d{2})`;

const RULES: Rule[] = [
  // Quarters: 'Q1 FY27', 'Q1 FY 2026-27', 'Q1 2026-27' (Indian), 'Q1 2027', 'Q1 CY2027' (calendar).
  [new RegExp(String.raw`\bq([1-4])\s*[-,/]?\s*(?:${FY}${FY_VALUE}\b|(\d{4}\s*[-/–]\s*(?:\d{4}|\d{2}))\b|(?:cy\s*)?(\d{4})\b)`, 'gi'), (m) => {
    const q = Number(m[1]);
    const fy = m[2] ?? m[3];
    if (fy) {
      const start = indianFyStart(fy.replace(/\s/g, ''));
      if (start === null) return [];
      const [y, mo] = monthsBack(start, 4, -(q - 1) * 3);
      return [quarterKey(y, mo)];
    }
    return [quarterKey(Number(m[4]), (q - 1) * 3 + 1)];
  }],
  // 'quarter ended June 2026', 'quarter ending 30 June 2026'.
  [new RegExp(String.raw`\bquarter\s+end(?:ed|ing)\s+(?:\d{1,2}(?:st|nd|rd|th)?\s+)?${MONTH_NAME}[\s,.'-]*(\d{4})\b`, 'gi'), (m) => {
    const [y, mo] = monthsBack(Number(m[2]), monthIndex(m[1]!), 2);
    return [quarterKey(y, mo)];
  }],
  // 'Apr-Jun 2026', 'April to June 2026': three months.
  [new RegExp(String.raw`\b${MONTH_NAME}\s*(?:-|–|to)\s*${MONTH_NAME}[\s,.'-]*(\d{4})\b`, 'gi'), (m) => {
    const from = monthIndex(m[1]!);
    const to = monthIndex(m[2]!);
    const span = (to - from + 12) % 12;
    if (span === 2) {
      const [y, mo] = monthsBack(Number(m[3]), to, 2);
      return [quarterKey(y, mo)];
    }
    if (span === 11) {
      const [y, mo] = monthsBack(Number(m[3]), to, 11);
      return [yearKey(y, mo)];
    }
    return [];
  }],
  // 'March 2027', 'Mar-27', "Mar '27" (not '20 March 2027'; a two-digit year needs its dash or
  // apostrophe, or 'may 25 people' would be May 2025).
  [new RegExp(String.raw`${NOT_A_DATE}\b${MONTH_NAME}(?:[\s,.]*(\d{4})|\s*[-'’]\s*(\d{2}))\b(?![/\-.]\d)`, 'gi'), (m) => [monthKey(fullYear(m[2] ?? m[3]!), monthIndex(m[1]!))]],
  // '03/2027', '3-2027' (not '20/03/2027').
  [new RegExp(String.raw`${NOT_A_DATE}\b(0?[1-9]|1[0-2])[/\-.](20\d{2})\b(?![/\-.]\d)`, 'g'), (m) => [monthKey(Number(m[2]), Number(m[1]))]],
  // '2027-03', '2027/03' (not '2027-03-20').
  [/(?<![\d/\-.])\b(20\d{2})[/\-](0[1-9]|1[0-2])\b(?![/\-.]\d)/g, (m) => [monthKey(Number(m[1]), Number(m[2]))]],
  // 'FY 2026-27', 'FY27', 'F.Y. 2026-2027'; a four-digit 'FY 2027' is also the calendar year 2027.
  [new RegExp(String.raw`${NOT_IN_A_QUARTER}\b${FY}${FY_VALUE}\b`, 'gi'), (m) => {
    const value = m[1]!.replace(/\s/g, '');
    const start = indianFyStart(value);
    const keys = start === null ? [] : [yearKey(start, 4)];
    if (/^\d{4}$/.test(value)) keys.push(yearKey(Number(value), 1));
    return keys;
  }],
  // 'AY 2027-28': assessed on the fiscal year before it.
  [/\b(?:a\.?\s?y\.?|assessment\s+year)\s*(\d{4})\s*[-/–]\s*(\d{4}|\d{2})\b/gi, (m) => {
    const start = spanStart(m[1]!, m[2]!);
    return start === null ? [] : [yearKey(start - 1, 4)];
  }],
  // A bare '2026-27' or '2026-2027' (not a date '2026-12', not part of 'AY 2027-28').
  [new RegExp(String.raw`${NOT_IN_A_QUARTER}(?<!(?:a\.?\s?y\.?|assessment\s+year|f\.?\s?y\.?)\s*)(?<![\d/\-.])\b(20\d{2})\s*[-/–]\s*(\d{4}|\d{2})\b(?![/\-.]\d)`, 'gi'), (m) => {
    const start = spanStart(m[1]!, m[2]!);
    return start === null ? [] : [yearKey(start, 4)];
  }],
  // 'CY 2027', 'calendar year 2027', 'tax year 2027', 'year ended December 31, 2027'.
  [/\b(?:cy|calendar\s+year|tax\s+year)\s*(\d{4})\b/gi, (m) => [yearKey(Number(m[1]), 1)]],
  [/\byear\s+end(?:ed|ing)\s+(?:31(?:st)?\s+)?dec(?:ember)?\.?\s*(?:31(?:st)?)?,?\s*(\d{4})\b/gi, (m) => [yearKey(Number(m[1]), 1)]],
];

/** Every period `text` names, deduplicated, in no particular order. */
export function periodsMentioned(text: string): PeriodKey[] {
  const found = new Set<PeriodKey>();
  for (const [pattern, keys] of RULES) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      for (const k of keys(m)) found.add(k);
    }
  }
  return [...found];
}

/**
 * The key of a tracker item's period from its first and last day ('YYYY-MM-DD'): one
 * month, three or twelve; null for any other length (no document can name it). A period that
 * ends early in a month (the UK tax year, 6 April to 5 April) counts to the month before, so
 * '2025-26' names the UK tax year 2025-26 as it names India's.
 */
export function periodKeyOf(start: string, end: string): PeriodKey | null {
  const [sy, sm] = [Number(start.slice(0, 4)), Number(start.slice(5, 7))];
  const [ey, em] = [Number(end.slice(0, 4)), Number(end.slice(5, 7))];
  const endsEarly = Number(end.slice(8, 10)) < 28;
  const months = (ey - sy) * 12 + (em - sm) + (endsEarly ? 0 : 1);
  if (months === 1) return monthKey(sy, sm);
  if (months === 3) return quarterKey(sy, sm);
  if (months === 12) return yearKey(sy, sm);
  return null;
}
