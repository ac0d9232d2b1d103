import { periodLagFor } from '@ledgerline/kit/calendar/covered-period.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  COMPLIANCE_MESSAGES, type BulkGenerationResult, type ComplianceItem, type ComplianceItemEvent, type ComplianceSchedule, type EarlierPeriods, type GenerationResult, type LeftOutItem,
  type ScheduleDeletion, type ScheduleInput, type ScheduleUpdate,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { ComplianceReminders } from '../reminders/compliance-reminders.ts';
import { publishItemRemovals, publishItems, publishScheduleRemoval, publishSchedules } from '../tracker/compliance-events.ts';
import type { TrackerStore } from '../tracker/tracker.store.ts';
import { dayLabel } from '../calendar/business-days.ts';
import { entryPeriods, extendedDueDate, type ClientFacts } from '../presets/entry-periods.ts';
import { PRESETS } from '../presets/preset.catalog.ts';
import { periodsOf, type Period } from './periods.ts';
import type { ScheduleStore } from './schedule.store.ts';

/**
 * Creating schedules and generating a year of tracker items (spec 001 §5, §7). Each change
 * commits with its events and reminder jobs, or none of them.
 */
export class ScheduleService {
  readonly #schedules: ScheduleStore;
  readonly #items: TrackerStore;
  readonly #reminders: ComplianceReminders;
  readonly #directory: DirectoryLookup;

  constructor(deps: { schedules: ScheduleStore; items: TrackerStore; reminders: ComplianceReminders; directory: DirectoryLookup }) {
    this.#schedules = deps.schedules;
    this.#items = deps.items;
    this.#reminders = deps.reminders;
    this.#directory = deps.directory;
  }

