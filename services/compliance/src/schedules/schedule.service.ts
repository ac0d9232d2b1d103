import { periodLagFor } from '@ledgerline/kit/calendar/covered-period.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  COMPLIANCE_MESSAGES, type BulkGenerationResult, type ComplianceItemEvent, type ComplianceSchedule, type EarlierPeriods, type GenerationResult, type ScheduleDeletion,
  type ScheduleInput, type ScheduleUpdate,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { ComplianceReminders } from '../reminders/compliance-reminders.ts';
import { publishItemRemovals, publishItems, publishScheduleRemoval, publishSchedules } from '../tracker/compliance-events.ts';
import type { TrackerStore } from '../tracker/tracker.store.ts';
import { periodsOf } from './periods.ts';
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
      await this.#schedules.update(tx, id, { ...input, isActive: input.isActive ?? before.isActive, jurisdiction, periodLagMonths });
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
    const { items, filed, periods } = await this.#generate(t, [schedule], year, from, earlier);
    return { scheduleId, year, created: items.length, createdFiled: filed, existing: periods - items.length, items: await this.#items.byIds(t.db, items.map((i) => i.id)), leftOut: [] };
  }

  /** The year of every active schedule within the caller's reach (of one client, if given), in one transaction. */
  async generateAll(t: TenantRequest, year: number, clientId: number | undefined, from?: string, earlier?: EarlierPeriods): Promise<BulkGenerationResult> {
    const schedules = (await this.#schedules.list(t.db, staffReach(t), clientId)).filter((s) => s.isActive);
    const { items, filed, periods } = await this.#generate(t, schedules, year, from, earlier);
    return { year, schedules: schedules.length, created: items.length, createdFiled: filed, existing: periods - items.length, leftOut: [] };
  }

  /**
   * Inserts the year's missing items (the unique schedule+period key makes a repeat, or two at
   * once, insert each item once) and arms the reminders of the pending ones this call made. With
   * `earlier` filed, the periods that ended before `from` are made too, as filed (a firm taking
   * over a client mid-year whose earlier returns were filed elsewhere): no reminders, no overdue.
   */
  async #generate(t: TenantRequest, schedules: readonly ComplianceSchedule[], year: number, from?: string, earlier?: EarlierPeriods): Promise<{ items: ComplianceItemEvent[]; filed: number; periods: number }> {
    if (earlier === 'filed' && !from) throw new Invalid(COMPLIANCE_MESSAGES.earlierNeedsFrom);
    const periods = schedules.flatMap((schedule) => periodsOf(schedule, year, from).map((period) => ({ schedule, period })));
    const before = earlier === 'filed' && from
      ? schedules.flatMap((schedule) => periodsOf(schedule, year).filter((p) => p.end < from).map((period) => ({ schedule, period })))
      : [];
    const reminderDays = new Map(schedules.map((s) => [s.id, s.reminderDays]));
    const { made, madeFiled } = await t.db.transaction(async (tx) => {
      const pending = await this.#items.insertMissing(tx, periods);
      const filed = await this.#items.insertMissing(tx, before, { filedBefore: from });
      await publishItems(tx, t.shortName, [...pending, ...filed]);
      await this.#reminders.arm(tx, pending, (item) => reminderDays.get(item.scheduleId)!);
      return { made: pending, madeFiled: filed };
    });
    return { items: [...made, ...madeFiled], filed: madeFiled.length, periods: periods.length + before.length };
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
