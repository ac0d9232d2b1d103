import { describe, expect, it } from '@jest/globals';
import {
  acnCheckDigit, compactTaxId, gstinCheckCharacter, luhnValid, maskTaxId, taxIdJurisdictionProblem, taxIdListSchema, taxIdProblem,
  TAX_ID_TYPES, utrCheckDigit, type TaxIdType,
} from '../src/tax-ids.ts';

/*
 * Valid numbers are made here by computing their check digits over made-up digits, never
 * taken from real people or firms; each valid one has a twin with one character changed.
 */

/** The first digit 0-9 that, appended to `prefix`, passes `valid`. */
const completeDigit = (prefix: string, valid: (v: string) => boolean): string => {
  for (let d = 0; d <= 9; d += 1) if (valid(`${prefix}${d}`)) return `${prefix}${d}`;
  throw new Error(`no check digit completes ${prefix}`);
};
const luhnComplete = (prefix: string) => completeDigit(prefix, luhnValid);

const abnOf = (lastNine: string): string => {
  for (let lead = 10; lead <= 99; lead += 1) {
    const abn = `${lead}${lastNine}`;
    const d = [...abn].map(Number);
    d[0]! -= 1;
    if ([10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19].reduce((s, w, i) => s + w * d[i]!, 0) % 89 === 0) return abn;
  }
  throw new Error('no ABN');
};
const tfnOf = (firstEight: string): string => {
  for (let prefix = Number(firstEight); ; prefix += 1) {
    const p = String(prefix).padStart(8, '0');
    for (let d = 0; d <= 9; d += 1) {
      const tfn = `${p}${d}`;
      if ([1, 4, 3, 7, 5, 8, 6, 9, 10].reduce((s, w, i) => s + w * Number(tfn[i]), 0) % 11 === 0) return tfn;
    }
  }
};
const vatOf = (firstSeven: string): string => {
  const w = [8, 7, 6, 5, 4, 3, 2].reduce((s, x, i) => s + x * Number(firstSeven[i]), 0);
  return `GB${firstSeven}${String((97 - (w % 97)) % 97).padStart(2, '0')}`;
};
const gstinOf = (first14: string) => `${first14}${gstinCheckCharacter(first14)}`;
const utrOf = (lastNine: string) => `${utrCheckDigit(lastNine)}${lastNine}`;

/** Change the check character (a UTR's is its first), so it no longer matches. */
const flipCheck = (type: TaxIdType, v: string): string => (type === 'utr' ? `${(Number(v[0]) + 1) % 10}${v.slice(1)}` : flipLast(v));

/** Change the last character to another digit (or letter), so a check digit no longer matches. */
const flipLast = (v: string): string => {
  const last = v.at(-1)!;
  const other = /\d/.test(last) ? String((Number(last) + 1) % 10) : (last === 'A' ? 'B' : 'A');
  return `${v.slice(0, -1)}${other}`;
};

const VALID: Record<TaxIdType, string[]> = {
  ssn: ['123-45-6789', '234 56 7890'],
  itin: ['912-70-1234', '900-94-0000'],
  ein: ['12-3456789', '987654321'],
  pan: ['ABCPE1234F', 'aaacb9999z'],
  gstin: [gstinOf('27ABCPE1234F1Z'), gstinOf('07AAACB9999Z2Z')],
  tan: ['ABCD12345E'],
  utr: [utrOf('234567890'), utrOf('111111111')],
  crn: ['01234567', 'SC123456'],
  vat: [vatOf('1234567'), vatOf('7654321').slice(2)],
  nino: ['AB123456C', 'ce 12 34 56 d'],
  abn: [abnOf('123456789'), abnOf('004085616')],
  tfn: [tfnOf('12345678'), tfnOf('87654321')],
  acn: [`12345678${acnCheckDigit('12345678')}`, `00012345${acnCheckDigit('00012345')}`],
  bn: [luhnComplete('12345678'), `${luhnComplete('87654321')}RT0001`],
  sin: [luhnComplete('12345678'), luhnComplete('70000000')],
};

