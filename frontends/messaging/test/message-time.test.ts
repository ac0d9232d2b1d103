import { describe, expect, it } from '@jest/globals';
import { conversationTime, messageTime } from '../src/message-time.ts';

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
});
