import { tablePortability, type ServicePortability } from '@ledgerline/kit/portability/portability.ts';
import { firmDateTime, writeReadableCsv } from '@ledgerline/kit/portability/readable-csv.ts';
import { ClientStore } from './clients/client.store.ts';
import { ReportTypeStore } from './report-types/report-type.store.ts';

/**
 * The directory's part of a firm: its tables row for row (the default), in the readable copy
 * `clients.csv` and `report-types.csv` (the clients as the Clients screen shows them), and the
 * ids of the clients and report types others name: a firm import refuses access lists naming others.
 */
export const directoryPortability: ServicePortability = {
  ...tablePortability,
  ids: async (db) => ({
    clients: (await db.query<{ id: number }>('SELECT id FROM clients')).rows.map((r) => r.id),
    reportTypes: (await db.query<{ id: number }>('SELECT id FROM report_types')).rows.map((r) => r.id),
  }),
  async readable(ctx) {
    const clients = await new ClientStore().list(ctx.db, { ids: 'all' });
    await writeReadableCsv(ctx, 'clients.csv', [
      ['id', (c) => c.id],
      ['name', (c) => c.name],
      ['jurisdiction', (c) => c.jurisdiction],
      ['entity type', (c) => c.entityType],
      ['address', (c) => c.address],
      ['phone', (c) => c.phone],
      ['email', (c) => c.email],
      ['federal id', (c) => c.federalId],
      ['state id', (c) => c.stateId],
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
