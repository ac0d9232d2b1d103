import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import {
  COMPLIANCE_ITEM_DELETED, COMPLIANCE_ITEM_UPSERTED, COMPLIANCE_SCHEDULE_DELETED, COMPLIANCE_SCHEDULE_UPSERTED,
  type ComplianceDeletedEvent, type ComplianceItemEvent, type ComplianceSchedule, type ComplianceScheduleEvent,
} from '@ledgerline/contracts/compliance.contracts.ts';

/**
 * What other services learn of schedules and tracker items (the insights service keeps a read
 * model of them), through the outbox in the transaction of the change.
 */
export function publishSchedules(tx: Queryable, tenant: string, schedules: readonly ComplianceSchedule[]): Promise<void> {
  return enqueueEvents(tx, schedules.map((s) => newEvent<ComplianceScheduleEvent>(COMPLIANCE_SCHEDULE_UPSERTED, tenant, {
    id: s.id, clientId: s.clientId, reportTypeId: s.reportTypeId, frequency: s.frequency, dueDayOfMonth: s.dueDayOfMonth,
    dueMonths: s.dueMonths, isActive: s.isActive, reminderDays: s.reminderDays, periodLagMonths: s.periodLagMonths,
    presetId: s.presetId ?? null, entryId: s.entryId ?? null,
  })));
}

export function publishScheduleRemoval(tx: Queryable, tenant: string, schedule: Pick<ComplianceSchedule, 'id' | 'clientId'>): Promise<void> {
  return enqueueEvents(tx, [newEvent<ComplianceDeletedEvent>(COMPLIANCE_SCHEDULE_DELETED, tenant, { id: schedule.id, clientId: schedule.clientId })]);
}

export function publishItemRemovals(tx: Queryable, tenant: string, clientId: number, itemIds: readonly number[]): Promise<void> {
  return enqueueEvents(tx, itemIds.map((id) => newEvent<ComplianceDeletedEvent>(COMPLIANCE_ITEM_DELETED, tenant, { id, clientId })));
}

/** Items as their events tell them (a ComplianceItem is one, names aside). */
export function publishItems(tx: Queryable, tenant: string, items: readonly ComplianceItemEvent[]): Promise<void> {
  return enqueueEvents(tx, items.map((i) => newEvent<ComplianceItemEvent>(COMPLIANCE_ITEM_UPSERTED, tenant, {
    id: i.id, scheduleId: i.scheduleId, clientId: i.clientId, reportTypeId: i.reportTypeId, period: i.period, periodStart: i.periodStart,
    periodEnd: i.periodEnd, statutoryDueDate: i.statutoryDueDate ?? i.dueDate, dueDate: i.dueDate, dueDateReason: i.dueDateReason ?? null,
    holidayCalendar: i.holidayCalendar ?? null, status: i.status, filedDate: i.filedDate, extendedDueDate: i.extensionDate, extensionDate: i.extensionDate,
    assignedToId: i.assignedToId, aiConfidence: i.aiConfidence, autoDetected: i.autoDetected, sourceFileId: i.sourceFileId,
  })));
}

/** The job a migration leaves to tell again the items it relabelled (compliance.migrations.ts), with the firm's name. */
export function republishItems(items: { byIds(tx: Queryable, ids: readonly number[]): Promise<readonly ComplianceItemEvent[]> }): JobHandler {
  return async (tx, job, tenant) => publishItems(tx, tenant.shortName, await items.byIds(tx, (job.payload as { itemIds: number[] }).itemIds));
}

/** A client's removal: its items, then its schedules. */
export function publishClientRemoval(tx: Queryable, tenant: string, clientId: number, removed: { schedules: number[]; items: number[] }): Promise<void> {
  const gone = (type: string, ids: number[]) => ids.map((id) => newEvent<ComplianceDeletedEvent>(type, tenant, { id, clientId }));
  return enqueueEvents(tx, [...gone(COMPLIANCE_ITEM_DELETED, removed.items), ...gone(COMPLIANCE_SCHEDULE_DELETED, removed.schedules)]);
}
