import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import type { ComplianceSchedule, EarlierPeriods } from '@ledgerline/contracts/compliance.contracts.ts';
import { toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { generationStart, generationYears, monthNames } from './compliance-view.ts';

export const NO_SCHEDULES = 'No compliance schedules found. Create your first schedule to start tracking deadlines.';

/** Where a generation starts, and whether the periods before that day are made as filed. */
export interface GenerationStart { from: string | undefined; earlier?: EarlierPeriods }

export interface ScheduleActions {
  onGenerate(s: ComplianceSchedule, year: number, start: GenerationStart): void;
  onGenerateAll(year: number, start: GenerationStart): void;
  onEdit(s: ComplianceSchedule): void;
  onDelete(s: ComplianceSchedule, deleteItems: 'pending' | 'none'): void;
  generating: number | 'all' | null;
}

/**
 * Schedules tab (spec 001 §2): one card per schedule with 'Generate {current year}' (and next year
 * from October on), Edit and Delete. Generation starts from a day: periods that ended before it are
 * not created, so a firm onboarding in November does not get the year's earlier returns as overdue.
 * By default each schedule starts on the day it was made (compliance-view.ts generationStart).
 */
export function ScheduleCards({ schedules, actions }: { schedules: readonly ComplianceSchedule[]; actions: ScheduleActions }) {
  const [start, setStart] = useState<Date | null>(null);
  const [earlierFiled, setEarlierFiled] = useState(false);
  const [deleting, setDeleting] = useState<ComplianceSchedule | null>(null);
  const today = useFirmToday();
  const years = today ? generationYears(today) : [];
  if (schedules.length === 0) return <EmptyState icon="pi pi-calendar" text={NO_SCHEDULES} />;
  // The periods before the start are skipped, or made as filed when the firm says they were filed before it took over.
  const startFor = (list: readonly ComplianceSchedule[]): GenerationStart => ({
    from: start ? toCalendarDate(start) : generationStart(list), ...(earlierFiled ? { earlier: 'filed' as const } : {}),
  });
  return (
    <>
    <div className="compliance-schedules__toolbar">
      <span className="compliance-schedules__start">
        <label htmlFor="generation-start">Start from</label>
        <Calendar inputId="generation-start" value={start} showIcon showButtonBar placeholder="The day it was made" onChange={(e) => setStart((e.value as Date | null) ?? null)} />
      </span>
      <span className="compliance-schedules__earlier">
        <Checkbox inputId="generation-earlier-filed" checked={earlierFiled} onChange={(e) => setEarlierFiled(e.checked === true)} />
        <label htmlFor="generation-earlier-filed">Add the periods before it as filed</label>
      </span>
      {years.map((year) => (
        <Button key={year} label={`Generate ${year} for all schedules shown`} icon="pi pi-bolt" size="small" loading={actions.generating === 'all'}
          onClick={() => actions.onGenerateAll(year, startFor(schedules))} />
      ))}
    </div>
    <div className="compliance-schedules">
      {schedules.map((s) => (
        <article key={s.id} className="compliance-schedule" aria-label={`${s.clientName} ${s.reportTypeName}`}>
          <header>
            <h4>{s.clientName}</h4>
            <div className="compliance-schedule__badges">
              <Tag value={s.frequency} severity="info" />
              {!s.isActive && <Tag value="Inactive" severity="secondary" />}
            </div>
          </header>
          <p className="compliance-schedule__type">{s.reportTypeName}</p>
          <dl>
            <dt>Due Day</dt><dd>{s.dueDayOfMonth}</dd>
            {s.dueMonths.length > 0 && (<><dt>Due Months</dt><dd>{monthNames(s.dueMonths)}</dd></>)}
            <dt>Covers</dt><dd>{s.covers === 'due' ? 'The period of the due date' : s.covers === 'before' ? 'The period before the due date' : `The period ending ${s.periodLagMonths} months before`}</dd>
            <dt>Reminder</dt><dd>{s.reminderDays} days before</dd>
            <dt>Status</dt><dd>{s.isActive ? 'Active' : 'Inactive'}</dd>
          </dl>
          {s.notes && <p className="compliance-schedule__notes">{s.notes}</p>}
          <div className="compliance-schedule__actions">
            {s.isActive && years.map((year) => (
              <Button key={year} label={`Generate ${year}`} icon="pi pi-bolt" size="small" outlined loading={actions.generating === s.id}
                onClick={() => actions.onGenerate(s, year, startFor([s]))} />
            ))}
            <Button icon="pi pi-pencil" size="small" text aria-label={`Edit ${s.clientName} ${s.reportTypeName}`} onClick={() => actions.onEdit(s)} />
            <Button icon="pi pi-trash" size="small" text severity="danger" aria-label={`Delete ${s.clientName} ${s.reportTypeName}`} onClick={() => setDeleting(s)} />
          </div>
        </article>
      ))}
    </div>
    <Dialog header="Delete Schedule" visible={deleting !== null} onHide={() => setDeleting(null)} style={{ width: 'min(30rem, 95vw)' }}
      footer={<div className="form-dialog-footer">
        <Button label="Cancel" outlined onClick={() => setDeleting(null)} />
        <Button label="Keep its items" severity="danger" outlined onClick={() => { actions.onDelete(deleting!, 'none'); setDeleting(null); }} />
        <Button label="Remove pending items" severity="danger" onClick={() => { actions.onDelete(deleting!, 'pending'); setDeleting(null); }} />
      </div>}>
      {deleting && <p>Delete the {deleting.reportTypeName} schedule of {deleting.clientName}? Filed, delayed and extended items always stay in the tracker;
        its pending items can stay too, or be removed with it.</p>}
    </Dialog>
    </>
  );
}

