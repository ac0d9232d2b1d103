import {
  COMPLIANCE_CLIENT_NAME_CHARS, COMPLIANCE_ITEMS_PER_DAY, COMPLIANCE_WARNING_DAYS, TRACKER_STATUSES, type ComplianceItem, type ComplianceSchedule, type TrackerStatus,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { parseCalendarDate, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';

/** What the Compliance screen derives from tracker items (spec 001 §2, §4, §9); pure, so it is unit-tested. */

export const MONTH_LABELS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** Statuses as people read them; the API keeps its lowercase values. */
export const STATUS_LABELS: Record<TrackerStatus, string> = { pending: 'Pending', filed: 'Filed', delayed: 'Delayed', extended: 'Extended' };
export const STATUS_OPTIONS = TRACKER_STATUSES.map((value) => ({ label: STATUS_LABELS[value], value }));
/**
 * The quarterly picker: any three-month pattern, named by its months (Jan/Apr/Jul/Oct, Feb/May/Aug/Nov,
 * Mar/Jun/Sep/Dec), and single months for uneven calendars (India's TDS return, 31 May).
 */
export const QUARTER_PATTERNS = [1, 2, 3].map((first) => {
  const months = [first, first + 3, first + 6, first + 9].map(String);
  return { label: months.map((m) => MONTH_LABELS[Number(m) - 1]!.slice(0, 3)).join(' / '), months };
});
const DAY_MS = 86_400_000;

/** Whole days from `today` (the firm's, ui/firm-today.ts) to the due date: negative when past. */
export function daysUntil(dueDate: string, today: string): number {
  return Math.round((parseCalendarDate(dueDate)!.getTime() - parseCalendarDate(today)!.getTime()) / DAY_MS);
}

/**
 * The tracker's Days column: 'N overdue', 'Today' or 'N days'; warned at 7 or fewer (§2, §9).
 * An extended item counts to its extended due date; any other to its business-day due date.
 */
export function daysLabel(item: Pick<ComplianceItem, 'dueDate' | 'status' | 'extendedDueDate'>, today: string): { text: string; tone: 'danger' | 'warning' | 'normal' } {
  const days = daysUntil(effectiveDueDate(item), today);
  if (days < 0) return { text: `${-days} overdue`, tone: 'danger' };
  if (days === 0) return { text: 'Today', tone: 'warning' };
  return { text: `${days} days`, tone: days <= COMPLIANCE_WARNING_DAYS ? 'warning' : 'normal' };
}

/**
 * §4, calendar view: due date passed and neither filed nor extended; an extension with a date
 * holds only until that date (issue 39: overdue counts follow the extended due date).
 */
export const isCalendarOverdue = (item: Pick<ComplianceItem, 'dueDate' | 'status' | 'extendedDueDate'>, today: string): boolean =>
  effectiveDueDate(item) < today && item.status !== 'filed' && (item.status !== 'extended' || item.extendedDueDate !== null);

/** Client names in the calendar are cut to 15 characters (§9). */
export const shortName = (name: string): string =>
  (name.length > COMPLIANCE_CLIENT_NAME_CHARS ? `${name.slice(0, COMPLIANCE_CLIENT_NAME_CHARS)}...` : name);

/** Items per due day ('YYYY-MM-DD'): an extended item sits on its extended due date. */
export function itemsByDay(items: readonly ComplianceItem[]): Map<string, ComplianceItem[]> {
  const byDay = new Map<string, ComplianceItem[]>();
  for (const item of items) {
    const day = effectiveDueDate(item);
    byDay.set(day, [...(byDay.get(day) ?? []), item]);
  }
  return byDay;
}

/** The first three of a list and how many more there are (calendar days, overdue and upcoming panels). */
export function firstFew<T>(items: readonly T[], total = items.length): { shown: T[]; more: number } {
  const shown = items.slice(0, COMPLIANCE_ITEMS_PER_DAY);
  return { shown, more: Math.max(0, total - shown.length) };
}

/** The months a calendar view shows: one, or the three of its quarter (§9: quarter = 3 months). */
export interface CalendarView {
  mode: 'month' | 'quarter';
  year: number;
  /** 0–11: the month shown, or the quarter's first month. */
  month: number;
}

export function viewMonths(view: CalendarView): { year: number; month: number }[] {
  const count = view.mode === 'month' ? 1 : 3;
  return Array.from({ length: count }, (_, i) => ({ year: view.year + Math.floor((view.month + i) / 12), month: (view.month + i) % 12 }));
}

/** Previous/next moves one month, or three in the quarter view. */
export function shiftView(view: CalendarView, direction: 1 | -1): CalendarView {
  const total = view.year * 12 + view.month + direction * (view.mode === 'month' ? 1 : 3);
  return { ...view, year: Math.floor(total / 12), month: total % 12 };
}

/** The view holding a day ('Today': the firm's today), in the given mode; a quarter starts in Jan, Apr, Jul or Oct. */
export function todayView(mode: CalendarView['mode'], day: string): CalendarView {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7)) - 1;
  return { mode, year, month: mode === 'month' ? month : month - (month % 3) };
}

