import { describe, expect, it } from '@jest/globals';
import { possessive } from '../src/possessive.ts';

describe('possessive', () => {
  it.each([
    ['Acme LLP', "Acme LLP's"],
    ['Mehta & Associates', "Mehta & Associates'"],
    ['Hudson & Pine CPAs', "Hudson & Pine CPAs'"],
    ['HUDSON & PINE CPAS', "HUDSON & PINE CPAS'"],
    ['  Acme  ', "Acme's"],
    ['O\u2019Brien Tax', 'O\u2019Brien Tax\u2019s'],
  ])('%s → %s', (name, expected) => {
    expect(possessive(name)).toBe(expected);
  });
});
