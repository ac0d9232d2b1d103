/** Spec 001 §9 date formats of the Messages page, in en-US like the rest of the portal. */
const time = (d: Date) => d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });

/** 'h:mm a', beside a message: '2:05 PM'. */
export const messageTime = (iso: string): string => time(new Date(iso));

/** 'MMM d, h:mm a', in the conversation list: 'Nov 24, 2:05 PM'. */
export function conversationTime(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${time(d)}`;
}

/** The local calendar day of a message (its separator's key). */
const dayOf = (iso: string): string => new Date(iso).toDateString();

/**
 * 'Today', 'Yesterday' or 'Monday, November 24, 2026': the separator above a thread's first
 * message of each day, in the reader's time zone.
 */
export function dayLabel(iso: string, now = new Date()): string {
  const day = dayOf(iso);
  if (day === now.toDateString()) return 'Today';
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (day === yesterday.toDateString()) return 'Yesterday';
  return new Date(iso).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
}

/** Whether a message starts a new day after the one before it (the first always does). */
export const startsDay = (iso: string, previousIso: string | undefined): boolean => !previousIso || dayOf(iso) !== dayOf(previousIso);