const INVALID_FORMAT: Record<TaxIdType, string[]> = {
  ssn: ['000-12-3456', '666-12-3456', '912-34-5678', '123-00-4567', '123-45-0000', '12345678'],
  itin: ['812-70-1234', '912-40-1234', '912-93-1234'],
  ein: ['12-345678', 'AB-3456789'],
  pan: ['ABCDE1234F', 'ABCP1234F', '1BCPE1234F'],
  gstin: ['27ABCPE1234F1Y5', '2ABCPE1234F1Z5'],
  tan: ['ABC123456E', 'ABCD1234E'],
  utr: ['123456789', '12345678901'],
  crn: ['1234567', 'S1234567'],
  vat: ['GB12345678', 'FR123456789'],
  nino: ['QQ123456C', 'GB123456A', 'AB123456E', 'AB12345C'],
  abn: ['1234567890'],
  tfn: ['1234567'],
  acn: ['12345678'],
  bn: ['12345678', '123456782XX01'],
  sin: ['046454286', '846454286', '12345678'],
};

/** Types whose issuer publishes a check digit: changing the last digit of a valid number breaks it. */
const CHECKED: TaxIdType[] = ['gstin', 'utr', 'vat', 'abn', 'tfn', 'acn', 'sin'];

describe('tax ID validators', () => {
  it.each(TAX_ID_TYPES.flatMap((type) => VALID[type].map((v) => [type, v] as const)))('%s %s is valid', (type, value) => {
    expect(taxIdProblem(type, value)).toBeNull();
  });

  it.each(TAX_ID_TYPES.flatMap((type) => INVALID_FORMAT[type].map((v) => [type, v] as const)))('%s %s is refused by its format', (type, value) => {
    expect(taxIdProblem(type, value)).toMatch(/ must be /);
  });

  it.each(CHECKED.flatMap((type) => VALID[type].map((v) => [type, flipCheck(type, compactTaxId(v))] as const)))('%s %s is refused by its check digit', (type, value) => {
    expect(taxIdProblem(type, value)).toMatch(/check digit does not match/);
  });

  it('a BN with a program account is checked on its first nine digits', () => {
    const bn = luhnComplete('12345678');
    expect(taxIdProblem('bn', `${flipLast(bn)}RT0001`)).toMatch(/check digit/);
  });

  it('an empty value is required, an unknown type named', () => {
    expect(taxIdProblem('ein', '  ')).toBe('EIN is required');
    const parsed = taxIdListSchema.safeParse([{ type: 'passport', value: '123' }]);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/^Tax ID type must be one of ssn, itin, ein/);
  });

  it('values are stored compact and upper case; one per type', () => {
    expect(taxIdListSchema.parse([{ type: 'EIN', value: '12-3456789' }, { type: 'ssn', value: '123 45 6789' }]))
      .toEqual([{ type: 'ein', value: '123456789' }, { type: 'ssn', value: '123456789' }]);
    expect(taxIdListSchema.safeParse([{ type: 'ein', value: '12-3456789' }, { type: 'ein', value: '98-7654321' }]).error?.issues[0]?.message)
      .toBe('A client has at most one tax ID of each type');
  });

  it('a type belongs to its jurisdiction', () => {
    expect(taxIdJurisdictionProblem([{ type: 'ein', value: '123456789' }], 'US')).toBeNull();
    expect(taxIdJurisdictionProblem([{ type: 'abn', value: VALID.abn[0]! }], 'US')).toBe('ABN is not a tax ID of US; a US client may have ssn, itin, ein');
  });

  it('masks all but the last four', () => {
    expect(maskTaxId('123456789')).toBe('•••••6789');
    expect(maskTaxId('27ABCPE1234F1Z5')).toBe('•••••F1Z5');
    expect(maskTaxId('123')).toBe('123');
  });
});
