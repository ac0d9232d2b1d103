import { createHash } from 'node:crypto';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { mergeFieldsOf, type FieldInput, type SignatureTemplate, type SignatureTemplateKind } from '@ledgerline/contracts/signatures.contracts.ts';
import type { StoredDocument } from './signature.store.ts';

interface TemplateRow {
  id: number; name: string; report_type_id: number | null; kind: SignatureTemplateKind; file_id: number | null; file_name: string | null;
  pages: { width: number; height: number }[] | null; body: string | null; signers: { role: string; order: number }[]; fields: FieldInput[];
  created_by_name: string; updated_at: Date;
}

/** What a template is saved as: its PDF copied in (a firm document), or a letter body. */
export interface TemplateRecord {
  name: string; reportTypeId: number | null; kind: SignatureTemplateKind; document: StoredDocument | null; body: string | null;
  signers: { role: string; order: number }[]; fields: FieldInput[];
}

const COLUMNS = 'id, name, report_type_id, kind, file_id, file_name, pages, body, signers, fields, created_by_name, updated_at';

const templateOf = (r: TemplateRow): SignatureTemplate => ({
  id: r.id, name: r.name, reportTypeId: r.report_type_id, kind: r.kind, fileId: r.file_id, fileName: r.file_name, pages: r.pages ? r.pages.length : null,
  body: r.body, mergeFields: r.body ? mergeFieldsOf(r.body) : [], signers: r.signers, fields: r.fields, createdByName: r.created_by_name,
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** The signature_templates table (signatures.migrations.ts 002). */
export class SignatureTemplateStore {
  async list(db: Queryable, reportTypes: readonly number[] | 'all'): Promise<SignatureTemplate[]> {
    const { rows } = reportTypes === 'all'
      ? await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM signature_templates ORDER BY lower(name), id`)
      : await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM signature_templates WHERE report_type_id IS NULL OR report_type_id = ANY($1::int[]) ORDER BY lower(name), id`, [[...reportTypes]]);
    return rows.map(templateOf);
  }

  async find(db: Queryable, id: number): Promise<SignatureTemplate | null> {
    const { rows } = await db.query<TemplateRow>(`SELECT ${COLUMNS} FROM signature_templates WHERE id = $1`, [id]);
    return rows[0] ? templateOf(rows[0]) : null;
  }

  /** The template's copied PDF, or null for a letter body. */
  async document(db: Queryable, id: number): Promise<StoredDocument | null> {
    const { rows } = await db.query<{ file_id: number | null; file_name: string | null; pages: { width: number; height: number }[] | null; content: Uint8Array | null }>(
      'SELECT file_id, file_name, pages, content FROM signature_templates WHERE id = $1', [id]);
    const r = rows[0];
    if (!r?.content || !r.pages) return null;
    const content = Buffer.from(r.content);
    return { fileId: r.file_id, name: r.file_name ?? 'template.pdf', sha256: createHash('sha256').update(content).digest('hex'), pages: r.pages, content };
  }

  async insert(db: Queryable, t: TemplateRecord, createdByName: string): Promise<number> {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO signature_templates (name, report_type_id, kind, file_id, file_name, pages, content, body, signers, fields, created_by_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [t.name, t.reportTypeId, t.kind, t.document?.fileId ?? null, t.document?.name ?? null, t.document ? JSON.stringify(t.document.pages) : null,
        t.document?.content ?? null, t.body, JSON.stringify(t.signers), JSON.stringify(t.fields), createdByName],
    );
    return rows[0]!.id;
  }

  /** Replaces a template; `document` undefined keeps the PDF it has (the same fileId saved again). */
  async update(db: Queryable, id: number, t: Omit<TemplateRecord, 'document'> & { document: StoredDocument | null | undefined }): Promise<void> {
    await db.query(
      `UPDATE signature_templates SET name = $2, report_type_id = $3, kind = $4, body = $5, signers = $6, fields = $7, updated_at = now() WHERE id = $1`,
      [id, t.name, t.reportTypeId, t.kind, t.body, JSON.stringify(t.signers), JSON.stringify(t.fields)],
    );
    if (t.document !== undefined) {
      await db.query('UPDATE signature_templates SET file_id = $2, file_name = $3, pages = $4, content = $5 WHERE id = $1',
        [id, t.document?.fileId ?? null, t.document?.name ?? null, t.document ? JSON.stringify(t.document.pages) : null, t.document?.content ?? null]);
    }
  }

  async delete(db: Queryable, id: number): Promise<void> {
    await db.query('DELETE FROM signature_templates WHERE id = $1', [id]);
  }
}
