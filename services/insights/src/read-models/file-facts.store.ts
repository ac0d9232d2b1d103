import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { FileEvent } from '@ledgerline/contracts/files.contracts.ts';
import { mentionsFiling, readableName, type DocumentFacts } from '../rules/document-facts.ts';
import type { FileFacts } from '../rules/find-insights.ts';
import { periodsMentioned } from '../rules/period-mentions.ts';
import type { ReportClassification } from '../rules/report-classification.ts';

/** What the extraction handler learned of a file: its text's facts and, with a model, its classification. */
export interface ExtractedFile {
  id: number;
  clientId: number | null;
  fileType: string;
  originalName: string;
  facts: DocumentFacts;
  model: ReportClassification | null;
}

/**
 * The insights schema's read model of files (from the files service's events) and the
 * facts the rules read from them. Upload and extraction events may arrive in either order:
 * each fills its own columns.
 */
export class FileFactsStore {
  async uploaded(tx: Queryable, f: FileEvent): Promise<void> {
    const name = readableName(f.originalName);
    await tx.query(
      `INSERT INTO insight_files (id, client_id, report_type_id, file_type, original_name, name_periods, name_filing, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET client_id = EXCLUDED.client_id, report_type_id = EXCLUDED.report_type_id, file_type = EXCLUDED.file_type,
         original_name = EXCLUDED.original_name, name_periods = EXCLUDED.name_periods, name_filing = EXCLUDED.name_filing, uploaded_at = EXCLUDED.uploaded_at`,
      [f.id, f.clientId, f.reportTypeId, f.fileType, f.originalName, periodsMentioned(name), mentionsFiling(name), f.uploadedAt],
    );
  }

  async extracted(tx: Queryable, f: ExtractedFile): Promise<void> {
    await tx.query(
      `INSERT INTO insight_files (id, client_id, file_type, original_name, name_periods, name_filing, facts, model, extracted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, now())
       ON CONFLICT (id) DO UPDATE SET facts = EXCLUDED.facts, model = EXCLUDED.model, extracted_at = EXCLUDED.extracted_at`,
      [f.id, f.clientId, f.fileType, f.originalName, f.facts.namePeriods, f.facts.nameFiling, JSON.stringify(f.facts), f.model ? JSON.stringify(f.model) : null],
    );
  }

  /** Marks it gone (a late upload event must not bring it back); its client, if it had one. */
  async deleted(tx: Queryable, f: Pick<FileEvent, 'id' | 'clientId'>): Promise<void> {
    await tx.query(
      `INSERT INTO insight_files (id, client_id, deleted) VALUES ($1, $2, true)
       ON CONFLICT (id) DO UPDATE SET deleted = true`, [f.id, f.clientId],
    );
  }

  async isDeleted(db: Queryable, id: number): Promise<boolean> {
    const { rows } = await db.query<{ deleted: boolean }>('SELECT deleted FROM insight_files WHERE id = $1', [id]);
    return rows[0]?.deleted ?? false;
  }

  async ofClient(db: Queryable, clientId: number): Promise<(FileFacts & { clientId: number })[]> {
    const { rows } = await db.query<{ id: number; name: string | null; reportTypeId: number | null; fileType: string | null; facts: DocumentFacts | null; namePeriods: string[]; nameFiling: boolean; model: ReportClassification | null }>(
      `SELECT id, original_name AS name, report_type_id AS "reportTypeId", file_type AS "fileType", facts, name_periods AS "namePeriods", name_filing AS "nameFiling", model
       FROM insight_files WHERE client_id = $1 AND NOT deleted ORDER BY id`, [clientId],
    );
    return rows.map((r) => ({
      id: r.id, clientId, name: r.name ?? `File ${r.id}`, reportTypeId: r.reportTypeId, isReport: r.fileType === 'report',
      facts: r.facts, namePeriods: r.namePeriods, nameFiling: r.nameFiling, model: r.model,
    }));
  }
}
