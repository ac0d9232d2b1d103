import { z } from 'zod';
import type { ClientJurisdiction } from './directory.contracts.ts';

/*
 * A client's typed tax IDs (issue 40): each type belongs to one jurisdiction and is checked
 * by its own format and, where the issuer publishes one, its check digit. Values are kept
 * compact (upper case, no spaces, hyphens or dots) so the same number typed two ways matches.
 * Lists and exports show only the last four characters (`maskTaxId`).
 */

interface TaxIdRule {
  jurisdiction: ClientJurisdiction;
  /** How the type is named in messages and on screen. */
  label: string;
  /** Completes '{label} must be {format}.' */
  format: string;
  pattern: RegExp;
  /** Number ranges the issuer never assigns (part of the format, no check digit). */
  assigned?: (compact: string) => boolean;
  /** The issuer's check (digit, character or modulus) on the compact value, where there is one. */
  check?: (compact: string) => boolean;
}

const digits = (s: string) => [...s].map(Number);
const weightedSum = (values: readonly number[], weights: readonly number[]) => weights.reduce((sum, w, i) => sum + w * values[i]!, 0);

/** Luhn (Canada's SIN and BN). */
export function luhnValid(number: string): boolean {
  let sum = 0;
  [...number].reverse().forEach((c, i) => {
    let d = Number(c);
    if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
  });
  return sum % 10 === 0;
}

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** GSTIN's 15th character: base-36 values of the first 14, weighted 1,2,1,2…, digits of each product summed in base 36. */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  [...first14].forEach((c, i) => {
    const product = GSTIN_CHARS.indexOf(c) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  });
  return GSTIN_CHARS[(36 - (sum % 36)) % 36]!;
}

/** UK UTR: the first digit checks the other nine (weights 6,7,8,9,10,5,4,3,2, modulus 11). */
export function utrCheckDigit(lastNine: string): number {
  const check = 11 - (weightedSum(digits(lastNine), [6, 7, 8, 9, 10, 5, 4, 3, 2]) % 11);
  return check > 9 ? check - 9 : check;
}

/** UK VAT (9 digits): weights 8…2 on the first seven plus the last two is 0 mod 97, or 55 less (the 2010 series). */
function ukVatValid(nine: string): boolean {
  const total = weightedSum(digits(nine), [8, 7, 6, 5, 4, 3, 2]) + Number(nine.slice(7));
  return total % 97 === 0 || (total + 55) % 97 === 0;
}

