import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { newEvent, type EventEnvelope, type Subscription } from '@ledgerline/kit/bus/bus.ts';
import { MemoryBus } from '@ledgerline/kit/bus/memory-bus.ts';
import type { Database, Queryable } from '@ledgerline/kit/db/database.ts';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { outboxMigrations } from '@ledgerline/kit/outbox/outbox.migrations.ts';
import type { TenantEventPayload } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { TenantRegistry } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { COMPLIANCE_ITEM_DELETED, COMPLIANCE_ITEM_UPSERTED, type ComplianceItemEvent } from '@ledgerline/contracts/compliance.contracts.ts';
import { DOCUMENT_REQUEST_CHANGED, type DocumentRequestChanged } from '@ledgerline/contracts/requests.contracts.ts';
import { clientDocuments } from '../src/files/client-archive.ts';
import { followFileContext } from '../src/files/file-context.consumer.ts';
import { filesTenantMigrations } from '../src/files.migrations.ts';

/*
 * Where a client's documents go in their ZIP (and the firm's readable copy): the tax year of
 * the period each file answers, from the requests' and compliance's events, else of its upload
 * day in the firm's zone; each firm's events touch only its own files.
 */
const firm = (shortName: string, schemaName: string): TenantEventPayload =>
  ({ id: 1, name: shortName, shortName, schemaName, isActive: true, urlPattern: 'path', customDomain: null, customSubdomain: null });

