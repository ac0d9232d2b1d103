import { Button } from 'primereact/button';
import { useMemo, useState } from 'react';
import type { Task } from '@ledgerline/contracts/tasks.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { monthGrid } from '@ledgerline/ui/calendar-date.ts';
import { dayDots, dayKey, dueWithin, PRIORITY_LABELS, tasksByDay } from './task-view.ts';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const UPCOMING_DAYS = 7;
const UPCOMING_ITEMS = 5;

/** Calendar View (spec 001 §2): priority dots per day, legend, the chosen day's tasks and 'Upcoming This Week'. */
export function TaskCalendar({ tasks, today }: { tasks: readonly Task[]; today: string | undefined }) {
  const now = new Date();
  const [month, setMonth] = useState({ year: now.getFullYear(), month: now.getMonth() });
  const [selected, setSelected] = useState<Date>(now);
  const byDay = useMemo(() => tasksByDay(tasks), [tasks]);
  const weeks = monthGrid(month.year, month.month);
  const dayTasks = byDay.get(dayKey(selected)) ?? [];
  const upcoming = today ? dueWithin(tasks, UPCOMING_DAYS, today).slice(0, UPCOMING_ITEMS) : [];
  const shift = (n: number) => setMonth(({ year, month: m }) => ({ year: year + Math.floor((m + n) / 12), month: (((m + n) % 12) + 12) % 12 }));
  const title = new Date(month.year, month.month, 1).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  return (
    <div className="task-calendar">
      <div className="task-calendar__month">
        <div className="task-calendar__nav">
          <Button icon="pi pi-chevron-left" text aria-label="Previous month" onClick={() => shift(-1)} />
          <h3 data-testid="calendar-month">{title}</h3>
          <Button icon="pi pi-chevron-right" text aria-label="Next month" onClick={() => shift(1)} />
        </div>
        <div className="task-calendar__grid" role="grid">
          {WEEKDAYS.map((d) => <div key={d} className="task-calendar__weekday">{d}</div>)}
          {weeks.flat().map((d) => {
            const key = dayKey(d);
            const dots = dayDots(byDay.get(key) ?? []);
            const classes = ['task-calendar__day', d.getMonth() !== month.month && 'task-calendar__day--outside', key === dayKey(selected) && 'task-calendar__day--selected', key === (today ?? dayKey(now)) && 'task-calendar__day--today'];
            return (
              <button key={key} type="button" className={classes.filter(Boolean).join(' ')} data-day={key} onClick={() => setSelected(d)}>
                <span>{d.getDate()}</span>
                <span className="task-calendar__dots">
                  {dots.priorities.map((p, i) => <i key={i} className={`task-dot task-dot--${p}`} />)}
                  {dots.more && <i className="task-dot task-dot--more" />}
                </span>
              </button>
            );
          })}
        </div>
        <div className="task-calendar__legend">
          {(['urgent', 'high', 'medium', 'low'] as const).map((p) => <span key={p}><i className={`task-dot task-dot--${p}`} /> {PRIORITY_LABELS[p]}</span>)}
        </div>
      </div>
      <div className="task-calendar__side">
        <section className="task-card">
          <h4>Tasks for {formatDate(selected)} ({dayTasks.length} tasks)</h4>
          {dayTasks.length === 0 ? <p className="tasks-empty">No tasks found</p> : (
            <ul className="task-mini-list">{dayTasks.map((t) => <li key={t.id}><i className={`task-dot task-dot--${t.priority}`} /> {t.title}</li>)}</ul>
          )}
        </section>
        <section className="task-card">
          <h4>Upcoming This Week</h4>
          {upcoming.length === 0 ? <p className="tasks-empty">No upcoming tasks</p> : (
            <ul className="task-mini-list">{upcoming.map((t) => <li key={t.id}>{t.title} <small>{formatDate(t.dueDate)}</small></li>)}</ul>
          )}
        </section>
      </div>
    </div>
  );
}
