import { DELETED_USER, type UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  COMPLIANCE_MESSAGES, type ComplianceItem, type InsightsMatchDetected, type TrackerExtend, type TrackerUpdate,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { StageAutomations } from '@ledgerline/contracts/stages.contracts.ts';
import type { ComplianceReminders } from '../reminders/compliance-reminders.ts';
import { staffReach } from '../access-rules.ts';
import { publishItems } from './compliance-events.ts';
import type { ItemFields, TrackerStore } from './tracker.store.ts';

/** What the tracker asks of the schedules: an item's extension by its calendar entry's rule, and its reminder days. */
export interface ItemRules {
  ruleExtendedDueDate(t: TenantRequest, item: ComplianceItem): Promise<string | null>;
  reminderDaysOf(t: TenantRequest, scheduleId: number): Promise<number>;
}

/** The stage moves the product makes by itself (stage.service.ts). */
export interface AutomaticMoves {
  automatic(tx: Queryable, tenant: string, itemId: number, cause: keyof StageAutomations): Promise<boolean>;
}

/** Changes of tracker items (spec 001 §4), each committed with its compliance.item.upserted event. */
export class TrackerService {
  readonly #items: TrackerStore;
  readonly #users: UserAccessReadModel;
  readonly #rules: ItemRules | null;
  readonly #reminders: ComplianceReminders | null;
  readonly #stages: AutomaticMoves | null;

  constructor(deps: { items: TrackerStore; users: UserAccessReadModel; rules?: ItemRules; reminders?: ComplianceReminders; stages?: AutomaticMoves }) {
    this.#stages = deps.stages ?? null;
    this.#items = deps.items;
    this.#users = deps.users;
    this.#rules = deps.rules ?? null;
    this.#reminders = deps.reminders ?? null;
  }

  /**
   * POST /compliance-tracker/{id}/extend (issue 39): extended, to the day given or the one the
   * item's calendar entry gives (400 when it has no rule and none is given; a filed item cannot be
   * extended); the reminders follow the new day.
   */
  async extend(t: TenantRequest, id: number, input: TrackerExtend): Promise<ComplianceItem> {
    const reach = staffReach(t);
    const item = await this.#items.get(t.db, reach, id);
    if (!item) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
    if (item.status === 'filed') throw new Invalid(COMPLIANCE_MESSAGES.extendFiled);
    const day = input.extendedDueDate ?? await this.#rules?.ruleExtendedDueDate(t, item) ?? null;
    if (!day) throw new Invalid(COMPLIANCE_MESSAGES.noExtensionRule);
    if (day < item.dueDate) throw new Invalid(COMPLIANCE_MESSAGES.extendedBeforeDue);
    const reminderDays = await this.#rules?.reminderDaysOf(t, item.scheduleId) ?? 7;
    return t.db.transaction(async (tx) => {
      if (!await this.#items.lock(tx, reach, id)) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
      const saved = await this.#save(tx, t.shortName, id, { status: 'extended', filedDate: null, extensionDate: day });
      await this.#reminders?.rearm(tx, { id, scheduleId: item.scheduleId, dueDate: day }, reminderDays);
      return saved;
    });
  }

  /**
   * PUT (§4): any status may be chosen; filed stamps filedDate (the one sent, else the one it
   * had, else now) and leaving filed clears it; a new or changed extension date makes the item
   * extended whatever status says; remarks and the assignee as sent. Marked extended without a
   * date (the bulk extend), an item with none takes its calendar entry's rule (issue 39).
   */
  async update(t: TenantRequest, id: number, input: TrackerUpdate): Promise<ComplianceItem> {
    const reach = staffReach(t);
    if (input.assignedToId) await this.#checkAssignee(t, input.assignedToId);
    if (input.status === 'extended' && input.extensionDate === undefined) {
      const current = await this.#items.get(t.db, reach, id);
      if (current && !current.extensionDate) {
        const byRule = await this.#rules?.ruleExtendedDueDate(t, current) ?? null;
        if (byRule) return this.extend(t, id, { extendedDueDate: byRule });
      }
    }
    return t.db.transaction(async (tx) => {
      if (!await this.#items.lock(tx, reach, id)) throw new NotFound(COMPLIANCE_MESSAGES.itemNotFound);
      const before = (await this.#items.byIds(tx, [id]))[0]!;
      const extensionChanged = input.extensionDate !== undefined && input.extensionDate !== null && input.extensionDate !== before.extensionDate;
      const status = extensionChanged ? 'extended' : input.status ?? before.status;
      const filedDate = status !== 'filed' ? null : input.filedDate ?? before.filedDate ?? new Date().toISOString();
      const fields: ItemFields = { status, filedDate, extensionDate: input.extensionDate, remarks: input.remarks, assignedToId: input.assignedToId };
      const saved = await this.#save(tx, t.shortName, id, fields);
      // Issue 42: marked filed, the item moves to its pipeline's "filed" stage (unless the firm turned that off).
      if (status === 'filed' && before.status !== 'filed' && await this.#stages?.automatic(tx, t.shortName, id, 'filed')) {
        return (await this.#items.byIds(tx, [id]))[0]!;
      }
      return saved;
    });
  }

  /** The insights service's match (contracts: insights.match.detected); the status stays a person's decision. */
  async recordMatch(tx: Queryable, tenant: string, match: InsightsMatchDetected): Promise<void> {
    if (!(await this.#items.byIds(tx, [match.itemId])).length) return;
    await this.#save(tx, tenant, match.itemId, { aiConfidence: match.aiConfidence, autoDetected: true, sourceFileId: match.sourceFileId });
  }

  async #save(tx: Queryable, tenant: string, id: number, fields: ItemFields): Promise<ComplianceItem> {
    await this.#items.update(tx, id, fields);
    const item = (await this.#items.byIds(tx, [id]))[0]!;
    await publishItems(tx, tenant, [item]);
    return item;
  }

  async #checkAssignee(t: TenantRequest, userId: number): Promise<void> {
    const assignee = await this.#users.lookup(t.db, userId);
    if (!assignee || assignee === DELETED_USER || roleIs(assignee.role, ROLES.client)) throw new Invalid(COMPLIANCE_MESSAGES.assigneeNotStaff);
  }
}
