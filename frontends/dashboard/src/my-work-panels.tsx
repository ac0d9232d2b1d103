import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ProgressBar } from 'primereact/progressbar';
import { Skeleton } from 'primereact/skeleton';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { parseCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import type { MyWork, PanelState } from './my-work.api.ts';
import { COMPLIANCE_SOON_DAYS, PANEL_ROWS, type WorkEntry } from './my-work.ts';

/** Staff's home: their tasks, the compliance due soon and uploads to review, above the charts. */
export function StaffWorkPanels({ work }: { work: MyWork }) {
  return (
    <div className="my-work" aria-label="Your work" role="group">
      <WorkPanel title="My Tasks" subtitle="Overdue and due this week" icon="pi pi-check-square" state={work.tasks!} empty="Nothing due this week." />
      <WorkPanel
        title="Compliance Due Soon"
        subtitle={`Due in the next ${COMPLIANCE_SOON_DAYS} days`}
        icon="pi pi-shield"
        state={work.compliance}
        empty={`No compliance items due in the next ${COMPLIANCE_SOON_DAYS} days.`}
      />
      <WorkPanel title="Uploads to Review" subtitle="Documents clients sent in" icon="pi pi-inbox" state={work.uploads!} empty="No uploads waiting for review." />
    </div>
  );
}

/** A Client user's home: what the firm asked them for and what falls due. */
export function ClientWorkPanels({ work }: { work: MyWork }) {
  return (
    <section className="my-work-section" aria-labelledby="what-we-need">
      <h2 id="what-we-need" className="my-work-section__title">What we need from you</h2>
      <div className="my-work my-work--client">
        <WorkPanel title="Your Returns" subtitle="Where each of this year's returns stands" icon="pi pi-file-check" state={work.returns!} empty="No returns this year yet." sentences />
        <WorkPanel
          title="Document Requests"
          subtitle="Open requests from your firm"
          icon="pi pi-inbox"
          state={work.requests!}
          empty="Nothing requested right now."
          extra={({ progress: { done, required } }) => (
            <ProgressBar value={required ? Math.round((done / required) * 100) : 100} showValue={false} className="my-work__progress" aria-hidden="true" />
          )}
        />
        <WorkPanel title="Organizers" subtitle="Questions about your return" icon="pi pi-list-check" state={work.organizers!} empty="No questions to answer." />
        <WorkPanel title="To Sign" subtitle="Documents waiting for your signature" icon="pi pi-pen-to-square" state={work.signatures!} empty="Nothing to sign." />
        <WorkPanel title="Invoices to Pay" subtitle="What you owe your firm" icon="pi pi-wallet" state={work.invoices!} empty="Nothing to pay." />
        <WorkPanel
          title="Compliance Due Soon"
          subtitle={`Due in the next ${COMPLIANCE_SOON_DAYS} days`}
          icon="pi pi-shield"
          state={work.compliance}
          empty={`Nothing due in the next ${COMPLIANCE_SOON_DAYS} days.`}
        />
      </div>
    </section>
  );
}

interface WorkPanelProps<E extends WorkEntry> {
  title: string;
  subtitle: string;
  icon: string;
  state: PanelState<E>;
  empty: string;
  /** Drawn under the entry's detail (a request's progress bar). */
  extra?: (entry: E) => ReactNode;
  /** Titles are sentences read whole: they wrap instead of being cut. */
  sentences?: boolean;
}

/** A fixed-height panel: skeleton rows while loading, so nothing below moves when the entries arrive. */
function WorkPanel<E extends WorkEntry>({ title, subtitle, icon, state, empty, extra, sentences }: WorkPanelProps<E>) {
  const { entries, error } = state;
  const shown = entries?.slice(0, PANEL_ROWS);
  const more = entries ? entries.length - PANEL_ROWS : 0;
  return (
    <section className={`my-work__panel${sentences ? ' my-work__panel--sentences' : ''}`} aria-label={title} aria-busy={entries === undefined && !error}>
      <header className="my-work__head">
        <i className={icon} aria-hidden="true" />
        <div>
          <h3 className="my-work__title">
            {title}
            {entries && entries.length > 0 && <span className="my-work__count">{entries.length}</span>}
          </h3>
          <p className="my-work__subtitle">{subtitle}</p>
        </div>
      </header>
      {error ? (
        <p className="my-work__empty my-work__error">{failureReason(error)}</p>
      ) : !shown ? (
        <ul className="my-work__list" aria-hidden="true">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="my-work__skeleton"><Skeleton height="1rem" width="70%" /><Skeleton height="0.75rem" width="45%" /></li>
          ))}
        </ul>
      ) : shown.length === 0 ? (
        <p className="my-work__empty">{empty}</p>
      ) : (
        <ul className="my-work__list">
          {shown.map((entry) => (
            <li key={entry.key}>
              {entry.external ? (
                <a href={entry.href} className="my-work__entry"><EntryBody entry={entry} extra={extra} /></a>
              ) : (
                <Link to={entry.href} className="my-work__entry"><EntryBody entry={entry} extra={extra} /></Link>
              )}
            </li>
          ))}
          {more > 0 && <li className="my-work__more">and {more} more</li>}
        </ul>
      )}
    </section>
  );
}

function EntryBody<E extends WorkEntry>({ entry, extra }: { entry: E; extra?: (entry: E) => ReactNode }) {
  return (
    <>
      <span className="my-work__entry-title">{entry.title}</span>
      <span className="my-work__entry-detail">{entry.detail}</span>
      {extra?.(entry)}
      <DueChip entry={entry} />
    </>
  );
}

function DueChip({ entry }: { entry: WorkEntry }) {
  if (!entry.dueDate) return null;
  const date = formatDate(parseCalendarDate(entry.dueDate));
  return entry.overdue
    ? <span className="my-work__due my-work__due--overdue">Overdue · {date}</span>
    : <span className="my-work__due">Due {date}</span>;
}
