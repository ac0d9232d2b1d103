import type { DirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { COMPLIANCE_MESSAGES, type CompliancePreset, type PresetApplyResult, type ScheduleInput } from '@ledgerline/contracts/compliance.contracts.ts';
import type { ScheduleService } from '../schedules/schedule.service.ts';
import { pairKey, type ScheduleStore } from '../schedules/schedule.store.ts';
import { publishSchedules } from '../tracker/compliance-events.ts';
import type { DirectoryReportTypes } from './directory-report-types.client.ts';
import { PRESETS } from './preset.catalog.ts';

/**
 * Applying a statutory calendar to clients (README "Compliance presets"): the report types the
 * firm lacks are created in the directory first (by name, so a retry reuses them); then every
 * missing schedule is created in one transaction with its events. A client that already has a
 * schedule of the same report type and frequency keeps it. Admin and DTA only (it sets up the
 * whole firm's calendar); creating a missing report type also needs what the directory requires (Admin).
 */
export class PresetService {
  readonly #schedules: ScheduleStore;
  readonly #scheduleService: ScheduleService;
  readonly #reportTypes: DirectoryReportTypes;
  readonly #directory: DirectoryReadModel;

  constructor(deps: { schedules: ScheduleStore; scheduleService: ScheduleService; reportTypes: DirectoryReportTypes; directory: DirectoryReadModel }) {
    this.#schedules = deps.schedules;
    this.#scheduleService = deps.scheduleService;
    this.#reportTypes = deps.reportTypes;
    this.#directory = deps.directory;
  }

  list(): readonly CompliancePreset[] {
    return PRESETS;
  }

  async apply(t: TenantRequest, presetId: string, clientIds: readonly number[]): Promise<PresetApplyResult> {
    if (t.scope.clients !== 'all' || t.scope.reportTypes !== 'all') throw new Forbidden(COMPLIANCE_MESSAGES.presetDenied);
    const preset = PRESETS.find((p) => p.id === presetId);
    if (!preset) throw new NotFound(COMPLIANCE_MESSAGES.presetNotFound);
    const createdReportTypes: PresetApplyResult['createdReportTypes'] = [];
    const inputs: ScheduleInput[] = [];
    const typeIds = new Map<string, number>();
    for (const entry of preset.entries) {
      const { reportType, created } = await this.#reportTypes.ensure(t, entry.reportTypeName, `${preset.jurisdiction}: ${entry.source}`);
      // Known here at once, so the schedules show its name before the directory's event arrives.
      await this.#directory.rememberReportType(t.db, { id: reportType.id, name: reportType.name }, reportType.updatedAt);
      if (created) createdReportTypes.push({ id: reportType.id, name: reportType.name });
      typeIds.set(entry.reportTypeName, reportType.id);
    }
    for (const clientId of clientIds) {
      await this.#scheduleService.checkClient(t, clientId);
      for (const entry of preset.entries) {
        const reportTypeId = typeIds.get(entry.reportTypeName)!;
        inputs.push({
          clientId, reportTypeId, frequency: entry.frequency, dueDayOfMonth: entry.dueDayOfMonth, dueMonths: entry.dueMonths,
          reminderDays: entry.reminderDays, notes: entry.note ? `${preset.name}: ${entry.note}` : preset.name,
        });
      }
    }
    return t.db.transaction(async (tx) => {
      const existing = await this.#schedules.existingPairs(tx, clientIds);
      const skipped: PresetApplyResult['skipped'] = [];
      const ids: number[] = [];
      for (const input of inputs) {
        const key = pairKey(input.clientId, input.reportTypeId, input.frequency);
        if (existing.has(key)) skipped.push({ clientId: input.clientId, reportTypeId: input.reportTypeId });
        else ids.push(await this.#schedules.insert(tx, input));
        existing.add(key);
      }
      const createdSchedules = await this.#schedules.byIds(tx, ids);
      await publishSchedules(tx, t.shortName, createdSchedules);
      return { presetId: preset.id, createdReportTypes, createdSchedules, skipped };
    });
  }
}
