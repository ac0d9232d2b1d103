import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  COMPLIANCE_MESSAGES, type BulkGenerationResult, type ComplianceItemEvent, type ComplianceSchedule, type GenerationResult, type ScheduleInput,
} from '@ledgerline/contracts/compliance.contracts.ts';
import { staffReach } from '../access-rules.ts';
import type { ComplianceReminders } from '../reminders/compliance-reminders.ts';
import { publishItems, publishSchedules } from '../tracker/compliance-events.ts';
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

  /** A referenced client (and report type) must be the firm's and within the caller's lists (else 400 naming which). */
  async checkClient(t: TenantRequest, clientId: number): Promise<void> {
    await asInvalid(this.#directory.client(t, clientId));
  }

  async #checkReportType(t: TenantRequest, reportTypeId: number): Promise<void> {
    await asInvalid(this.#directory.reportType(t, reportTypeId));
  }

  async create(t: TenantRequest, input: ScheduleInput): Promise<ComplianceSchedule> {
    const reach = staffReach(t);
    await this.checkClient(t, input.clientId);
    await this.#checkReportType(t, input.reportTypeId);
    return t.db.transaction(async (tx) => {
      const schedule = (await this.#schedules.get(tx, reach, await this.#schedules.insert(tx, input)))!;
      await publishSchedules(tx, t.shortName, [schedule]);
      return schedule;
    });
  }

  /** One schedule's year (the Schedules tab's 'Generate {year}'). */
  async generate(t: TenantRequest, scheduleId: number, year: number): Promise<GenerationResult> {
    const schedule = await this.#schedules.get(t.db, staffReach(t), scheduleId);
    if (!schedule) throw new NotFound(COMPLIANCE_MESSAGES.scheduleNotFound);
    const { items, periods } = await this.#generate(t, [schedule], year);
    return { scheduleId, year, created: items.length, existing: periods - items.length, items: await this.#items.byIds(t.db, items.map((i) => i.id)) };
  }

  /** The year of every active schedule within the caller's reach (of one client, if given), in one transaction. */
  async generateAll(t: TenantRequest, year: number, clientId: number | undefined): Promise<BulkGenerationResult> {
    const schedules = (await this.#schedules.list(t.db, staffReach(t), clientId)).filter((s) => s.isActive);
    const { items, periods } = await this.#generate(t, schedules, year);
    return { year, schedules: schedules.length, created: items.length, existing: periods - items.length };
  }

  /**
   * Inserts the year's missing items (the unique schedule+period key makes a repeat, or two at
   * once, insert each item once) and arms the reminders of those this call made.
   */
  async #generate(t: TenantRequest, schedules: readonly ComplianceSchedule[], year: number): Promise<{ items: ComplianceItemEvent[]; periods: number }> {
    const periods = schedules.flatMap((schedule) => periodsOf(schedule, year).map((period) => ({ schedule, period })));
    const reminderDays = new Map(schedules.map((s) => [s.id, s.reminderDays]));
    const items = await t.db.transaction(async (tx) => {
      const made = await this.#items.insertMissing(tx, periods);
      await publishItems(tx, t.shortName, made);
      await this.#reminders.arm(tx, made, (item) => reminderDays.get(item.scheduleId)!);
      return made;
    });
    return { items, periods: periods.length };
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
