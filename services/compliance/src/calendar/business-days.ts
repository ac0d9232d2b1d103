import Holidays from 'date-holidays';
import type { CompliancePreset } from '@ledgerline/contracts/compliance.contracts.ts';

/** A calendar's next-business-day rule (presetSchema.businessDays); null: dates do not move (the UK, India). */
export type BusinessDayRule = NonNullable<CompliancePreset['businessDays']>;

/** A statutory due date after the rule: the day it is due, why it moved, and which table said so. */
export interface BusinessDue {
  dueDate: string;
  dueDateReason: string | null;
  holidayCalendar: string | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DAY_MS = 86_400_000;
const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
const toDay = (d: Date) => d.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string => toDay(new Date(toDate(day).getTime() + days * DAY_MS));
/** '31 Jan 2027'. */
export const dayLabel = (day: string): string => `${Number(day.slice(8, 10))} ${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;

/**
 * The holidays a rule counts in one year, by day: the country's public holidays (date-holidays,
 * the maintained tables, pinned in package.json) and the named ones of `include` (DC's
 * Emancipation Day; Canada's federal days the national table leaves to the provinces). Built
 * once per rule and year.
 */
const tables = new Map<string, Map<string, string>>();
function holidaysOf(rule: BusinessDayRule, year: number): Map<string, string> {
  const key = `${rule.name}/${year}`;
  let days = tables.get(key);
  if (days) return days;
  days = new Map();
  const add = (list: ReturnType<Holidays['getHolidays']>, keep: (h: { type: string; name: string }) => boolean) => {
    for (const h of list) if (keep(h) && !days!.has(h.date.slice(0, 10))) days!.set(h.date.slice(0, 10), h.name);
  };
  add(new Holidays(rule.country).getHolidays(year), (h) => h.type === 'public');
  for (const extra of rule.include) {
    const table = extra.subdivision ? new Holidays(rule.country, extra.subdivision) : new Holidays(rule.country);
    const named = table.getHolidays(year).filter((h) => extra.names.includes(h.name));
    add(named, () => true);
    if (extra.weekendObserved) {
      for (const h of named) {
        const day = h.date.slice(0, 10);
        const weekday = toDate(day).getUTCDay();
        const observed = weekday === 6 ? addDays(day, -1) : weekday === 0 ? addDays(day, 1) : null;
        if (observed && !days.has(observed)) days.set(observed, `${h.name} (observed)`);
      }
    }
  }
  tables.set(key, days);
  return days;
}

/** Why a day is not a business day ('a Sunday', 'Christmas Day'), or null when it is one. */
export function notBusinessDay(rule: BusinessDayRule, day: string): string | null {
  const weekday = toDate(day).getUTCDay();
  const holiday = holidaysOf(rule, Number(day.slice(0, 4))).get(day);
  if (holiday) return holiday;
  return weekday === 0 || weekday === 6 ? `a ${WEEKDAYS[weekday]}` : null;
}

/**
 * IRC §7503, the ATO's and the CRA's rule: a due date on a Saturday, Sunday or legal holiday
 * moves to the next business day. The reason names the statutory day and, when the next days
 * are holidays too, those ('30 May 2027 is a Sunday; 31 May 2027 is Memorial Day').
 */
export function nextBusinessDay(rule: BusinessDayRule | null, statutory: string): BusinessDue {
  if (!rule) return { dueDate: statutory, dueDateReason: null, holidayCalendar: null };
  const reasons: string[] = [];
  let day = statutory;
  for (let why = notBusinessDay(rule, day); why; why = notBusinessDay(rule, day)) {
    // After the first day a weekend goes without saying (a holiday on it too); a weekday's holiday is named.
    const weekend = [0, 6].includes(toDate(day).getUTCDay());
    if (!reasons.length || !weekend) reasons.push(`${dayLabel(day)} is ${why}`);
    day = addDays(day, 1);
  }
  return { dueDate: day, dueDateReason: reasons.length ? reasons.join('; ') : null, holidayCalendar: rule.name };
}
