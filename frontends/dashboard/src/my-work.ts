import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import type { OrganizerSummary } from '@ledgerline/contracts/organizers.contracts.ts';
import type { DocumentRequestSummary } from '@ledgerline/contracts/requests.contracts.ts';
import { portalSigningPath } from '@ledgerline/contracts/signatures.constants.ts';
import type { SignatureRequestSummary } from '@ledgerline/contracts/signatures.contracts.ts';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { taskActionUrl } from '@ledgerline/contracts/tasks.constants.ts';
import { compareCalendarDates } from '@ledgerline/ui/calendar-date.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { toReviewText } from '@ledgerline/ui/document-requests.ts';

/*
 * What the home panels list (docs/using/getting-started.md "Your home"): plain selections over
 * the reads the panels make, so the rules are tested without a browser.
 */

/** "This week": today and the six days after it, the Tasks page's upcoming window. */
export const MY_TASKS_DAYS = 7;
/** Compliance items shown are due within this many days from today. */
export const COMPLIANCE_SOON_DAYS = 14;
/** A panel lists at most this many entries and says how many more there are. */
export const PANEL_ROWS = 5;

export const complianceItemHref = (id: number): string => `/compliance?item=${id}`;
export const requestHref = (id: number): string => `/requests/${id}`;
export const organizerHref = (id: number): string => `/requests/organizers/${id}`;
export const invoiceHref = (id: number): string => `/invoices/${id}`;

export interface WorkEntry {
  key: string;
  title: string;
  detail: string;
  /** A calendar date 'YYYY-MM-DD', or null. */
  dueDate: string | null;
  overdue: boolean;
  href: string;
  /** A page outside the app (the signing page): opened as a plain link, not by the router. */
  external?: boolean;
}

const taskEntry = (t: Task, overdue: boolean): WorkEntry => ({
  key: `task-${t.id}`,
  title: t.title,
  detail: t.clientName ?? 'No client',
  dueDate: t.dueDate,
  overdue,
  href: taskActionUrl(t.id),
});

/**
 * The viewer's own open tasks: the overdue ones first, then those due this week. Both lists
 * come from the server, which reads "today" in the firm's time zone.
 */
export function myTaskEntries(overdue: readonly Task[], upcoming: readonly Task[], userId: number): WorkEntry[] {
  const mine = (t: Task) => t.assignedToId === userId;
  return [...overdue.filter(mine).map((t) => taskEntry(t, true)), ...upcoming.filter(mine).map((t) => taskEntry(t, false))];
}

/** Tracker items not yet filed, soonest due first (the read asks for today to COMPLIANCE_SOON_DAYS ahead). */
export function complianceEntries(items: readonly ComplianceItem[]): WorkEntry[] {
  return items
    .filter((i) => i.status !== 'filed')
    .sort((a, b) => compareCalendarDates(a.dueDate, b.dueDate) || a.id - b.id)
    .map((i) => ({
      key: `compliance-${i.id}`,
      title: `${i.reportTypeName} · ${i.period}`,
      detail: i.clientName,
      dueDate: i.dueDate,
      overdue: false,
      href: complianceItemHref(i.id),
    }));
}

/** Requests the viewer reviews: all of them for Admin and DTA, else those assigned to them. */
export function requestsToReview(requests: readonly DocumentRequestSummary[], userId: number, reviewsAll: boolean): DocumentRequestSummary[] {
  return requests.filter((r) => r.status === 'open' && (reviewsAll || r.assignedToId === userId));
}

/** One entry per request with uploads waiting for a decision (the list counts them). */
export function uploadEntries(requests: readonly DocumentRequestSummary[], today: string): WorkEntry[] {
  return requests
    .filter((r) => r.progress.uploaded > 0)
    .map((r) => ({
      key: `upload-${r.id}`,
      title: r.title,
      detail: `${r.clientName} · ${toReviewText(r.progress.uploaded)}`,
      dueDate: r.dueDate,
      overdue: r.dueDate < today,
      href: requestHref(r.id),
    }));
}

/** A Client user's open requests with how far along they are ("2 of 5 in"). */
export function clientRequestEntries(requests: readonly DocumentRequestSummary[], today: string): (WorkEntry & { progress: DocumentRequestSummary['progress'] })[] {
  return requests
    .filter((r) => r.status === 'open')
    .map((r) => ({
      key: `request-${r.id}`,
      title: r.title,
      detail: `${r.progress.done} of ${r.progress.required} required items done`,
      dueDate: r.dueDate,
      overdue: r.dueDate < today,
      href: requestHref(r.id),
      progress: r.progress,
    }));
}

/**
 * A Client user's organizers to answer (issue 42): sent or started, not yet submitted, soonest
 * due first; each opens the organizer, where the answers save as they type.
 */
