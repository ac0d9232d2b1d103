import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { SelectButton } from 'primereact/selectbutton';
import { useMemo, useState } from 'react';
import type { CalendarDayCounts, ComplianceItem, TrackerStatus } from '@ledgerline/contracts/compliance.contracts.ts';
import { monthGrid, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import {
  effectiveDueDate, firstFew, isCalendarOverdue, movedDueNote, itemsByDay, MONTH_LABELS, shiftView, shortName, STATUS_LABELS, todayView, trackerDate, viewMonths, viewRange, viewTitle, type CalendarView,
} from './compliance-view.ts';
import { useItemList, useTrackerRange, type ItemListSource } from './compliance.api.ts';

/** What opening an entry does: the item's dialog (staff update it there, Client users read it). */
type OpenItem = (item: ComplianceItem) => void;
/** '+N more' opens the whole list of a day or panel. */
type OpenList = (list: { title: string; source: ItemListSource }) => void;

/** The first items of a list and how many it holds in all. */
interface ItemsHead {
  items: readonly ComplianceItem[];
  total: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MODES = [{ label: 'Month', value: 'month' }, { label: 'Quarter', value: 'quarter' }];

const describe = (item: ComplianceItem) => `${item.clientName} — ${item.reportTypeName} (${item.period})`;

/**
 * Why an item sits where it does, when that is not its statutory day: the next-business-day move
 * ('Due Mon 1 Feb 2027 — 31 Jan 2027 is a Sunday') and the extension ('Extended from Mar 15, 2027').
 */
function whyHere(item: ComplianceItem): string | null {
  const notes = [movedDueNote(item), item.extendedDueDate ? `Extended from ${trackerDate(item.dueDate)}` : null].filter(Boolean);
  return notes.length ? notes.join('; ') : null;
}

/** The chip's short note: the day it sits on is plain from the grid, so only the reason. */
const chipNote = (item: ComplianceItem): string | null =>
  (item.extendedDueDate ? `Extended from ${trackerDate(item.dueDate)}` : item.dueDateReason);

function ItemChip({ item, onOpen }: { item: ComplianceItem; onOpen: OpenItem }) {
  const why = whyHere(item);
  const note = chipNote(item);
  const body = <><strong>{item.reportTypeName}</strong><span>{item.period}</span><span>{shortName(item.clientName)}</span>{note && <small className="compliance-chip__why">{note}</small>}</>;
  const title = why ? `${describe(item)}. ${why}` : describe(item);
  return (
    <button type="button" className={`compliance-chip compliance-chip--${item.status}`} title={title} aria-label={`Open ${title}`} onClick={() => onOpen(item)}>{body}</button>
  );
}

/** One line of a list: the report type and period, the client, the due date and status; it opens the item. */
function ItemLine({ item, onOpen, withStatus = false }: { item: ComplianceItem; onOpen: OpenItem; withStatus?: boolean }) {
  const today = useFirmToday();
  const text = (<>
    <span className="compliance-line__what">{item.reportTypeName} · {item.period}</span>
    <span className="compliance-line__who">{shortName(item.clientName)}</span>
    <small>{trackerDate(effectiveDueDate(item))}{withStatus ? ` · ${STATUS_LABELS[item.status]}` : ''}</small>
    {whyHere(item) && <small className="compliance-line__why">{whyHere(item)}</small>}
  </>);
  return (
    <li className={today && isCalendarOverdue(item, today) ? 'compliance-mini-list__overdue' : undefined}>
      <button type="button" className="compliance-line" aria-label={`Open ${describe(item)}`} onClick={() => onOpen(item)}>{text}</button>
    </li>
  );
}

function MoreButton({ more, onClick }: { more: number; onClick(): void }) {
  return <button type="button" className="compliance-more" onClick={onClick}>+{more} more</button>;
}

/** A list panel (Overdue, Upcoming): three items and '+N more' (§2, §9), of `total` in all. */
function ItemPanel({ title, list, tone, source, onOpen, onList }: { title: string; list: ItemsHead; tone: 'danger' | 'warning'; source: ItemListSource; onOpen: OpenItem; onList: OpenList }) {
  const { shown, more } = firstFew(list.items, list.total);
  return (
    <section className={`compliance-panel compliance-panel--${tone}`} aria-label={title}>
      <h4>{title} ({list.total})</h4>
      {shown.length === 0 ? <p className="compliance-muted">No items</p> : (
        <ul className="compliance-mini-list">{shown.map((i) => <ItemLine key={i.id} item={i} onOpen={onOpen} />)}</ul>
      )}
      {more > 0 && <MoreButton more={more} onClick={() => onList({ title, source })} />}
    </section>
  );
}

/** The whole list behind a '+N more': a day's items, or the overdue or upcoming ones. */
function ItemListDialog({ list, filters, onOpen, onHide }: { list: { title: string; source: ItemListSource } | null; filters: { clientId?: number; status?: TrackerStatus }; onOpen: OpenItem; onHide(): void }) {
  const items = useItemList(list?.source ?? null, filters);
  return (
    <Dialog header={list?.title ?? ''} visible={list !== null} onHide={onHide} style={{ width: 'min(36rem, 95vw)' }}>
      <ul className="compliance-mini-list">{items.map((i) => <ItemLine key={i.id} item={i} withStatus onOpen={(item) => { onHide(); onOpen(item); }} />)}</ul>
    </Dialog>
  );
}

function MonthGrid({ year, month, today, byDay, days, onOpen, onList }: {
  year: number; month: number; today: string; byDay: Map<string, ComplianceItem[]>; days: CalendarDayCounts; onOpen: OpenItem; onList: OpenList;
}) {
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
            {shown.map((i) => <ItemChip key={i.id} item={i} onOpen={onOpen} />)}
            {more > 0 && <MoreButton more={more} onClick={() => onList({ title: `Due ${trackerDate(key)}`, source: { day: key } })} />}
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
function MonthCard({ year, month, items, total, onOpen, onList }: { year: number; month: number; items: readonly ComplianceItem[]; total: number; onOpen: OpenItem; onList: OpenList }) {
  const prefix = `${year}-${String(month + 1).padStart(2, '0')}`;
  const last = toCalendarDate(new Date(year, month + 1, 0));
  return (
    <section className="compliance-month-card" aria-label={`${MONTH_LABELS[month]} ${year}`}>
      <h4>{MONTH_LABELS[month]} {year}</h4>
      {items.length === 0 ? <p className="compliance-muted">No items this month</p> : (
        <ul className="compliance-mini-list">{items.map((i) => <ItemLine key={i.id} item={i} withStatus onOpen={onOpen} />)}</ul>
      )}
      {total > items.length && <MoreButton more={total - items.length} onClick={() => onList({ title: `${MONTH_LABELS[month]} ${year}`, source: { from: `${prefix}-01`, to: last } })} />}
    </section>
  );
}

interface CalendarProps {
  clientId: number | undefined; status: TrackerStatus | undefined; overdue: ItemsHead; upcoming: ItemsHead; onOpen: OpenItem;
}

/** Calendar View (spec 001 §2): month or quarter, previous/next, Today, overdue and upcoming panels; it opens on the firm's today. */
export function ComplianceCalendar(props: CalendarProps) {
  const today = useFirmToday();
  return today ? <CalendarOn today={today} {...props} /> : null;
}

function CalendarOn({ today, clientId, status, overdue, upcoming, onOpen }: CalendarProps & { today: string }) {
  const [view, setView] = useState<CalendarView>(() => todayView('month', today));
  const [list, setList] = useState<{ title: string; source: ItemListSource } | null>(null);
  const { items, days } = useTrackerRange(viewRange(view), { clientId, status });
  const byDay = useMemo(() => itemsByDay(items), [items]);
  const months = viewMonths(view);
  return (
    <div className="compliance-calendar">
      <div className="compliance-calendar__main">
        <div className="compliance-calendar__toolbar">
          <SelectButton value={view.mode} options={MODES} allowEmpty={false} aria-label="Calendar view" onChange={(e) => setView(todayView(e.value, toCalendarDate(new Date(view.year, view.month, 1))))} />
          <div className="compliance-calendar__nav">
            <Button icon="pi pi-chevron-left" text aria-label={view.mode === 'month' ? 'Previous month' : 'Previous quarter'} onClick={() => setView(shiftView(view, -1))} />
            <h3 data-testid="calendar-title">{viewTitle(view)}</h3>
            <Button icon="pi pi-chevron-right" text aria-label={view.mode === 'month' ? 'Next month' : 'Next quarter'} onClick={() => setView(shiftView(view, 1))} />
            <Button label="Today" outlined size="small" onClick={() => setView(todayView(view.mode, today))} />
          </div>
        </div>
        {view.mode === 'month' ? <MonthGrid year={view.year} month={view.month} today={today} byDay={byDay} days={days} onOpen={onOpen} onList={setList} /> : (
          <div className="compliance-quarter">
            {months.map((m) => {
              const prefix = `${m.year}-${String(m.month + 1).padStart(2, '0')}`;
              const total = Object.entries(days).reduce((sum, [day, c]) => (day.startsWith(prefix) ? sum + c.total : sum), 0);
              return <MonthCard key={prefix} year={m.year} month={m.month} items={items.filter((i) => effectiveDueDate(i).startsWith(prefix))} total={total} onOpen={onOpen} onList={setList} />;
            })}
          </div>
        )}
      </div>
      <aside className="compliance-calendar__side">
        <ItemPanel title="Overdue" list={overdue} tone="danger" source="overdue" onOpen={onOpen} onList={setList} />
        <ItemPanel title="Upcoming" list={upcoming} tone="warning" source="upcoming" onOpen={onOpen} onList={setList} />
      </aside>
      <ItemListDialog list={list} filters={{ clientId, status }} onOpen={onOpen} onHide={() => setList(null)} />
    </div>
  );
}
