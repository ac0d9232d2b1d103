import { describe, expect, it } from '@jest/globals';
import { initials } from '../src/initials.ts';

describe('initials', () => {
  it('takes the first letters of the first and last word', () => {
    expect(initials('Ann Smith')).toBe('AS');
    expect(initials('mary ann  van der berg')).toBe('MB');
    expect(initials('Harbor Light Accounting')).toBe('HA');
    expect(initials('ann')).toBe('A');
    expect(initials('')).toBe('');
  });
});
