import { describe, expect, it } from '@jest/globals';
import { periodKeyOf, periodsMentioned } from '../src/rules/period-mentions.ts';

const keys = (text: string) => periodsMentioned(text).sort();

describe('periodsMentioned', () => {
  it.each([
    ['GSTR-3B for March 2027', 'M2027-03'],
    ['Return period: Mar-27', 'M2027-03'],
    ["Mar '27 acknowledgement", 'M2027-03'],
    ['Tax period 03/2027', 'M2027-03'],
    ['period 3-2027', 'M2027-03'],
    ['Period 2027-03', 'M2027-03'],
    ['GST Return March 2027 ARN', 'M2027-03'],
  ])('a month: %s', (text, key) => {
    expect(keys(text)).toContain(key);
  });

  it.each([
    ['TDS return Q1 FY27', 'Q2026-04'],
    ['Q4 FY 2026-27', 'Q2027-01'],
    ['Q2 2026-27 filed', 'Q2026-07'],
    ['Form 941 for Q1 2027', 'Q2027-01'],
    ['for the quarter ended June 2026', 'Q2026-04'],
    ['quarter ending 30 September 2026', 'Q2026-07'],
    ['Apr-Jun 2026', 'Q2026-04'],
    ['October to December 2026', 'Q2026-10'],
  ])('a quarter: %s', (text, key) => {
    expect(keys(text)).toContain(key);
  });

  it.each([
    ['Annual return 2026-27', 'Y2026-04'],
    ['FY 2026-2027 audit', 'Y2026-04'],
    ['ITR FY27', 'Y2026-04'],
    ['F.Y. 2026-27', 'Y2026-04'],
    ['AY 2027-28 acknowledgement', 'Y2026-04'],
    ['CY 2027 statement', 'Y2027-01'],
    ['for the year ended December 31, 2027', 'Y2027-01'],
    ['FY 2027', 'Y2027-01'],
  ])('a year: %s', (text, key) => {
    expect(keys(text)).toContain(key);
  });

  it.each([
    ['Date of filing 20/04/2027', 'M2027-04'],
    ['filed on 20 April 2027', 'M2027-04'],
    ['Filed 2027-04-20', 'M2027-04'],
    ['we may 25 people', 'M2025-05'],
    ['AY 2027-28', 'Y2027-04'],
    ['Q1 FY27', 'Y2026-04'],
    ['Q2 2026-27', 'Y2026-04'],
  ])('not a period: %s does not name %s', (text, key) => {
    expect(keys(text)).not.toContain(key);
  });

  it('finds nothing in text without periods', () => {
    expect(keys('Balance sheet with turnover of 45,00,000')).toEqual([]);
  });
});

describe('periodKeyOf', () => {
  it('keys months, quarters and years by their first month', () => {
    expect(periodKeyOf('2027-03-01', '2027-03-31')).toBe('M2027-03');
    expect(periodKeyOf('2026-04-01', '2026-06-30')).toBe('Q2026-04');
    expect(periodKeyOf('2026-04-01', '2027-03-31')).toBe('Y2026-04');
    expect(periodKeyOf('2026-04-01', '2026-05-31')).toBeNull();
  });
});
