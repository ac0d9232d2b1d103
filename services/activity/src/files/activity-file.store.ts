import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type { DashboardFile } from '@ledgerline/contracts/activity.contracts.ts';
import type { FileEvent, FileType } from '@ledgerline/contracts/files.contracts.ts';
import { FILE_COLUMNS, visibleDocuments, type ActivityVisibility } from '../access-rules.ts';

export interface ActivityFile {
  id: number;
  name: string;
  size: number;
  clientId: number | null;
  clientName: string | null;
  fileType: FileType;
  reportTypeId: number | null;
  uploadedById: number;
  uploaderName: string;
  uploadedAt: string;
}

interface FileRow {
  id: number;
  name: string;
  size: number;
  client_id: number | null;
  client_name: string | null;
  file_type: FileType;
  report_type_id: number | null;
  uploaded_by_id: number;
  uploader_name: string;
  uploaded_at: Date | string;
}

const COLUMNS = 'id, name, size, client_id, client_name, file_type, report_type_id, uploaded_by_id, uploader_name, uploaded_at';

const toFile = (r: FileRow): ActivityFile => ({
  id: r.id,
  name: r.name,
  size: Number(r.size),
  clientId: r.client_id,
  clientName: r.client_name,
  fileType: r.file_type,
  reportTypeId: r.report_type_id,
  uploadedById: r.uploaded_by_id,
  uploaderName: r.uploader_name,
  uploadedAt: new Date(r.uploaded_at).toISOString(),
});

export const toDashboardFile = (f: ActivityFile): DashboardFile => ({
  fileId: f.id,
  fileName: f.name,
  clientId: f.clientId,
  clientName: f.clientName,
  fileType: f.fileType,
  size: f.size,
  uploaderName: f.uploaderName,
  uploadedAt: f.uploadedAt,
});

// Advisory-lock namespace (first key) for "one file's events at a time": "ACTF".
const FILE_LOCK_CLASS = 0x41435446;

/**
 * The files service's files as its events tell them, and the live-document rollup. The
 * upload and the deletion of a file travel on separate queues and may be handled at the
 * same time or in either order: each handler first takes a per-file lock, so it sees
 * what the other committed and the rollup counts every file once.
 */
export class ActivityFileStore {
  /** Records an uploaded file; true when it is new (a known or already deleted file stays as it is). */
  async uploaded(tx: Queryable, f: FileEvent): Promise<boolean> {
    await this.#lock(tx, f.id);
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO activity_files (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [f.id, f.originalName, f.size, f.clientId, f.clientName, f.fileType, f.reportTypeId, f.uploadedById, f.uploaderName, f.uploadedAt],
    );
    if (!rows[0]) return false;
    await this.#countDocument(tx, f, 1);
    return true;
  }

  /** Marks a file deleted, recording it first if its upload has not arrived yet. */
  async deleted(tx: Queryable, f: FileEvent, deletedAt: string): Promise<void> {
    await this.#lock(tx, f.id);
    const live = await tx.query(`UPDATE activity_files SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING id`, [f.id, deletedAt]);
    if (live.rowCount > 0) {
      await this.#countDocument(tx, f, -1);
      return;
    }
    await tx.query(
      `INSERT INTO activity_files (${COLUMNS}, deleted_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (id) DO NOTHING`,
      [f.id, f.originalName, f.size, f.clientId, f.clientName, f.fileType, f.reportTypeId, f.uploadedById, f.uploaderName, f.uploadedAt, deletedAt],
    );
  }

  /** A live file the caller may see, else null (the caller answers as if it did not exist). */
  async findVisible(db: Queryable, v: ActivityVisibility, id: number): Promise<ActivityFile | null> {
    const p = new SqlParams();
    const { rows } = await db.query<FileRow>(
      `SELECT ${COLUMNS} FROM activity_files WHERE id = ${p.add(id)} AND deleted_at IS NULL AND ${visibleDocuments(v, p, FILE_COLUMNS)}`,
      p.values,
    );
    return rows[0] ? toFile(rows[0]) : null;
  }

  /** The newest live files the caller may see (the partial index keeps this a short walk). */
  async recent(db: Queryable, v: ActivityVisibility, limit: number): Promise<ActivityFile[]> {
    const p = new SqlParams();
    const { rows } = await db.query<FileRow>(
      `SELECT ${COLUMNS} FROM activity_files WHERE deleted_at IS NULL AND ${visibleDocuments(v, p, FILE_COLUMNS)}
       ORDER BY uploaded_at DESC, id DESC LIMIT ${p.add(limit)}`,
      p.values,
    );
    return rows.map(toFile);
  }

  #lock(tx: Queryable, fileId: number): Promise<unknown> {
    return tx.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [FILE_LOCK_CLASS, fileId]);
  }

  #countDocument(tx: Queryable, f: FileEvent, delta: 1 | -1): Promise<unknown> {
    return tx.query(
      `INSERT INTO activity_document_counts (client_id, file_type, report_type_id, documents) VALUES ($1, $2, $3, $4)
       ON CONFLICT (client_id, file_type, report_type_id) DO UPDATE SET documents = activity_document_counts.documents + EXCLUDED.documents`,
      [f.clientId ?? 0, f.fileType, f.reportTypeId ?? 0, delta],
    );
  }
}
