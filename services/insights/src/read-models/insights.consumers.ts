import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { consumeTenantEvents, eventTenant, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import {
  COMPLIANCE_ITEM_DELETED, COMPLIANCE_ITEM_UPSERTED, COMPLIANCE_SCHEDULE_DELETED, COMPLIANCE_SCHEDULE_UPSERTED,
  complianceDeletedEventSchema, complianceItemEventSchema, complianceScheduleEventSchema,
} from '@ledgerline/contracts/compliance.contracts.ts';
import {
  FILE_CONTENT_EXTRACTED, FILE_DELETED, FILE_UPLOADED, type FileContentExtractedEvent, type FileDeletedEvent, type FileEvent,
} from '@ledgerline/contracts/files.contracts.ts';
import type { AnalysisService } from '../analysis/analysis.service.ts';
import type { ReportClassifier } from '../analysis/report-classifier.ts';
import type { InsightStore } from '../insights/insight.store.ts';
import { documentFacts } from '../rules/document-facts.ts';
import type { FileFactsStore } from './file-facts.store.ts';
import type { FileTextReader } from './file-text.reader.ts';
import type { TrackerStore } from './tracker.store.ts';

const CONSUMER = 'insights';

/**
 * Tracker items and schedules from the compliance service. A filed or removed item retires
 * its match insight at once, and its client is re-analysed when a missing-documents card
 * lists it (the card drops the period); the rest waits for the next analysis (on demand,
 * after an extraction, nightly), so generating a year of items stays one write per item.
 */
export function followCompliance(deps: TenantConsumerDeps & { tracker: TrackerStore; insights: InsightStore; analysis: AnalysisService }): Promise<Subscription> {
  return consumeTenantEvents(deps, `${CONSUMER}.compliance`, [COMPLIANCE_ITEM_UPSERTED, COMPLIANCE_ITEM_DELETED, COMPLIANCE_SCHEDULE_UPSERTED, COMPLIANCE_SCHEDULE_DELETED], async (tx, event, tenant) => {
    switch (event.type) {
      case COMPLIANCE_ITEM_UPSERTED: {
        const item = complianceItemEventSchema.parse(event.payload);
        if (await deps.tracker.upsertItem(tx, item, event.occurredAt) && item.status === 'filed' && await deps.insights.retireForItem(tx, item.id)) {
          await deps.analysis.analyzeClient(tx, tenant.shortName, item.clientId);
        }
        return;
      }
      case COMPLIANCE_ITEM_DELETED: {
        const { id, clientId } = complianceDeletedEventSchema.parse(event.payload);
        await deps.tracker.deleteItem(tx, id);
        if (await deps.insights.retireForItem(tx, id)) await deps.analysis.analyzeClient(tx, tenant.shortName, clientId);
        return;
      }
      case COMPLIANCE_SCHEDULE_UPSERTED:
        await deps.tracker.upsertSchedule(tx, complianceScheduleEventSchema.parse(event.payload), event.occurredAt);
        return;
      default:
        await deps.tracker.deleteSchedule(tx, complianceDeletedEventSchema.parse(event.payload).id);
    }
  });
}

/**
 * Files from the files service. An upload records the file and what its name says; when
 * its text is extracted the text is read (the files service's internal call, before the
 * transaction: it may take a while, as may the model), its facts kept, and its client
 * analysed; a deletion forgets it and re-analyses the client (its insights may retire).
 */
export function followFiles(deps: TenantConsumerDeps & { files: FileFactsStore; texts: FileTextReader; classifier: ReportClassifier; analysis: AnalysisService }): Promise<Subscription> {
  return deps.bus.subscribe(`${CONSUMER}.files`, [FILE_UPLOADED, FILE_CONTENT_EXTRACTED, FILE_DELETED], async (event) => {
    const target = await eventTenant(deps, `${CONSUMER}.files`, event);
    if (!target) return;
    const firm = target.tenant.shortName;
    if (event.type === FILE_UPLOADED) {
      await consumeOnce(target.db, `${CONSUMER}.files`, event, (tx) => deps.files.uploaded(tx, event.payload as FileEvent));
      return;
    }
    if (event.type === FILE_DELETED) {
      const file = event.payload as FileDeletedEvent;
      await consumeOnce(target.db, `${CONSUMER}.files`, event, async (tx) => {
        await deps.files.deleted(tx, file);
        if (file.clientId !== null) await deps.analysis.analyzeClient(tx, firm, file.clientId);
      });
      return;
    }
    const { id } = event.payload as FileContentExtractedEvent;
    if (await deps.files.isDeleted(target.db, id)) return;
    const read = await deps.texts.read(firm, id);
    if (!read) return;
    const text = read.text ?? '';
    const model = read.file.fileType === 'report' ? await deps.classifier.classify(firm, read.file.originalName, text) : null;
    await consumeOnce(target.db, `${CONSUMER}.files`, event, async (tx) => {
      await deps.files.extracted(tx, { id, clientId: read.file.clientId, fileType: read.file.fileType, originalName: read.file.originalName, facts: documentFacts(read.file.originalName, text), model });
      if (read.file.clientId !== null) await deps.analysis.analyzeClient(tx, firm, read.file.clientId);
    });
  });
}
