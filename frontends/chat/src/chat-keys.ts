/**
 * Spec 001 §5 "Chat send": Enter sends, Shift+Enter inserts a newline (so does Enter while
 * an input method is composing a character).
 */
export function sendsOnKey(event: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.isComposing;
}

/** The message the server will accept: trimmed, non-empty (spec 001 §5). */
export function sendableMessage(input: string): string | null {
  const trimmed = input.trim();
  return trimmed ? trimmed : null;
}
