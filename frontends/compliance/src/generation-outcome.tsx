import { Button } from 'primereact/button';
import type { LeftOutItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { weekdayDate } from './compliance-view.ts';
import { useClients } from './compliance.api.ts';

/** What a generation (or applying a calendar) made and what it left out, as the Schedules tab shows it. */
export interface GenerationOutcome {
  /** 'Trackers generated for 18 schedules, 2026'. */
  title: string;
  created: number;
  leftOut: readonly LeftOutItem[];
}

/**
 * The items a generation left out and why (issue 39: onboarding keeps every return not yet due;
 * what it drops, it says): 'Acme Inc — Form 941 (Q2 2026): Due 31 Jul 2026, before the start day 25 Nov 2026'
 * (the server's reason names the due day).
 */
export function LeftOutList({ leftOut }: { leftOut: readonly LeftOutItem[] }) {
  const clients = useClients().data;
  const clientName = (id: number) => clients.find((c) => c.id === id)?.name ?? `Client ${id}`;
  if (leftOut.length === 0) return <p className="compliance-muted">Nothing was left out.</p>;
  return (
    <ul className="compliance-left-out" aria-label="Left out">
      {leftOut.map((l) => (
        <li key={`${l.clientId}-${l.reportTypeName}-${l.period}`}>
          <strong>{clientName(l.clientId)}</strong> — {l.reportTypeName} ({l.period}): <span className="compliance-left-out__reason">{l.reason || `due ${weekdayDate(l.dueDate)}`}</span>
        </li>
      ))}
    </ul>
  );
}

/** The last generation's outcome above the schedule cards, until dismissed (a toast would hide what was left out). */
export function GenerationOutcomePanel({ outcome, onDismiss }: { outcome: GenerationOutcome | null; onDismiss(): void }) {
  if (!outcome) return null;
  return (
    <section className="compliance-outcome" role="status" aria-label="Generation result">
      <div className="compliance-outcome__head">
        <strong>{outcome.title}: {outcome.created} items created{outcome.leftOut.length ? `, ${outcome.leftOut.length} left out` : ''}</strong>
        <Button icon="pi pi-times" text size="small" aria-label="Dismiss the generation result" onClick={onDismiss} />
      </div>
      {outcome.leftOut.length > 0 && (
        <details open={outcome.leftOut.length <= 10}>
          <summary>What was left out, and why</summary>
          <LeftOutList leftOut={outcome.leftOut} />
        </details>
      )}
    </section>
  );
}
