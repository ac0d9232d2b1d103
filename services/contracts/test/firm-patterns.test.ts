import { describe, expect, it } from '@jest/globals';
import { clientInputSchema, compileFirmPattern, DEFAULT_CLIENT_FIELD_SETTINGS } from '../src/directory.contracts.ts';

describe('firm patterns (linear-time engine)', () => {
  it('tests like RegExp#test: anchored patterns match whole values, unanchored ones anywhere', () => {
    expect(compileFirmPattern('^\\+91\\d{10}$')?.test('+919876543210')).toBe(true);
    expect(compileFirmPattern('^\\+91\\d{10}$')?.test('x+919876543210')).toBe(false);
    expect(compileFirmPattern('\\d{3}')?.test('ab123cd')).toBe(true);
  });

  it('refuses what RE2 cannot run in linear time, and what is not a pattern at all', () => {
    for (const pattern of ['(?=a)a', '(?<!a)b', '(a)\\1', '([A-Z']) expect(compileFirmPattern(pattern)).toBeNull();
  });

  it('fails closed on a pattern saved before the engine could not run it: a clear message, never an exception', () => {
    const schema = clientInputSchema({ ...DEFAULT_CLIENT_FIELD_SETTINGS, phonePattern: '^(?=\\d)\\d+$' });
    const result = schema.safeParse({ name: 'Acme', address: '1 Main Street', phone: '123', federalId: '12-3456789', stateId: 'X', email: 'a@example.com' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['Phone Number cannot be checked: an Admin must update its pattern in Settings']);
  });
});
