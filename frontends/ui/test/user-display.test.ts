import { describe, expect, it } from '@jest/globals';
import { displayName } from '@ledgerline/ui/user-display.ts';

describe('user display', () => {
  it('greets with the full name, else the username', () => {
    expect(displayName({ fullName: 'Ann Smith', username: 'ann' })).toBe('Ann Smith');
    expect(displayName({ fullName: '  ', username: 'ann' })).toBe('ann');
    expect(displayName({ fullName: null, username: 'ann' })).toBe('ann');
    expect(displayName({ username: 'ann' })).toBe('ann');
  });
});