/** The displayed range as the calendar asks for it (§7: ISO strings of the range shown). */
export function viewRange(view: CalendarView): { startDate: string; endDate: string } {
  const months = viewMonths(view);
  const last = months.at(-1)!;
  const start = new Date(months[0]!.year, months[0]!.month, 1);
  const end = new Date(last.year, last.month + 1, 0);
  return { startDate: toCalendarDate(start), endDate: toCalendarDate(end) };
}

export const viewTitle = (view: CalendarView): string => {
  const months = viewMonths(view);
  if (view.mode === 'month') return `${MONTH_LABELS[view.month]} ${view.year}`;
  return `Q${Math.floor(view.month / 3) + 1} ${view.year} (${MONTH_LABELS[months[0]!.month]!.slice(0, 3)} – ${MONTH_LABELS[months[2]!.month]!.slice(0, 3)})`;
};

/** Month numbers as the Schedules tab shows them: 'Mar, Jun, Sep, Dec'; monthly schedules have none. */
export const monthNames = (months: readonly string[]): string => months.map((m) => MONTH_LABELS[Number(m) - 1]!.slice(0, 3)).join(', ');

/** 'MMM dd, yyyy' for tracker due dates (§9). */
export function trackerDate(isoDay: string | null): string {
  const d = parseCalendarDate(isoDay);
  if (!d) return '';
  return `${d.toLocaleDateString('en-US', { month: 'short' })} ${String(d.getDate()).padStart(2, '0')}, ${d.getFullYear()}`;
}

/** The years the Schedules tab generates: the firm's current one, and the next from October on (the firm prepares its coming year). */
export function generationYears(today: string): number[] {
  const year = Number(today.slice(0, 4));
  return Number(today.slice(5, 7)) >= 10 ? [year, year + 1] : [year];
}

/**
 * Where a generation starts by default: the day the (earliest of the) schedules was made, so a
 * firm that starts in November is not given the year's earlier periods as overdue work, while
 * the periods after it (next year's January returns for December, the annual returns for this
 * year) are all made. Not 1 January of the generated year: that would drop the returns due in it
 * for the year before.
 */
export function generationStart(schedules: readonly Pick<ComplianceSchedule, 'createdAt'>[]): string | undefined {
  return schedules.map((s) => toCalendarDate(new Date(s.createdAt))).sort()[0];
}

/** The day an item is due by now: its extended due date once extended, else the business-day due date. */
export const effectiveDueDate = (item: Pick<ComplianceItem, 'dueDate' | 'extendedDueDate'>): string => item.extendedDueDate ?? item.dueDate;

/** 'Mon 1 Feb 2027': the weekday matters when a date was moved off a weekend or holiday. */
export function weekdayDate(isoDay: string | null): string {
  const d = parseCalendarDate(isoDay);
  if (!d) return '';
  return `${d.toLocaleDateString('en-GB', { weekday: 'short' })} ${d.getDate()} ${d.toLocaleDateString('en-GB', { month: 'short' })} ${d.getFullYear()}`;
}

/**
 * Why the due date is not the statutory one: 'Due Mon 1 Feb 2027 — 31 Jan 2027 is a Sunday'
 * (the next-business-day rule, docs/using/compliance.md); null when the date was not moved.
 */
export function movedDueNote(item: Pick<ComplianceItem, 'dueDate' | 'statutoryDueDate' | 'dueDateReason'>): string | null {
  if (!item.dueDateReason && (!item.statutoryDueDate || item.statutoryDueDate === item.dueDate)) return null;
  return `Due ${weekdayDate(item.dueDate)} — ${item.dueDateReason ?? `moved from ${weekdayDate(item.statutoryDueDate)}`}`;
}

/** The dates of an item as its dialogs list them: the period's days, the statutory, adjusted and extended due dates. */
export function itemDateRows(item: Pick<ComplianceItem, 'period' | 'periodStart' | 'periodEnd' | 'dueDate' | 'statutoryDueDate' | 'dueDateReason' | 'extendedDueDate' | 'holidayCalendar'>): [string, string][] {
  const rows: [string, string][] = [
    ['Period', item.period],
    ['Period Start', trackerDate(item.periodStart)],
    ['Period End', trackerDate(item.periodEnd)],
  ];
  if (item.statutoryDueDate && item.statutoryDueDate !== item.dueDate) {
    rows.push(['Statutory Due Date', weekdayDate(item.statutoryDueDate)]);
    rows.push(['Due Date', `${weekdayDate(item.dueDate)}${item.dueDateReason ? ` (${item.dueDateReason})` : ''}`]);
  } else {
    rows.push(['Due Date', weekdayDate(item.dueDate)]);
  }
  if (item.holidayCalendar) rows.push(['Business Days', item.holidayCalendar]);
  if (item.extendedDueDate) rows.push(['Extended Due Date', weekdayDate(item.extendedDueDate)]);
  return rows;
}
