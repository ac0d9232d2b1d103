import { describe, expect, it } from '@jest/globals';
import { formatCount } from '@ledgerline/ui/count-format.ts';

describe('formatCount', () => {
  it('groups the digits of a whole number by thousands, as en-US does', () => {
    for (const count of [0, 7, 999, 1000, 12345, 999999, 1000000, 1234567890, -1234, Number.MAX_SAFE_INTEGER]) {
      expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
    }
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(-1234)).toBe('-1,234');
  });

  it('leaves a number that is not a whole one to Intl', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(Number.NaN)).toBe('NaN');
  });
});
