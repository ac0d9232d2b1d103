import { describe, expect, it } from '@jest/globals';
import { conversationTime, dayLabel, messageTime, startsDay } from '../src/message-time.ts';

describe('Messages page date formats (spec 001 §9)', () => {
  const at = new Date(2026, 10, 4, 14, 5).toISOString();
  const morning = new Date(2026, 0, 15, 9, 30).toISOString();
  it("shows a message's time as 'h:mm a'", () => {
    expect(messageTime(at)).toBe('2:05 PM');
    expect(messageTime(morning)).toBe('9:30 AM');
  });
  it("shows a conversation's last activity as 'MMM d, h:mm a'", () => {
    expect(conversationTime(at)).toBe('Nov 4, 2:05 PM');
    expect(conversationTime(morning)).toBe('Jan 15, 9:30 AM');
  });
  it('separates a thread by day: Today, Yesterday, then the full date', () => {
    const now = new Date(2026, 10, 26, 10, 0);
    expect(dayLabel(new Date(2026, 10, 26, 8, 0).toISOString(), now)).toBe('Today');
    expect(dayLabel(new Date(2026, 10, 25, 23, 59).toISOString(), now)).toBe('Yesterday');
    expect(dayLabel(at, now)).toBe('Wednesday, November 4, 2026');
    expect(startsDay(at, undefined)).toBe(true);
    expect(startsDay(at, new Date(2026, 10, 4, 9, 0).toISOString())).toBe(false);
    expect(startsDay(at, new Date(2026, 10, 3, 23, 0).toISOString())).toBe(true);
  });
});
