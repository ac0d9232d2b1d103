/** Spec 001 §9 date formats of the Messages page, in en-US like the rest of the portal. */
const time = (d: Date) => d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', hour12: true });

/** 'h:mm a', beside a message: '2:05 PM'. */
export const messageTime = (iso: string): string => time(new Date(iso));

/** 'MMM d, h:mm a', in the conversation list: 'Nov 24, 2:05 PM'. */
export function conversationTime(iso: string): string {
  const d = new Date(iso);
  return `${d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${time(d)}`;
}
