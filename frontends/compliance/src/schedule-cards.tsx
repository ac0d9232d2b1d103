import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import type { ComplianceSchedule } from '@ledgerline/contracts/compliance.contracts.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { monthNames } from './compliance-view.ts';

export const NO_SCHEDULES = 'No compliance schedules found. Create your first schedule to start tracking deadlines.';

/** Schedules tab (spec 001 §2): one card per schedule with 'Generate {current year}'. */
export function ScheduleCards({ schedules, onGenerate, onGenerateAll, generating }: {
  schedules: readonly ComplianceSchedule[]; onGenerate(s: ComplianceSchedule, year: number): void; onGenerateAll(year: number): void; generating: number | 'all' | null;
}) {
  const year = new Date().getFullYear();
  if (schedules.length === 0) return <EmptyState icon="pi pi-calendar" text={NO_SCHEDULES} />;
  return (
    <>
    <div className="compliance-schedules__toolbar">
      <Button label={`Generate ${year} for all schedules shown`} icon="pi pi-bolt" size="small" loading={generating === 'all'} onClick={() => onGenerateAll(year)} />
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
            <dt>Reminder</dt><dd>{s.reminderDays} days before</dd>
            <dt>Status</dt><dd>{s.isActive ? 'Active' : 'Inactive'}</dd>
          </dl>
          {s.notes && <p className="compliance-schedule__notes">{s.notes}</p>}
          <Button label={`Generate ${year}`} icon="pi pi-bolt" size="small" outlined loading={generating === s.id} onClick={() => onGenerate(s, year)} />
        </article>
      ))}
    </div>
    </>
  );
}
