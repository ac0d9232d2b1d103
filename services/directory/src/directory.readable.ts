import { tablePortability, type ServicePortability } from '@ledgerline/kit/portability/portability.ts';
import { firmDateTime, writeReadableCsv } from '@ledgerline/kit/portability/readable-csv.ts';
import { maskTaxId, TAX_ID_RULES, type TaxId } from '@ledgerline/contracts/tax-ids.ts';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { ClientStore } from './clients/client.store.ts';
import { ReportTypeStore } from './report-types/report-type.store.ts';

/**
 * The directory's part of a firm: its tables row for row (the default), in the readable copy
 * `clients.csv` and `report-types.csv` (the clients as the Clients screen shows them, tax IDs
 * and the federal and state IDs masked unless the caller may reveal them), and the
 * ids of the clients and report types others name: a firm import refuses access lists naming others.
 */
export const directoryPortability: ServicePortability = {
  ...tablePortability,
  ids: async (db) => ({
    clients: (await db.query<{ id: number }>('SELECT id FROM clients')).rows.map((r) => r.id),
    reportTypes: (await db.query<{ id: number }>('SELECT id FROM report_types')).rows.map((r) => r.id),
  }),
  async readable(ctx) {
    const store = new ClientStore();
    const clients = await store.list(ctx.db, { ids: 'all' });
    // Tax IDs leave whole only for a caller whose role may reveal them; else their last four.
    const whole = ctx.revealTaxIds ? await store.allTaxIds(ctx.db) : new Map<number, TaxId[]>();
    const shown = (value: string) => (ctx.revealTaxIds || !value ? value : maskTaxId(value));
    const taxIds = (c: Client) => (ctx.revealTaxIds
      ? (whole.get(c.id) ?? []).map((t) => `${TAX_ID_RULES[t.type].label} ${t.value}`)
      : c.taxIds.map((t) => `${TAX_ID_RULES[t.type].label} ${t.masked}`)).join('; ');
    await writeReadableCsv(ctx, 'clients.csv', [
      ['id', (c) => c.id],
      ['name', (c) => c.name],
      ['jurisdiction', (c) => c.jurisdiction],
      ['entity type', (c) => c.entityType],
      ['address', (c) => c.address],
      ['phone', (c) => c.phone],
      ['email', (c) => c.email],
      ['federal id', (c) => shown(c.federalId)],
      ['state id', (c) => shown(c.stateId)],
      ['tax ids', taxIds],
      ['employees', (c) => c.employeeCount],
      ['start date', (c) => c.startDate],
      ['documents kept in', (c) => (c.uploadDestination === 'google_drive' ? 'Google Drive' : 'the portal')],
      ['created at', (c) => firmDateTime(c.createdAt, ctx.timeZone)],
    ], clients);
    const reportTypes = await new ReportTypeStore().list(ctx.db, 'all');
    await writeReadableCsv(ctx, 'report-types.csv', [
      ['id', (r) => r.id],
      ['name', (r) => r.name],
      ['description', (r) => r.description],
    ], reportTypes);
  },
};