  /**
   * A referenced client (and report type) must be the firm's and within the caller's lists (else 400
   * naming which); answers the client's jurisdiction, whose years label a schedule's periods.
   */
  async checkClient(t: TenantRequest, clientId: number): Promise<ClientJurisdiction> {
    return (await asInvalid(this.#directory.client(t, clientId))).jurisdiction ?? 'US';
  }

  async #checkReportType(t: TenantRequest, reportTypeId: number): Promise<void> {
    await asInvalid(this.#directory.reportType(t, reportTypeId));
  }

  async create(t: TenantRequest, input: ScheduleInput): Promise<ComplianceSchedule> {
    const reach = staffReach(t);
    const jurisdiction = await this.checkClient(t, input.clientId);
    await this.#checkReportType(t, input.reportTypeId);
    return t.db.transaction(async (tx) => {
      const periodLagMonths = input.periodLagMonths ?? periodLagFor(input.covers ?? 'due', input.frequency, input.dueMonths, jurisdiction);
      const schedule = (await this.#schedules.get(tx, reach, await this.#schedules.insert(tx, { ...input, jurisdiction, periodLagMonths })))!;
      await publishSchedules(tx, t.shortName, [schedule]);
      return schedule;
    });
  }

  /**
   * PUT: the whole schedule. Items already made keep their dates and labels (they are the record
   * of what was asked); the next generation follows the new rule. A schedule moved to another
   * client takes that client's jurisdiction.
   */
  async update(t: TenantRequest, id: number, input: ScheduleUpdate): Promise<ComplianceSchedule> {
    const reach = staffReach(t);
    const before = await this.#schedules.get(t.db, reach, id);
    if (!before) throw new NotFound(COMPLIANCE_MESSAGES.scheduleNotFound);
    const jurisdiction = input.clientId === before.clientId ? before.jurisdiction : await this.checkClient(t, input.clientId);
    if (input.reportTypeId !== before.reportTypeId) await this.#checkReportType(t, input.reportTypeId);
    return t.db.transaction(async (tx) => {
      // A lag given wins; else the choice given, else the one it had (for its new months), else its lag as it was.
      const covers = input.covers ?? before.covers;
      const periodLagMonths = input.periodLagMonths ?? (covers ? periodLagFor(covers, input.frequency, input.dueMonths, jurisdiction) : before.periodLagMonths);
      // A rule changed by hand (or a move to another client) no longer follows the calendar entry.
      const keepEntry = input.clientId === before.clientId && input.frequency === before.frequency && input.dueDayOfMonth === before.dueDayOfMonth
        && input.dueMonths.join(',') === before.dueMonths.join(',') && periodLagMonths === before.periodLagMonths;
      await this.#schedules.update(tx, id, { ...input, isActive: input.isActive ?? before.isActive, jurisdiction, periodLagMonths, keepEntry });
      const schedule = (await this.#schedules.get(tx, reach, id))!;
      await publishSchedules(tx, t.shortName, [schedule]);
      return schedule;
    });
  }

  /** DELETE: the schedule, and its pending items when asked (filed, delayed and extended ones are kept). */
  async delete(t: TenantRequest, id: number, deleteItems: 'pending' | 'none'): Promise<ScheduleDeletion> {
    const schedule = await this.#schedules.get(t.db, staffReach(t), id);
    if (!schedule) throw new NotFound(COMPLIANCE_MESSAGES.scheduleNotFound);
    return t.db.transaction(async (tx) => {
      const { deleted, kept } = await this.#schedules.delete(tx, id, deleteItems === 'pending');
      await publishItemRemovals(tx, t.shortName, schedule.clientId, deleted);
      await publishScheduleRemoval(tx, t.shortName, schedule);
      return { id, deletedItems: deleted.length, keptItems: kept };
    });
  }

  /** One schedule's year (the Schedules tab's 'Generate {year}'); `from`: only periods ending on or after it, unless `earlier` is filed. */
  async generate(t: TenantRequest, scheduleId: number, year: number, from?: string, earlier?: EarlierPeriods): Promise<GenerationResult> {
    const schedule = await this.#schedules.get(t.db, staffReach(t), scheduleId);
    if (!schedule) throw new NotFound(COMPLIANCE_MESSAGES.scheduleNotFound);
    const { items, filed, periods, leftOut } = await this.#generate(t, [schedule], year, from, earlier);
    return { scheduleId, year, created: items.length, createdFiled: filed, existing: periods - items.length, items: await this.#items.byIds(t.db, items.map((i) => i.id)), leftOut };
  }

  /** The year of every active schedule within the caller's reach (of one client, if given), in one transaction. */
  async generateAll(t: TenantRequest, year: number, clientId: number | undefined, from?: string, earlier?: EarlierPeriods): Promise<BulkGenerationResult> {
    const schedules = (await this.#schedules.list(t.db, staffReach(t), clientId)).filter((s) => s.isActive);
    const { items, filed, periods, leftOut } = await this.#generate(t, schedules, year, from, earlier);
    return { year, schedules: schedules.length, created: items.length, createdFiled: filed, existing: periods - items.length, leftOut };
  }

  /** Onboarding (a calendar applied with `from`): the given schedules' items of `from`'s year and the next, from that day. */
  async generateFrom(t: TenantRequest, schedules: readonly ComplianceSchedule[], from: string): Promise<{ created: number; leftOut: LeftOutItem[] }> {
    const year = Number(from.slice(0, 4));
    let created = 0;
    const leftOut: LeftOutItem[] = [];
    for (const y of [year, year + 1]) {
      const result = await this.#generate(t, schedules, y, from);
      created += result.items.length;
      leftOut.push(...result.leftOut);
    }
    return { created, leftOut };
  }

  /**
   * A schedule's periods due in `year`: by its calendar entry's rules (versions, fiscal year, State,
   * business days) when it was made from one, else by its own month rule; with those the entry's
   * rule does not cover (left out, with why).
   */
  async periodsFor(t: TenantRequest, schedule: ComplianceSchedule, year: number): Promise<{ periods: Period[]; notInForce: { period: Period; reason: string }[] }> {
    const preset = schedule.presetId ? PRESETS.find((p) => p.id === schedule.presetId) : undefined;
    const entry = preset?.entries.find((e) => e.id === schedule.entryId);
    if (!preset || !entry) return { periods: periodsOf(schedule, year), notInForce: [] };
    return entryPeriods(preset, entry, await this.clientFacts(t, schedule.clientId), year);
  }

  /**
   * The extended due date an item's calendar entry gives it (issue 39: Form 4868, 7004), from its
   * statutory due date; null for a schedule made by hand or an entry with no extension.
   */
  async ruleExtendedDueDate(t: TenantRequest, item: Pick<ComplianceItem, 'scheduleId' | 'clientId' | 'periodStart' | 'statutoryDueDate'>): Promise<string | null> {
    const schedule = (await this.#schedules.byIds(t.db, [item.scheduleId]))[0];
    const preset = schedule?.presetId ? PRESETS.find((p) => p.id === schedule.presetId) : undefined;
    const entry = preset?.entries.find((e) => e.id === schedule!.entryId);
    if (!preset || !entry) return null;
    return extendedDueDate(preset, entry, await this.clientFacts(t, item.clientId), item.periodStart, item.statutoryDueDate);
  }

  /** The reminder days of an item's schedule. */
  async reminderDaysOf(t: TenantRequest, scheduleId: number): Promise<number> {
    return (await this.#schedules.byIds(t.db, [scheduleId]))[0]?.reminderDays ?? 7;
  }

  /** The client's year end and State, as the directory last announced them (none: the jurisdiction's defaults). */
  async clientFacts(t: TenantRequest, clientId: number): Promise<ClientFacts> {
    try {
      const client = await this.#directory.client(t, clientId);
      return { fiscalYearEnd: client.fiscalYearEnd ?? null, state: client.state ?? null };
    } catch (err) {
      if (err instanceof NotFound) return { fiscalYearEnd: null, state: null };
      throw err;
    }
  }

  /**
   * Inserts the year's missing items (the unique schedule+period key makes a repeat, or two at
   * once, insert each item once) and arms the reminders of the pending ones this call made.
   * `from` (onboarding, issue 39): every item still to do on that day is made, one due on or
   * after it or covering a period that ends on or after it, even when its period ended earlier
   * (a CT600 for 2025 due 31 Dec 2026); the others are left out and answered with why, or, with
   * `earlier` filed, made as filed (a firm taking over a client mid-year whose earlier returns
   * were filed elsewhere): no reminders, no overdue.
   */
  async #generate(t: TenantRequest, schedules: readonly ComplianceSchedule[], year: number, from?: string, earlier?: EarlierPeriods): Promise<{ items: ComplianceItemEvent[]; filed: number; periods: number; leftOut: LeftOutItem[] }> {
    if (earlier === 'filed' && !from) throw new Invalid(COMPLIANCE_MESSAGES.earlierNeedsFrom);
    const all: { schedule: ComplianceSchedule; period: Period }[] = [];
    const leftOut: LeftOutItem[] = [];
    const left = (schedule: ComplianceSchedule, period: Period, reason: string) => leftOut.push({
      scheduleId: schedule.id, clientId: schedule.clientId, reportTypeName: schedule.reportTypeName, period: period.label, dueDate: period.dueDate, reason,
    });
    for (const schedule of schedules) {
      const { periods: made, notInForce } = await this.periodsFor(t, schedule, year);
      for (const period of made) all.push({ schedule, period });
      for (const { period, reason } of notInForce) left(schedule, period, reason);
    }
    const stillToDo = (p: Period) => !from || p.dueDate >= from || p.end >= from;
    const periods = all.filter(({ period }) => stillToDo(period));
    const earlierOnes = all.filter(({ period }) => !stillToDo(period));
    const before = earlier === 'filed' ? earlierOnes : [];
    if (earlier !== 'filed') {
      for (const { schedule, period } of earlierOnes) left(schedule, period, `Due ${dayLabel(period.dueDate)}, before the start day ${dayLabel(from!)}`);
    }
    const reminderDays = new Map(schedules.map((s) => [s.id, s.reminderDays]));
    const { made, madeFiled } = await t.db.transaction(async (tx) => {
      const pending = await this.#items.insertMissing(tx, periods);
      const filed = await this.#items.insertMissing(tx, before, { filedBefore: from });
      await publishItems(tx, t.shortName, [...pending, ...filed]);
      await this.#reminders.arm(tx, pending, (item) => reminderDays.get(item.scheduleId)!);
      return { made: pending, madeFiled: filed };
    });
    return { items: [...made, ...madeFiled], filed: madeFiled.length, periods: periods.length + before.length, leftOut };
  }
}

/** A referenced record that is missing or out of reach is a bad request here, not a missing resource. */
async function asInvalid<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (err) {
    if (err instanceof NotFound) throw new Invalid(err.message);
    throw err;
  }
}
