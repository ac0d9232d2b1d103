import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { conflictOnUnique } from '@ledgerline/kit/db/sql-errors.ts';
import { Conflict, NotFound } from '@ledgerline/kit/errors.ts';
import type { ReportType, ReportTypeInput } from '@ledgerline/contracts/directory.contracts.ts';

interface ReportTypeRow {
  id: number;
  name: string;
  description: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  file_count?: number;
}

const toReportType = (r: ReportTypeRow): ReportType => ({
  id: r.id,
  name: r.name,
  description: r.description,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
  ...(r.file_count === undefined ? {} : { fileCount: r.file_count }),
});

const NAME_TAKEN = 'A report type with this name already exists';
export const REPORT_TYPE_NOT_FOUND = 'Report type not found';
export const reportTypeInUse = (files: number): string =>
  `This report type is used by ${files} ${files === 1 ? 'file' : 'files'}. Delete those files or upload them again under another report type first.`;
const COLUMNS = 'id, name, description, created_at, updated_at';
/** Lists also say how many files use each type (report_type_files, fed by the files service). */
const LIST_COLUMNS = `${COLUMNS}, (SELECT count(*)::int FROM report_type_files u WHERE u.report_type_id = report_types.id) AS file_count`;

/** The firm's report types (names unique regardless of case). */
export class ReportTypeStore {
  async list(db: Queryable, ids: 'all' | readonly number[]): Promise<ReportType[]> {
    if (ids !== 'all' && ids.length === 0) return [];
    const { rows } = ids === 'all'
      ? await db.query<ReportTypeRow>(`SELECT ${LIST_COLUMNS} FROM report_types ORDER BY id`)
      : await db.query<ReportTypeRow>(`SELECT ${LIST_COLUMNS} FROM report_types WHERE id = ANY($1::int[]) ORDER BY id`, [ids]);
    return rows.map(toReportType);
  }

  async create(tx: Queryable, input: ReportTypeInput): Promise<ReportType> {
    const { rows } = await conflictOnUnique(tx.query<ReportTypeRow>(
      `INSERT INTO report_types (name, description) VALUES ($1, $2) RETURNING ${COLUMNS}`, [input.name, input.description],
    ), NAME_TAKEN);
    return toReportType(rows[0]!);
  }

  async update(tx: Queryable, id: number, input: ReportTypeInput): Promise<ReportType> {
    const { rows } = await conflictOnUnique(tx.query<ReportTypeRow>(
      `UPDATE report_types SET name = $2, description = $3, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [id, input.name, input.description],
    ), NAME_TAKEN);
    if (!rows[0]) throw new NotFound(REPORT_TYPE_NOT_FOUND);
    return toReportType(rows[0]);
  }

  async delete(tx: Queryable, id: number): Promise<ReportType> {
    // Refused while files use it: they would keep a label no list can show or filter by.
    const used = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM report_type_files WHERE report_type_id = $1', [id]);
    const files = used.rows[0]?.n ?? 0;
    if (files > 0) throw new Conflict(reportTypeInUse(files));
    const { rows } = await tx.query<ReportTypeRow>(`DELETE FROM report_types WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
    if (!rows[0]) throw new NotFound(REPORT_TYPE_NOT_FOUND);
    return toReportType(rows[0]);
  }
}
