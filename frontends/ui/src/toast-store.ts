/**
 * The one toast the portal shows at a time (spec 000 §4, §9: limit 1, 5000 ms). It lives in
 * the shared ui singleton rather than in a page, so a toast raised just before navigating
 * (a login's 'Login Successful') is still shown by the next page's outlet.
 */

export const TOAST_DURATION_MS = 5000;

export type ToastSeverity = 'success' | 'info' | 'warn' | 'error';

export interface ToastMessage {
  severity: ToastSeverity;
  summary: string;
  detail?: string;
  /** One button on the toast (an Undo); choosing it closes the toast. */
  action?: { label: string; run(): void };
}

export interface ActiveToast extends ToastMessage {
  id: number;
  expiresAt: number;
}

let current: ActiveToast | null = null;
let lastId = 0;
const listeners = new Set<() => void>();

/** Replaces whatever toast is showing. */
export function showToast(message: ToastMessage, now = Date.now()): ActiveToast {
  lastId += 1;
  current = { ...message, id: lastId, expiresAt: now + TOAST_DURATION_MS };
  notify();
  return current;
}

export function dismissToast(id: number): void {
  if (current?.id !== id) return;
  current = null;
  notify();
}

/** The toast still within its lifetime, if any. */
export function activeToast(now = Date.now()): ActiveToast | null {
  return current && current.expiresAt > now ? current : null;
}

/** For useSyncExternalStore: the last toast raised, expired or not. */
export function latestToast(): ActiveToast | null {
  return current;
}

export function subscribeToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}