describe.each(databaseTargets())('a client\'s documents by tax year ($name)', (target) => {
  const directory = createDirectoryReadModel('files');
  const hex = randomBytes(4).toString('hex');
  const acme = firm(`acme${hex}`, `cd_acme_${hex}`);
  const beta = firm(`beta${hex}`, `cd_beta_${hex}`);
  let scratch: TestDatabase;
  let db: Database;
  let bus: MemoryBus;
  let subscription: Subscription;
  const schema = (f: TenantEventPayload) => db.forSchema(f.schemaName);
  const at = <E extends EventEnvelope>(event: E, occurredAt: string): E => ({ ...event, occurredAt });

  const addFile = async (q: Queryable, name: string, uploadedAt: string, fileType = 'report'): Promise<number> => {
    const { rows } = await q.query<{ id: number }>(
      `INSERT INTO files (original_name, filename, mime_type, size, client_id, file_type, uploaded_by_id, uploader_name, storage, storage_key, uploaded_at, search_vector, rank_vector)
       VALUES ($1, $1, 'text/plain', 1, 1, $2, 1, 'Ada', 'object', $1, $3, to_tsvector('simple', ''), to_tsvector('simple', '')) RETURNING id`, [name, fileType, uploadedAt]);
    return rows[0]!.id;
  };
  const uploadedFor = (tenant: string, requestId: number, trackerItemId: number | null, fileId: number, title = 'VAT — 2025-26'): EventEnvelope =>
    newEvent(DOCUMENT_REQUEST_CHANGED, tenant, {
      requestId, clientId: 1, clientName: 'Thames', title, reportTypeId: null, trackerItemId, status: 'open', progress: { required: 1, done: 0 },
      revision: 1, action: 'item_uploaded', itemId: 70, itemTitle: 'Sales invoices', files: [{ fileId, fileName: 'x' }], actorId: 1, actorName: 'Ada',
    } satisfies DocumentRequestChanged);
  const trackerItem = (tenant: string, id: number, period: string, periodStart: string, periodEnd: string, sourceFileId: number | null = null) =>
    newEvent(COMPLIANCE_ITEM_UPSERTED, tenant, {
      id, scheduleId: 1, clientId: 1, reportTypeId: 1, period, periodStart, periodEnd, dueDate: '2027-01-31', status: 'pending',
      filedDate: null, extensionDate: null, assignedToId: null, aiConfidence: 0, autoDetected: sourceFileId !== null, sourceFileId,
    } satisfies ComplianceItemEvent);
  const layout = async (f: TenantEventPayload) => (await clientDocuments(schema(f), directory.tables, { id: 1, jurisdiction: 'UK', timeZone: 'Europe/London' }))
    .map((d) => [d.path, ...d.index.slice(6)]);
  const rowOf = async (f: TenantEventPayload, name: string) => (await layout(f)).find((row) => row[0]!.endsWith(`/${name}`));

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    await migratePlatform(db, [outboxMigrations]);
    for (const f of [acme, beta]) await migrateTenant(db, f.schemaName, [filesTenantMigrations, directory.migrations]);
    bus = new MemoryBus();
    subscription = await followFileContext({ db, bus, logger: createLogger('test', 'silent'), tenants: new TenantRegistry({ source: async () => [acme, beta] }) });
  }, 60_000);
  afterAll(async () => {
    await subscription?.close();
    await scratch?.drop();
  });

  it('puts a report in the year of its request\'s tracker item, or of the item it was matched to, else of its upload day in the firm\'s zone', async () => {
    const requested = await addFile(schema(acme), 'invoices.txt', '2026-11-02T10:00:00Z');
    const matched = await addFile(schema(acme), 'q4.txt', '2026-11-02T10:00:00Z');
    // 23:30 UTC on 5 April is 00:30 on 6 April in London: the new UK tax year.
    await addFile(schema(acme), 'late.txt', '2026-04-05T23:30:00Z');
    await addFile(schema(acme), 'certificate.txt', '2026-04-05T23:30:00Z', 'company_document');
    await bus.publish([
      trackerItem(acme.shortName, 500, '2025-26', '2025-04-06', '2026-04-05'),
      uploadedFor(acme.shortName, 9, 500, requested),
      trackerItem(acme.shortName, 501, 'Jan–Mar 2025', '2025-01-01', '2025-03-31', matched),
    ]);
    await eventually(async () => expect(await layout(acme)).toEqual([
      ['Reports/2026-27/No report type/late.txt', '2026-27', '', '', ''],
      ['Reports/2025-26/No report type/invoices.txt', '2025-26', '2025-26', 'VAT — 2025-26', 'Sales invoices'],
      ['Reports/2024-25/No report type/q4.txt', '2024-25', 'Jan–Mar 2025', '', ''],
      ['Company documents/certificate.txt', '', '', '', ''],
    ]));
  });

  it('follows a request\'s later title, keeps the newest of a tracker item, and forgets a deleted one', async () => {
    const renamed = uploadedFor(acme.shortName, 9, 500, 0, 'VAT papers — 2025-26');
    await bus.publish([{ ...renamed, payload: { ...renamed.payload as DocumentRequestChanged, action: 'updated', itemId: undefined, files: undefined } }]);
    await eventually(async () => expect((await rowOf(acme, 'invoices.txt'))?.[3]).toBe('VAT papers — 2025-26'));
    // An older event of item 501 arriving late changes nothing; its deletion returns the file to its upload's year.
    await bus.publish([
      at(trackerItem(acme.shortName, 501, 'Oct–Dec 2024', '2024-10-01', '2024-12-31', 0), '2000-01-01T00:00:00.000Z'),
      newEvent(COMPLIANCE_ITEM_DELETED, acme.shortName, { id: 501, clientId: 1 }),
    ]);
    await eventually(async () => expect(await rowOf(acme, 'q4.txt')).toEqual(['Reports/2026-27/No report type/q4.txt', '2026-27', '', '', '']));
    const { rows } = await schema(acme).query<{ period: string; deleted: boolean }>('SELECT period, deleted FROM file_tracker_periods WHERE tracker_item_id = 501');
    expect(rows).toEqual([{ period: 'Jan–Mar 2025', deleted: true }]);
  });

  it('keeps each firm\'s events to its own files', async () => {
    const own = await addFile(schema(beta), 'beta.txt', '2026-11-02T10:00:00Z');
    await bus.publish([uploadedFor(beta.shortName, 9, null, own, 'Beta request')]);
    await eventually(async () => expect((await rowOf(beta, 'beta.txt'))?.[3]).toBe('Beta request'));
    expect((await rowOf(acme, 'invoices.txt'))?.[3]).toBe('VAT papers — 2025-26');
    expect(await layout(beta)).toEqual([['Reports/2026-27/No report type/beta.txt', '2026-27', '', 'Beta request', 'Sales invoices']]);
  });
});
