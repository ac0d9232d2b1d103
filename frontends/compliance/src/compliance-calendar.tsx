import { Button } from 'primereact/button';
import { SelectButton } from 'primereact/selectbutton';
import { useMemo, useState } from 'react';
import type { CalendarDayCounts, ComplianceItem, TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { monthGrid, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import {
  firstFew, isCalendarOverdue, itemsByDay, MONTH_LABELS, shiftView, shortName, todayView, trackerDate, viewMonths, viewRange, viewTitle, type CalendarView,
} from './compliance-view.ts';
import { useTrackerRange } from './compliance.api.ts';

/** The first items of a list and how many it holds in all. */
interface ItemsHead {
  items: readonly ComplianceItem[];
  total: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MODES = [{ label: 'Month', value: 'month' }, { label: 'Quarter', value: 'quarter' }];

function ItemChip({ item }: { item: ComplianceItem }) {
  return (
    <span className={`compliance-chip compliance-chip--${item.status}`} title={`${item.clientName} — ${item.reportTypeName} (${item.period})`}>
      <strong>{item.reportTypeName}</strong>
      <span>{shortName(item.clientName)}</span>
    </span>
  );
}

/** A list panel (Overdue, Upcoming): three items and '+N more' (§2, §9), of `total` in all. */
function ItemPanel({ title, list, tone }: { title: string; list: ItemsHead; tone: 'danger' | 'warning' }) {
  const { shown, more } = firstFew(list.items, list.total);
  return (
    <section className={`compliance-panel compliance-panel--${tone}`} aria-label={title}>
      <h4>{title} ({list.total})</h4>
      {shown.length === 0 ? <p className="compliance-muted">No items</p> : (
        <ul className="compliance-mini-list">
          {shown.map((i) => <li key={i.id}><span>{shortName(i.clientName)} · {i.reportTypeName}</span><small>{trackerDate(i.dueDate)}</small></li>)}
        </ul>
      )}
      {more > 0 && <p className="compliance-more">+{more} more</p>}
    </section>
  );
}

function MonthGrid({ year, month, byDay, days }: { year: number; month: number; byDay: Map<string, ComplianceItem[]>; days: CalendarDayCounts }) {
  const today = toCalendarDate(new Date());
  return (
    <div className="compliance-calendar__grid" role="group" aria-label={`${MONTH_LABELS[month]} ${year}`}>
      {WEEKDAYS.map((d) => <div key={d} className="compliance-calendar__weekday">{d}</div>)}
      {monthGrid(year, month).flat().map((d) => {
        const key = toCalendarDate(d);
        const inMonth = d.getMonth() === month;
        const items = inMonth ? byDay.get(key) ?? [] : [];
        const { shown, more } = firstFew(items, inMonth ? days[key]?.total : 0);
        const classes = ['compliance-calendar__day', !inMonth && 'compliance-calendar__day--outside', key === today && 'compliance-calendar__day--today',
          inMonth && (days[key]?.overdue ?? 0) > 0 && 'compliance-calendar__day--overdue'];
        return (
          <div key={key} className={classes.filter(Boolean).join(' ')} data-day={key}>
            <span className="compliance-calendar__date">{d.getDate()}</span>
            {shown.map((i) => <ItemChip key={i.id} item={i} />)}
            {more > 0 && <span className="compliance-more">+{more} more</span>}
          </div>
        );
      })}
    </div>
  );
}

/**
 * The quarter view's month card: the month's items as a list (three a day, as the grid), with
 * how many more the month holds, or 'No items this month'.
 */
function MonthCard({ year, month, items, total }: { year: number; month: number; items: readonly ComplianceItem[]; total: number }) {
  return (
    <section className="compliance-month-card" aria-label={`${MONTH_LABELS[month]} ${year}`}>
      <h4>{MONTH_LABELS[month]} {year}</h4>
      {items.length === 0 ? <p className="compliance-muted">No items this month</p> : (
        <ul className="compliance-mini-list">
          {items.map((i) => (
            <li key={i.id} className={isCalendarOverdue(i) ? 'compliance-mini-list__overdue' : undefined}>
              <span>{trackerDate(i.dueDate)} · {shortName(i.clientName)} · {i.reportTypeName}</span><small>{i.status}</small>
            </li>
          ))}
        </ul>
      )}
      {total > items.length && <p className="compliance-more">+{total - items.length} more</p>}
    </section>
  );
}

/** Calendar View (spec 001 §2): month or quarter, previous/next, Today, overdue and upcoming panels. */
export function ComplianceCalendar({ clientId, status, overdue, upcoming }: {
  clientId: number | undefined; status: TrackerStatus | undefined; overdue: ItemsHead; upcoming: ItemsHead;
}) {
  const [view, setView] = useState<CalendarView>(() => todayView('month'));
  const { items, days } = useTrackerRange(viewRange(view), { clientId, status });
  const byDay = useMemo(() => itemsByDay(items), [items]);
  const months = viewMonths(view);
  return (
    <div className="compliance-calendar">
      <div className="compliance-calendar__main">
        <div className="compliance-calendar__toolbar">
          <SelectButton value={view.mode} options={MODES} allowEmpty={false} aria-label="Calendar view" onChange={(e) => setView(todayView(e.value, new Date(view.year, view.month, 1)))} />
          <div className="compliance-calendar__nav">
            <Button icon="pi pi-chevron-left" text aria-label={view.mode === 'month' ? 'Previous month' : 'Previous quarter'} onClick={() => setView(shiftView(view, -1))} />
            <h3 data-testid="calendar-title">{viewTitle(view)}</h3>
            <Button icon="pi pi-chevron-right" text aria-label={view.mode === 'month' ? 'Next month' : 'Next quarter'} onClick={() => setView(shiftView(view, 1))} />
            <Button label="Today" outlined size="small" onClick={() => setView(todayView(view.mode))} />
          </div>
        </div>
        {view.mode === 'month' ? <MonthGrid year={view.year} month={view.month} byDay={byDay} days={days} /> : (
          <div className="compliance-quarter">
            {months.map((m) => {
              const prefix = `${m.year}-${String(m.month + 1).padStart(2, '0')}`;
              const total = Object.entries(days).reduce((sum, [day, c]) => (day.startsWith(prefix) ? sum + c.total : sum), 0);
              return <MonthCard key={prefix} year={m.year} month={m.month} items={items.filter((i) => i.dueDate.startsWith(prefix))} total={total} />;
            })}
          </div>
        )}
      </div>
      <aside className="compliance-calendar__side">
        <ItemPanel title="Overdue" list={overdue} tone="danger" />
        <ItemPanel title="Upcoming" list={upcoming} tone="warning" />
      </aside>
    </div>
  );
}
