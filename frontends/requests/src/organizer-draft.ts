import type { OrganizerAnswers } from '@ledgerline/contracts/organizers.contracts.ts';

/**
 * The answers a client typed that the server may not have yet, in localStorage: kept on every
 * change and removed once saved, so a reload, a crash or a phone that killed the tab finds
 * them. One entry per firm and organizer.
 */
export interface OrganizerDraft {
  answers: OrganizerAnswers;
  /** When the client changed them (this device's clock). */
  changedAt: string;
}

const draftKey = (tenant: string, organizerId: number): string => `organizerDraft:${tenant}:${organizerId}`;

export function readDraft(tenant: string, organizerId: number): OrganizerDraft | null {
  try {
    const text = localStorage.getItem(draftKey(tenant, organizerId));
    if (!text) return null;
    const draft = JSON.parse(text) as Partial<OrganizerDraft> | null;
    if (!draft || typeof draft.changedAt !== 'string' || typeof draft.answers !== 'object' || draft.answers === null || Array.isArray(draft.answers)) return null;
    return { answers: draft.answers, changedAt: draft.changedAt };
  } catch {
    return null;
  }
}

export function writeDraft(tenant: string, organizerId: number, answers: OrganizerAnswers, now = new Date()): void {
  try {
    localStorage.setItem(draftKey(tenant, organizerId), JSON.stringify({ answers, changedAt: now.toISOString() } satisfies OrganizerDraft));
  } catch {
    // Private modes and full storage refuse: the server copy (saved within a second) still keeps them.
  }
}

export function removeDraft(tenant: string, organizerId: number): void {
  try {
    localStorage.removeItem(draftKey(tenant, organizerId));
  } catch {
    // Nothing to remove where storage is refused.
  }
}

/**
 * The answers to start from: the local copy when it is newer than the server's last change
 * (typed here and not saved before the page went away), else the server's. A copy older than
 * the server's (answered on another device since, or the firm reopened it) is dropped.
 */
export function startingAnswers(server: { answers: OrganizerAnswers; updatedAt: string }, draft: OrganizerDraft | null): { answers: OrganizerAnswers; restored: boolean } {
  if (draft && Date.parse(draft.changedAt) > Date.parse(server.updatedAt)) return { answers: draft.answers, restored: true };
  return { answers: server.answers, restored: false };
}