export function clientOrganizerEntries(organizers: readonly OrganizerSummary[], today: string): WorkEntry[] {
  return organizers
    .filter((o) => o.status === 'sent' || o.status === 'in_progress')
    .sort((a, b) => compareCalendarDates(a.dueDate, b.dueDate) || a.id - b.id)
    .map((o) => ({
      key: `organizer-${o.id}`,
      title: o.title,
      detail: o.answeredCount > 0 ? `Answer the organizer: ${o.answeredCount} of ${o.questionCount} answered` : 'Answer the organizer',
      dueDate: o.dueDate,
      overdue: o.dueDate < today,
      href: organizerHref(o.id),
    }));
}

/**
 * "Your returns" on a Client user's home (issue 42): for each kind of return, the one the firm is
 * working on now (the soonest due not yet filed) or, when all are filed, the last one filed; each
 * in plain words with the stage clients see ("Your 2026 Form 1040: we are preparing it").
 */
export function returnEntries(items: readonly ComplianceItem[], today: string): WorkEntry[] {
  const byType = new Map<number, ComplianceItem>();
  const due = (i: ComplianceItem) => (i.status === 'extended' && i.extendedDueDate ? i.extendedDueDate : i.dueDate);
  for (const i of [...items].sort((a, b) => compareCalendarDates(due(a), due(b)) || a.id - b.id)) {
    const kept = byType.get(i.reportTypeId);
    const open = i.status !== 'filed';
    // The first open one wins; until there is one, the latest filed.
    if (!kept || (kept.status === 'filed' && (open || compareCalendarDates(due(i), due(kept)) >= 0))) byType.set(i.reportTypeId, i);
  }
  return [...byType.values()]
    .sort((a, b) => compareCalendarDates(due(a), due(b)) || a.id - b.id)
    .map((i) => ({
      key: `return-${i.id}`,
      title: returnSentence(i),
      // The sentence says it all; a filed one says when.
      detail: i.status === 'filed' && i.filedDate ? `Filed ${formatDate(i.filedDate)}` : '',
      dueDate: i.status === 'filed' ? null : due(i),
      // A return still open past its (extended) due date says so, as a request or an invoice does.
      overdue: i.status !== 'filed' && compareCalendarDates(due(i), today) < 0,
      href: complianceItemHref(i.id),
    }));
}

/** "Your 2026 Form 1040: we are preparing it" (a stage hidden from clients reads as the last visible one before it). */
export function returnSentence(i: Pick<ComplianceItem, 'period' | 'reportTypeName' | 'clientStage'>): string {
  const stage = i.clientStage?.trim() || 'Not started yet';
  return `Your ${i.period} ${i.reportTypeName}: ${stage.charAt(0).toLowerCase()}${stage.slice(1)}`;
}

/**
 * What a Client user has to sign (issue 41): requests sent to them that they have not signed
 * or declined, soonest due first; each opens the signing page. One whose earlier signers have
 * not signed yet says so (the page would only say "another signer signs first").
 */
export function clientSignatureEntries(requests: readonly SignatureRequestSummary[], userId: number, tenant: string, today: string): WorkEntry[] {
  return requests
    .flatMap((r) => {
      const me = r.signers.find((s) => s.userId === userId);
      return r.status === 'sent' && me?.status === 'pending' ? [{ r, me }] : [];
    })
    .sort((a, b) => compareCalendarDates(a.r.dueDate ?? '9999-12-31', b.r.dueDate ?? '9999-12-31') || a.r.id - b.r.id)
    .map(({ r, me }) => {
      const waitingFor = r.signers.filter((s) => s.order < me.order && s.status !== 'signed');
      return {
        key: `signature-${r.id}`,
        title: r.title,
        detail: waitingFor.length ? `${waitingFor.map((s) => s.name).join(' and ')} signs first` : 'Waiting for your signature',
        dueDate: r.dueDate,
        overdue: r.dueDate !== null && r.dueDate < today,
        href: portalSigningPath(tenant, r.id),
        external: true,
      };
    });
}

/** A Client user's invoices with something to pay (issue 43), soonest due first. */
export function clientInvoiceEntries(invoices: readonly Invoice[], today: string): WorkEntry[] {
  return invoices
    .filter((i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance > 0)
    .sort((a, b) => compareCalendarDates(a.dueDate ?? '9999-12-31', b.dueDate ?? '9999-12-31'))
    .map((i) => ({
      key: `invoice-${i.id}`,
      title: `Invoice ${i.number}`,
      detail: `${formatMinorUnits(i.balance, i.currency)} to pay`,
      dueDate: i.dueDate,
      overdue: i.dueDate !== null && i.dueDate < today,
      href: invoiceHref(i.id),
    }));
}
