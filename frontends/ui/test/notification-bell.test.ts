import { describe, expect, it } from '@jest/globals';
import { badgeText } from '@ledgerline/ui/notification-bell.tsx';

describe('notification badge', () => {
  it("shows the unread count, and '99+' above 99 (spec 001 §9)", () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});