/** Australian ABN: 1 off the first digit, weights 10,1,3,5,…,19, 0 mod 89. */
function abnValid(abn: string): boolean {
  const d = digits(abn);
  d[0]! -= 1;
  return weightedSum(d, [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 === 0;
}

/** Australian TFN (8 or 9 digits): weighted sum 0 mod 11. */
function tfnValid(tfn: string): boolean {
  const weights = tfn.length === 9 ? [1, 4, 3, 7, 5, 8, 6, 9, 10] : [10, 7, 8, 4, 6, 3, 5, 1];
  return weightedSum(digits(tfn), weights) % 11 === 0;
}

/** Australian ACN: weights 8…1 on the first eight, the complement mod 10 is the ninth. */
export function acnCheckDigit(firstEight: string): number {
  return (10 - (weightedSum(digits(firstEight), [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10;
}

const SSN_AREA_NEVER = /^(000|666|9\d\d)/;

export const TAX_ID_RULES = {
  ssn: { jurisdiction: 'US', label: 'SSN', format: '9 digits (XXX-XX-XXXX) in an assigned range (not 000, 666 or 9XX first, nor 00 or 0000 in its groups)', pattern: /^\d{9}$/,
    assigned: (v: string) => !SSN_AREA_NEVER.test(v) && v.slice(3, 5) !== '00' && v.slice(5) !== '0000' },
  itin: { jurisdiction: 'US', label: 'ITIN', format: '9 digits starting with 9 (9XX-7X-XXXX)', pattern: /^9\d{8}$/,
    assigned: (v: string) => { const g = Number(v.slice(3, 5)); return (g >= 50 && g <= 65) || (g >= 70 && g <= 88) || (g >= 90 && g <= 92) || g >= 94; } },
  ein: { jurisdiction: 'US', label: 'EIN', format: '9 digits (XX-XXXXXXX)', pattern: /^\d{9}$/ },
  pan: { jurisdiction: 'IN', label: 'PAN', format: '5 letters, 4 digits and a letter, the fourth letter the holder\'s type (ABCDE1234F)',
    pattern: /^[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]$/ },
  gstin: { jurisdiction: 'IN', label: 'GSTIN', format: 'a 2-digit state code, a PAN, an entity character, Z and a check character (22ABCDE1234F1Z5)',
    pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, check: (v: string) => gstinCheckCharacter(v.slice(0, 14)) === v[14] },
  tan: { jurisdiction: 'IN', label: 'TAN', format: '4 letters, 5 digits and a letter (ABCD12345E)', pattern: /^[A-Z]{4}\d{5}[A-Z]$/ },
  utr: { jurisdiction: 'UK', label: 'UTR', format: '10 digits', pattern: /^\d{10}$/, check: (v: string) => utrCheckDigit(v.slice(1)) === Number(v[0]) },
  crn: { jurisdiction: 'UK', label: 'Company number', format: '8 digits, or 2 letters and 6 digits (SC123456)', pattern: /^(\d{2}|[A-Z]{2})\d{6}$/ },
  vat: { jurisdiction: 'UK', label: 'VAT number', format: 'GB and 9 digits (GB123456789)', pattern: /^(GB)?\d{9}$/, check: (v: string) => ukVatValid(v.replace(/^GB/, '')) },
  nino: { jurisdiction: 'UK', label: 'National Insurance number', format: '2 letters, 6 digits and A, B, C or D (QQ123456C)',
    pattern: /^(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/ },
  abn: { jurisdiction: 'AU', label: 'ABN', format: '11 digits', pattern: /^\d{11}$/, check: abnValid },
  tfn: { jurisdiction: 'AU', label: 'TFN', format: '8 or 9 digits', pattern: /^\d{8,9}$/, check: tfnValid },
  acn: { jurisdiction: 'AU', label: 'ACN', format: '9 digits', pattern: /^\d{9}$/, check: (v: string) => acnCheckDigit(v.slice(0, 8)) === Number(v[8]) },
  bn: { jurisdiction: 'CA', label: 'Business Number', format: '9 digits, optionally with a program account (123456782RT0001)', pattern: /^\d{9}([A-Z]{2}\d{4})?$/,
    check: (v: string) => luhnValid(v.slice(0, 9)) },
  sin: { jurisdiction: 'CA', label: 'SIN', format: '9 digits, not starting with 0 or 8', pattern: /^[1-79]\d{8}$/, check: luhnValid },
} as const satisfies Record<string, TaxIdRule>;

export type TaxIdType = keyof typeof TAX_ID_RULES;
export const TAX_ID_TYPES = Object.keys(TAX_ID_RULES) as TaxIdType[];
export const taxIdTypesOf = (jurisdiction: ClientJurisdiction): TaxIdType[] => TAX_ID_TYPES.filter((t) => TAX_ID_RULES[t].jurisdiction === jurisdiction);

/** Upper case without spaces, hyphens, dots or slashes: how a value is stored and compared. */
export const compactTaxId = (value: string): string => value.toUpperCase().replace(/[\s\-./]/g, '');

/** Null when the value is a valid `type`, else the message a 400 carries. */
export function taxIdProblem(type: TaxIdType, value: string): string | null {
  const rule: TaxIdRule = TAX_ID_RULES[type];
  const compact = compactTaxId(value);
  if (!compact) return `${rule.label} is required`;
  if (!rule.pattern.test(compact) || (rule.assigned && !rule.assigned(compact))) return `${rule.label} must be ${rule.format}`;
  if (rule.check && !rule.check(compact)) return `${rule.label} is not valid: its check digit does not match`;
  return null;
}

/** Only the last four characters, the rest as dots: what lists and exports show. */
export const maskTaxId = (value: string): string => value.slice(-4).padStart(Math.min(value.length, 9), '•');

export interface TaxId { type: TaxIdType; value: string }
/** What lists, details and exports carry: the type and the last four characters only. */
export interface MaskedTaxId { type: TaxIdType; last4: string; masked: string }
export const maskedTaxId = (t: TaxId): MaskedTaxId => ({ type: t.type, last4: t.value.slice(-4), masked: maskTaxId(t.value) });

/** One `{ type, value }`: a known type, a value valid for it (stored compact). */
export const taxIdSchema = z.object({
  type: z.string({ error: 'Tax ID type is required' }).trim().toLowerCase()
    .pipe(z.enum(TAX_ID_TYPES as [TaxIdType, ...TaxIdType[]], { error: `Tax ID type must be one of ${TAX_ID_TYPES.join(', ')}` })),
  value: z.string({ error: 'Tax ID value is required' }).max(40, 'Tax ID value is too long'),
}).transform((t, ctx) => {
  const problem = taxIdProblem(t.type, t.value);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem, path: ['value'] });
    return z.NEVER;
  }
  return { type: t.type, value: compactTaxId(t.value) };
});

/** A client's list: at most one value per type. */
export const taxIdListSchema = z.array(taxIdSchema, { error: 'taxIds must be a list of { type, value }' }).max(TAX_ID_TYPES.length)
  .refine((list) => new Set(list.map((t) => t.type)).size === list.length, 'A client has at most one tax ID of each type');

/** Null when every type belongs to the client's jurisdiction, else the message. */
export function taxIdJurisdictionProblem(taxIds: readonly TaxId[], jurisdiction: ClientJurisdiction): string | null {
  const foreign = taxIds.find((t) => TAX_ID_RULES[t.type].jurisdiction !== jurisdiction);
  if (!foreign) return null;
  return `${TAX_ID_RULES[foreign.type].label} is not a tax ID of ${jurisdiction}; a ${jurisdiction} client may have ${taxIdTypesOf(jurisdiction).join(', ')}`;
}
