import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES, type ComplianceSchedule, type GenerationResult, type ScheduleInput } from '@ledgerline/contracts/compliance.contracts.ts';
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

  /**
   * Inserts the year's missing items (the unique schedule+period key makes a repeat, or two at
   * once, insert each item once) and arms the reminders of those this call made.
   */
  async generate(t: TenantRequest, scheduleId: number, year: number): Promise<GenerationResult> {
    const reach = staffReach(t);
    const schedule = await this.#schedules.get(t.db, reach, scheduleId);
    if (!schedule) throw new NotFound(COMPLIANCE_MESSAGES.scheduleNotFound);
    const periods = periodsOf(schedule, year);
    const items = await t.db.transaction(async (tx) => {
      const made = await this.#items.byIds(tx, await this.#items.insertMissing(tx, schedule, periods));
      await publishItems(tx, t.shortName, made);
      await this.#reminders.arm(tx, made, schedule.reminderDays);
      return made;
    });
    return { scheduleId, year, created: items.length, existing: periods.length - items.length, items };
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
