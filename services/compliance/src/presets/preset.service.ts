import { ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { DirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { Forbidden, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  COMPLIANCE_MESSAGES, entryFits, type CompliancePreset, type PresetApply, type PresetApplyResult, type PresetEntry, type Registration, type ScheduleInput,
} from '@ledgerline/contracts/compliance.contracts.ts';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import type { ScheduleService } from '../schedules/schedule.service.ts';
import { pairKey, type ScheduleStore } from '../schedules/schedule.store.ts';
import { publishSchedules } from '../tracker/compliance-events.ts';
import type { DirectoryReportTypes } from './directory-report-types.client.ts';
import type { IdentityGrants } from './identity-grants.client.ts';
import { PRESETS } from './preset.catalog.ts';

/**
 * Applying a statutory calendar to clients (docs/using/compliance.md): each client gets the entries
 * chosen for it (by default those that fit its entity type); the report types the firm lacks are
 * created in the directory (by name, so a retry reuses them); the staff who serve the clients are
 * granted the report types they lack, through identity, so the items show in their tracker; then
 * every missing schedule is created in one transaction with its events. A client that already has
 * a schedule of the same report type and frequency keeps it. Admin and DTA only (it sets up the
 * whole firm's calendar); creating report types and granting them also need what the directory and
 * identity require (Admin).
 */
export class PresetService {
  readonly #schedules: ScheduleStore;
  readonly #scheduleService: ScheduleService;
  readonly #reportTypes: DirectoryReportTypes;
  readonly #directory: DirectoryReadModel;
  readonly #users: UserAccessReadModel;
  readonly #grants: IdentityGrants;

  constructor(deps: {
    schedules: ScheduleStore; scheduleService: ScheduleService; reportTypes: DirectoryReportTypes; directory: DirectoryReadModel;
    users: UserAccessReadModel; grants: IdentityGrants;
  }) {
    this.#schedules = deps.schedules;
    this.#scheduleService = deps.scheduleService;
    this.#reportTypes = deps.reportTypes;
    this.#directory = deps.directory;
    this.#users = deps.users;
    this.#grants = deps.grants;
  }

  list(): readonly CompliancePreset[] {
    return PRESETS;
  }

  async apply(t: TenantRequest, presetId: string, request: PresetApply): Promise<PresetApplyResult> {
    if (t.scope.clients !== 'all' || t.scope.reportTypes !== 'all') throw new Forbidden(COMPLIANCE_MESSAGES.presetDenied);
    const preset = PRESETS.find((p) => p.id === presetId);
    if (!preset) throw new NotFound(COMPLIANCE_MESSAGES.presetNotFound);
    const { clientIds } = request;

    const chosen = new Map<number, PresetEntry[]>();
    for (const clientId of clientIds) {
      await this.#scheduleService.checkClient(t, clientId);
      const client = await this.#directory.client(t.db, clientId);
      chosen.set(clientId, entriesFor(preset, request.entryIds, clientId, client?.entityType ?? null, client?.registrations ?? null));
    }

    const createdReportTypes: PresetApplyResult['createdReportTypes'] = [];
    const typeIds = new Map<string, number>();
    for (const entry of new Set([...chosen.values()].flat())) {
      const { reportType, created } = await this.#reportTypes.ensure(t, entry.reportTypeName, `${preset.jurisdiction}: ${entry.source}`);
      // Known here at once, so the schedules show its name before the directory's event arrives.
      await this.#directory.rememberReportType(t.db, { id: reportType.id, name: reportType.name }, reportType.updatedAt);
      if (created) createdReportTypes.push({ id: reportType.id, name: reportType.name });
      typeIds.set(entry.id, reportType.id);
    }

    const grantedReportTypes = await this.#grant(t, chosen, typeIds, request.grantToUserIds);

    const inputs: (ScheduleInput & { jurisdiction: ClientJurisdiction; periodLagMonths: number; presetId: string; entryId: string })[] = [...chosen].flatMap(([clientId, entries]) => entries.map((entry) => ({
      clientId, reportTypeId: typeIds.get(entry.id)!, frequency: entry.frequency, dueDayOfMonth: entry.dueDayOfMonth, dueMonths: entry.dueMonths,
      reminderDays: entry.reminderDays, notes: entry.note ? `${preset.name}: ${entry.note}` : preset.name,
      periodLagMonths: entry.periodLagMonths, jurisdiction: preset.country, presetId: preset.id, entryId: entry.id,
    })));
    const result = await t.db.transaction(async (tx) => {
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
      return { presetId: preset.id, createdReportTypes, createdSchedules, skipped, grantedReportTypes, createdItems: 0, leftOut: [] as PresetApplyResult['leftOut'] };
    });
    if (!request.from || !result.createdSchedules.length) return result;
    const { created, leftOut } = await this.#scheduleService.generateFrom(t, result.createdSchedules, request.from);
    return { ...result, createdItems: created, leftOut };
  }

  /**
   * Grants each chosen user (by default the CPAs and custom-role users whose client list holds any
   * of the clients) the report types of the entries applied to their clients (an explicitly chosen
   * user with none of the clients: all of them), answering only what each lacked.
   */
  async #grant(t: TenantRequest, chosen: Map<number, PresetEntry[]>, typeIds: Map<string, number>, userIds: readonly number[] | undefined): Promise<PresetApplyResult['grantedReportTypes']> {
    const clientIds = [...chosen.keys()];
    const staff = await this.#grantableStaff(t, userIds ?? null, clientIds);
    const result: PresetApplyResult['grantedReportTypes'] = [];
    for (const user of staff) {
      const theirs = user.clientIds.filter((c) => chosen.has(c));
      const entries = (theirs.length ? theirs : clientIds).flatMap((c) => chosen.get(c)!);
      const wanted = [...new Set(entries.map((e) => typeIds.get(e.id)!))].filter((id) => !user.reportTypeIds.includes(id));
      if (!wanted.length) continue;
      const granted = await this.#grants.grant(t, user.userId, wanted);
      // Known here at once: applying again before identity's event arrives grants nothing twice.
      await this.#users.rememberGranted(t.db, user.userId, wanted);
      if (granted.reportTypeIds.length) result.push(granted);
    }
    return result;
  }

  /** CPAs and custom-role users: the chosen ones (each must be one), else those serving any of the clients. */
  async #grantableStaff(t: TenantRequest, userIds: readonly number[] | null, clientIds: readonly number[]) {
    const notGrantable = [ROLES.admin, ROLES.dta, ROLES.client].map((r) => r.toLowerCase());
    const { rows } = await t.db.query<{ userId: number; role: string; clientIds: number[]; reportTypeIds: number[] }>(
      `SELECT user_id AS "userId", role, client_ids AS "clientIds", report_type_ids AS "reportTypeIds" FROM ${this.#users.table}
       WHERE NOT deleted AND lower(role) <> ALL($1::text[]) AND (CASE WHEN $2::int[] IS NULL THEN client_ids && $3::int[] ELSE user_id = ANY($2::int[]) END)
       ORDER BY user_id`,
      [notGrantable, userIds, clientIds],
    );
    if (userIds && rows.length !== userIds.length) throw new Invalid(COMPLIANCE_MESSAGES.grantee);
    return rows;
  }
}

/**
 * The entries for one client: those named (a list for every client, or the client's own list),
 * else those that fit its entity type and registrations (entryFits).
 */
function entriesFor(preset: CompliancePreset, entryIds: PresetApply['entryIds'], clientId: number, entityType: string | null, registrations: readonly Registration[] | null): PresetEntry[] {
  const named = Array.isArray(entryIds) ? entryIds : entryIds?.[String(clientId)];
  if (!named) return preset.entries.filter((e) => entryFits(e, entityType, registrations));
  const unknown = named.filter((id) => !preset.entries.some((e) => e.id === id));
  if (unknown.length) throw new Invalid(`${COMPLIANCE_MESSAGES.entryIds}: ${unknown.join(', ')}`);
  return preset.entries.filter((e) => named.includes(e.id));
}
