import { coveredPeriod } from '@ledgerline/kit/calendar/covered-period.ts';
import type { CompliancePreset, EntryVersion, ExtensionRule, PresetEntry } from '@ledgerline/contracts/compliance.contracts.ts';
import { defaultFiscalYearEnd } from '@ledgerline/contracts/directory.contracts.ts';
import { addDays, dayLabel, nextBusinessDay } from '../calendar/business-days.ts';
import { daysInMonth, type Period } from '../schedules/periods.ts';

/**
 * The items a statutory calendar entry yields (issue 39): its rule as data (the schedule model's
 * frequency, due day, due months and period lag, and where that cannot say it: a fiscal year that
 * moves with the client's, due days by month or by State, periods of their own, UK tax months,
 * days after the period's end), the version in force for each period (a law change is a new
 * version), and the jurisdiction's next-business-day rule.
 */

/** What of a client the rules read. */
export interface ClientFacts {
  /** "MM-DD"; null: the jurisdiction's default. */
  fiscalYearEnd: string | null;
  state: string | null;
}

/** A period the entry's rule does not cover (Payday Super before 1 Jul 2026), with why. */
export interface NotInForce {
  period: Period;
  reason: string;
}

interface Variant {
  dueDayOfMonth: number;
  dueMonths: readonly string[];
  periodLagMonths: number;
  validFrom?: string;
  validUntil?: string;
  yearEnds?: readonly string[];
  extension: ExtensionRule | null;
  source: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The entry's versions (most specific first), then the entry's own rule. */
function variantsOf(entry: PresetEntry): Variant[] {
  const base: Variant = {
    dueDayOfMonth: entry.dueDayOfMonth, dueMonths: entry.dueMonths, periodLagMonths: entry.periodLagMonths,
    validFrom: entry.validFrom, validUntil: entry.validUntil, extension: entry.extension ?? null, source: entry.source,
  };
  const versions = (entry.versions ?? []).map((v: EntryVersion): Variant => ({
    ...base, dueDayOfMonth: v.dueDayOfMonth ?? base.dueDayOfMonth, dueMonths: v.dueMonths ?? base.dueMonths, periodLagMonths: v.periodLagMonths ?? base.periodLagMonths,
    validFrom: v.validFrom, validUntil: v.validUntil, yearEnds: v.yearEnds, extension: v.extension === undefined ? base.extension : v.extension, source: v.source,
  }));
  return [...versions, base];
}

const effectiveYearEnd = (preset: CompliancePreset, client: ClientFacts) => client.fiscalYearEnd ?? defaultFiscalYearEnd(preset.country);
const inForce = (v: Variant, periodStart: string, yearEnd: string) =>
  (!v.validFrom || periodStart >= v.validFrom) && (!v.validUntil || periodStart <= v.validUntil) && (!v.yearEnds || v.yearEnds.includes(yearEnd));

/** The version of the entry that governs a period starting on `periodStart` for this client, or null when none does. */
function governing(preset: CompliancePreset, variants: readonly Variant[], client: ClientFacts, periodStart: string): Variant | null {
  const yearEnd = effectiveYearEnd(preset, client);
  return variants.find((v) => inForce(v, periodStart, yearEnd)) ?? null;
}

/** Months a fiscal-year entry's dates move for this client: its year end's month less the entry's base year end's. */
function monthShift(preset: CompliancePreset, entry: PresetEntry, client: ClientFacts): number {
  if (!entry.fiscalYearBase) return 0;
  return Number(effectiveYearEnd(preset, client).slice(0, 2)) - Number(entry.fiscalYearBase.slice(0, 2));
}
const shifted = (month: number, shift: number) => ((month - 1 + shift) % 12 + 12) % 12 + 1;

/** The due day in `month`: by the client's State, else by month, else the rule's; clamped to the month's last day. */
function dueDay(entry: PresetEntry, v: Variant, client: ClientFacts, month: number): number {
  const byState = client.state ? entry.dueDayByState?.find((s) => s.states.includes(client.state!)) : undefined;
  return byState?.dueDayOfMonth ?? entry.dueDayByMonth?.[String(month)] ?? v.dueDayOfMonth;
}

/** UK PAYE: the tax month (6th to 5th, month 1 from 6 April) that ends on the 5th of the month it is due in. */
function ukTaxMonth(dueYear: number, dueMonth: number): { label: string; start: string; end: string } {
  const endMonth = dueMonth;
  const startMonth = endMonth === 1 ? 12 : endMonth - 1;
  const startYear = endMonth === 1 ? dueYear - 1 : dueYear;
  const taxYear = startMonth >= 4 ? startYear : startYear - 1;
  const n = ((startMonth - 4 + 12) % 12) + 1;
  return {
    label: `Tax month ${n} ${taxYear}-${pad((taxYear + 1) % 100)} (6 ${MONTH_NAMES[startMonth - 1]}–5 ${MONTH_NAMES[endMonth - 1]})`,
    start: `${startYear}-${pad(startMonth)}-06`, end: `${dueYear}-${pad(endMonth)}-05`,
  };
}

/** 'Jan–Mar 2026', 'Sep–Dec 2025', 'Nov 2026–Jan 2027' of two days. */
function spanOf(start: string, end: string): string {
  const m1 = MONTH_NAMES[Number(start.slice(5, 7)) - 1];
  const m2 = MONTH_NAMES[Number(end.slice(5, 7)) - 1];
  return start.slice(0, 4) === end.slice(0, 4) ? `${m1}–${m2} ${end.slice(0, 4)}` : `${m1} ${start.slice(0, 4)}–${m2} ${end.slice(0, 4)}`;
}

/**
 * A company's financial year runs from a month's first day to a month's last (the UK tax year's
 * 6 April does not apply to it); one that is not the jurisdiction's own year names itself as a
 * fiscal year: 'FY Jul 2026–Jun 2027' (a calendar year stays '2026', Australia's 'FY2026').
 */
function fiscalYear(covered: { label: string }, dueDay: string, lag: number, uk: boolean): { label: string; start: string; end: string } {
  const last = Number(dueDay.slice(0, 4)) * 12 + Number(dueDay.slice(5, 7)) - 1 - lag;
  const first = last - 11;
  const y = (i: number) => Math.floor(i / 12);
  const m = (i: number) => (i % 12) + 1;
  const start = `${y(first)}-${pad(m(first))}-01`;
  const end = `${y(last)}-${pad(m(last))}-${pad(daysInMonth(y(last), m(last)))}`;
  const own = !uk && !covered.label.includes('–');
  return { start, end, label: own ? covered.label : `FY ${spanOf(start, end)}` };
}

/** One variant's periods due (by the month rule) in `year`. */
function periodsOfVariant(preset: CompliancePreset, entry: PresetEntry, v: Variant, client: ClientFacts, year: number): Period[] {
  const shift = monthShift(preset, entry, client);
  const months = entry.frequency === 'monthly' ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : v.dueMonths.map((m) => shifted(Number(m), shift));
  return months.map((month, i) => {
    const monthRuleDay = `${year}-${pad(month)}-${pad(Math.min(dueDay(entry, v, client, month), daysInMonth(year, month)))}`;
    const own = entry.frequency === 'monthly' ? undefined : entry.periods?.[v.dueMonths[i]!];
    let covered: { label: string; start: string; end: string };
    if (own) {
      const y = year + own.yearOffset;
      covered = { start: `${y}-${own.start}`, end: `${y}-${own.end}`, label: spanOf(`${y}-${own.start}`, `${y}-${own.end}`) };
    } else if (entry.ukTaxMonths) {
      covered = ukTaxMonth(year, month);
    } else {
      covered = coveredPeriod({ dueDate: monthRuleDay, frequency: entry.frequency, periodLagMonths: v.periodLagMonths, jurisdiction: preset.country, dueMonths: months });
      if (entry.fiscalYearBase && entry.frequency === 'yearly') covered = fiscalYear(covered, monthRuleDay, v.periodLagMonths, preset.country === 'UK');
    }
    const statutory = entry.daysAfterPeriodEnd ? addDays(covered.end, entry.daysAfterPeriodEnd) : monthRuleDay;
    const moved = nextBusinessDay(preset.businessDays, statutory);
    return {
      key: `${year}-${pad(month)}`, label: covered.label, start: covered.start, end: covered.end,
      statutoryDueDate: statutory, dueDate: moved.dueDate, dueDateReason: moved.dueDateReason, holidayCalendar: moved.holidayCalendar,
    };
  });
}

/**
 * The entry's items due (by its month rule) in `year` for a client: each period made by the
 * version that governs it; the periods no version governs are answered apart, with why.
 */
export function entryPeriods(preset: CompliancePreset, entry: PresetEntry, client: ClientFacts, year: number): { periods: Period[]; notInForce: NotInForce[] } {
  const periods: Period[] = [];
  const notInForce: NotInForce[] = [];
  const variants = variantsOf(entry);
  for (const v of variants) {
    for (const period of periodsOfVariant(preset, entry, v, client, year)) {
      const rule = governing(preset, variants, client, period.start);
      if (rule === v) periods.push(period);
      else if (!rule && v === variants[variants.length - 1] && variants.length === 1) notInForce.push({ period, reason: notInForceReason(entry) });
    }
  }
  periods.sort((a, b) => a.key.localeCompare(b.key));
  return { periods, notInForce };
}

function notInForceReason(entry: PresetEntry): string {
  if (entry.validFrom && entry.validUntil) return `The rule applies to periods starting ${dayLabel(entry.validFrom)} to ${dayLabel(entry.validUntil)}`;
  if (entry.validFrom) return `The rule applies to periods starting on or after ${dayLabel(entry.validFrom)}`;
  return `The rule applies to periods starting on or before ${dayLabel(entry.validUntil!)}`;
}

/**
 * The extended due date the entry's extension rule gives an item (Form 4868, 7004): `months`
 * after the statutory day, on the rule's day (else the same day, a month's last day staying
 * one), then the business-day rule. null: the entry has no extension.
 */
export function extendedDueDate(preset: CompliancePreset, entry: PresetEntry, client: ClientFacts, periodStart: string, statutoryDueDate: string): string | null {
  const v = governing(preset, variantsOf(entry), client, periodStart);
  const rule = v ? v.extension : entry.extension ?? null;
  if (!rule) return null;
  const y = Number(statutoryDueDate.slice(0, 4));
  const m = Number(statutoryDueDate.slice(5, 7));
  const d = Number(statutoryDueDate.slice(8, 10));
  const index = y * 12 + m - 1 + rule.months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const wasLastDay = d === daysInMonth(y, m);
  const day = rule.dueDayOfMonth ?? (wasLastDay ? 31 : d);
  return nextBusinessDay(preset.businessDays, `${year}-${pad(month)}-${pad(Math.min(day, daysInMonth(year, month)))}`).dueDate;
}
