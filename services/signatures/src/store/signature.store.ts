import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { SqlParams } from '@ledgerline/kit/db/sql-params.ts';
import type {
  IdentityMethod, SignatureEvent, SignatureField, SignatureRequest, SignatureRequestSummary, SignatureStatus, SignerStatus, SignerView, Adoption,
} from '@ledgerline/contracts/signatures.contracts.ts';

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());
const bytes = (v: Uint8Array | null): Buffer | null => (v === null ? null : Buffer.from(v));

interface RequestRow {
  id: number; client_id: number; client_name: string; title: string; message: string | null; status: SignatureStatus; due_date: string | null;
  reminder_every_days: number | null; report_type_id: number; tracker_item_id: number | null; identity: IdentityMethod; fields: SignatureField[];
  created_by_id: number; created_by_name: string; created_at: Date; sent_at: Date | null; completed_at: Date | null; void_reason: string | null;
  signed_file_id: number | null; signed_sha256: string | null; release_on_payment_of: number | null; release_invoice_number: string | null;
}

/** A signer as the rules need it (secrets included: never sent out as is). */
export interface SignerRecord {
  id: number; requestId: number; position: number; userId: number | null; name: string; email: string; role: string; order: number;
  knowledge: { question: string; answerHash: string }[]; status: SignerStatus; tokenHash: string | null; linkExpiresAt: Date | null;
  notifiedAt: Date | null; viewedAt: Date | null; consentedAt: Date | null; identityVerifiedAt: Date | null; identityResult: string | null;
  failedChecks: number; lockedAt: Date | null; codeHash: string | null; codeExpiresAt: Date | null; codeAttempts: number;
  signedAt: Date | null; declinedAt: Date | null; declineReason: string | null; adoption: Adoption | null; fieldValues: Record<string, string | boolean> | null;
  address: string | null; browser: string | null;
}

interface SignerRow {
  id: number; request_id: number; position: number; user_id: number | null; name: string; email: string; role: string; sign_order: number;
  knowledge: { question: string; answerHash: string }[]; status: SignerStatus; token_hash: string | null; link_expires_at: Date | null;
  notified_at: Date | null; viewed_at: Date | null; consented_at: Date | null; identity_verified_at: Date | null; identity_result: string | null;
  failed_checks: number; locked_at: Date | null; code_hash: string | null; code_expires_at: Date | null; code_attempts: number;
  signed_at: Date | null; declined_at: Date | null; decline_reason: string | null; adoption: Adoption | null; field_values: Record<string, string | boolean> | null;
  address: string | null; browser: string | null;
}

const signerOf = (r: SignerRow): SignerRecord => ({
  id: r.id, requestId: r.request_id, position: r.position, userId: r.user_id, name: r.name, email: r.email, role: r.role, order: r.sign_order,
  knowledge: r.knowledge, status: r.status, tokenHash: r.token_hash, linkExpiresAt: r.link_expires_at, notifiedAt: r.notified_at,
  viewedAt: r.viewed_at, consentedAt: r.consented_at, identityVerifiedAt: r.identity_verified_at, identityResult: r.identity_result,
  failedChecks: r.failed_checks, lockedAt: r.locked_at, codeHash: r.code_hash, codeExpiresAt: r.code_expires_at, codeAttempts: r.code_attempts,
  signedAt: r.signed_at, declinedAt: r.declined_at, declineReason: r.decline_reason, adoption: r.adoption, fieldValues: r.field_values,
  address: r.address, browser: r.browser,
});

export const signerView = (s: SignerRecord): SignerView => ({
  index: s.position, userId: s.userId, name: s.name, email: s.email, role: s.role, order: s.order, status: s.status,
  viewedAt: iso(s.viewedAt), consentedAt: iso(s.consentedAt), identityVerifiedAt: iso(s.identityVerifiedAt), signedAt: iso(s.signedAt),
  declinedAt: iso(s.declinedAt), declineReason: s.declineReason, identityResult: s.identityResult, address: s.address, browser: s.browser,
  lockedOut: s.lockedAt !== null, knowledgeQuestions: s.knowledge.length,
});

export interface StoredDocument { fileId: number | null; name: string; sha256: string; pages: { width: number; height: number }[]; content: Buffer }

export interface NewSignatureRequest {
  clientId: number; clientName: string; title: string; message: string | null; dueDate: string | null; reminderEveryDays: number | null;
  reportTypeId: number; trackerItemId: number | null; identity: IdentityMethod; fields: SignatureField[]; createdById: number; createdByName: string;
  releaseOnPayment: { invoiceId: number; invoiceNumber: string } | null;
}
export interface NewSigner { userId: number | null; name: string; email: string; role: string; order: number; knowledge: { question: string; answerHash: string }[] }

const REQUEST_COLUMNS = `r.id, r.client_id, r.client_name, r.title, r.message, r.status, r.due_date::text AS due_date, r.reminder_every_days, r.report_type_id,
  r.tracker_item_id, r.identity, r.fields, r.created_by_id, r.created_by_name, r.created_at, r.sent_at, r.completed_at, r.void_reason, r.signed_file_id, r.signed_sha256,
  r.release_on_payment_of, r.release_invoice_number`;

/** The signatures service's tables (signatures.migrations.ts). */
export class SignatureStore {
  async insert(tx: Queryable, r: NewSignatureRequest, documents: readonly StoredDocument[], signers: readonly NewSigner[]): Promise<number> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO signature_requests (client_id, client_name, title, message, due_date, reminder_every_days, report_type_id, tracker_item_id, identity, fields, created_by_id, created_by_name,
         release_on_payment_of, release_invoice_number)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [r.clientId, r.clientName, r.title, r.message, r.dueDate, r.reminderEveryDays, r.reportTypeId, r.trackerItemId, r.identity, JSON.stringify(r.fields), r.createdById, r.createdByName,
        r.releaseOnPayment?.invoiceId ?? null, r.releaseOnPayment?.invoiceNumber ?? null],
    );
    const id = rows[0]!.id;
    await this.replaceParts(tx, id, documents, signers);
    return id;
  }

  async replaceParts(tx: Queryable, id: number, documents: readonly StoredDocument[] | null, signers: readonly NewSigner[] | null): Promise<void> {
    if (documents) {
      await tx.query('DELETE FROM signature_documents WHERE request_id = $1', [id]);
      for (const [position, d] of documents.entries()) {
        await tx.query('INSERT INTO signature_documents (request_id, position, file_id, name, sha256, pages, content) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [id, position, d.fileId, d.name, d.sha256, JSON.stringify(d.pages), d.content]);
      }
    }
    if (signers) {
      await tx.query('DELETE FROM signature_signers WHERE request_id = $1', [id]);
      for (const [position, s] of signers.entries()) {
        await tx.query('INSERT INTO signature_signers (request_id, position, user_id, name, email, role, sign_order, knowledge) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [id, position, s.userId, s.name, s.email, s.role, s.order, JSON.stringify(s.knowledge)]);
      }
    }
  }

  async updateRequest(tx: Queryable, id: number, change: Partial<Record<'title' | 'message' | 'due_date' | 'reminder_every_days' | 'report_type_id' | 'tracker_item_id' | 'identity' | 'fields' | 'status' | 'void_reason' | 'sent_at' | 'completed_at' | 'signed_pdf' | 'signed_sha256' | 'certificate_pdf' | 'signed_file_id' | 'release_on_payment_of' | 'release_invoice_number', unknown>>): Promise<void> {
    const entries = Object.entries(change).filter(([, v]) => v !== undefined);
    if (!entries.length) return;
    const sets = entries.map(([k], i) => `${k} = $${i + 2}`);
    await tx.query(`UPDATE signature_requests SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`,
      [id, ...entries.map(([k, v]) => (k === 'fields' ? JSON.stringify(v) : v))]);
  }

  async delete(tx: Queryable, id: number): Promise<void> {
    await tx.query('DELETE FROM signature_requests WHERE id = $1', [id]);
  }

  /** A request row with its signers, documents (without content) and events; null when missing. */
  async find(db: Queryable, id: number): Promise<SignatureRequest | null> {
    const { rows } = await db.query<RequestRow>(`SELECT ${REQUEST_COLUMNS} FROM signature_requests r WHERE r.id = $1`, [id]);
    const row = rows[0];
    if (!row) return null;
    const signers = await this.signers(db, id);
    const docs = await db.query<{ file_id: number | null; name: string; sha256: string; pages: unknown[] }>('SELECT file_id, name, sha256, pages FROM signature_documents WHERE request_id = $1 ORDER BY position', [id]);
    const events = await db.query<{ at: Date; action: string; signer_position: number | null; actor: string; detail: string | null; address: string | null }>(
      'SELECT at, action, signer_position, actor, detail, address FROM signature_events WHERE request_id = $1 ORDER BY id', [id]);
    return {
      ...this.#summaryBase(row),
      signers: signers.map(signerView),
      fields: row.fields,
      documents: docs.rows.map((d) => ({ fileId: d.file_id, name: d.name, sha256: d.sha256, pages: d.pages.length })),
      events: events.rows.map((e): SignatureEvent => ({ at: iso(e.at)!, action: e.action, signerIndex: e.signer_position, actor: e.actor, detail: e.detail, address: e.address })),
    };
  }

  async list(db: Queryable, scope: AccessScope, filter: { clientId?: number; status?: SignatureStatus; signerUserId?: number; limit: number; offset: number }): Promise<SignatureRequestSummary[]> {
    const p = new SqlParams();
    const where: string[] = [];
    if (scope.clients !== 'all') where.push(`r.client_id = ANY(${p.add([...scope.clients])}::int[])`);
    if (!scope.isClient && scope.reportTypes !== 'all') where.push(`r.report_type_id = ANY(${p.add([...scope.reportTypes])}::int[])`);
    if (filter.signerUserId !== undefined) where.push(`r.status <> 'draft' AND EXISTS (SELECT 1 FROM signature_signers s WHERE s.request_id = r.id AND s.user_id = ${p.add(filter.signerUserId)})`);
    if (filter.clientId) where.push(`r.client_id = ${p.add(filter.clientId)}`);
    if (filter.status) where.push(`r.status = ${p.add(filter.status)}`);
    const { rows } = await db.query<RequestRow & { document_count: number }>(
      `SELECT ${REQUEST_COLUMNS}, (SELECT count(*)::int FROM signature_documents d WHERE d.request_id = r.id) AS document_count
       FROM signature_requests r ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY r.id DESC LIMIT ${p.add(filter.limit)} OFFSET ${p.add(filter.offset)}`,
      p.values,
    );
    const signers = rows.length ? await db.query<SignerRow>('SELECT * FROM signature_signers WHERE request_id = ANY($1::int[]) ORDER BY position', [rows.map((r) => r.id)]) : { rows: [] };
    return rows.map((r) => ({ ...this.#summaryBase(r), documentCount: r.document_count, signers: signers.rows.filter((s) => s.request_id === r.id).map((s) => signerView(signerOf(s))) }));
  }

  #summaryBase(r: RequestRow): Omit<SignatureRequestSummary, 'documentCount' | 'signers'> {
    return {
      id: r.id, clientId: r.client_id, clientName: r.client_name, title: r.title, message: r.message, status: r.status, dueDate: r.due_date,
      reminderEveryDays: r.reminder_every_days, reportTypeId: r.report_type_id, trackerItemId: r.tracker_item_id, identity: r.identity,
      createdById: r.created_by_id, createdByName: r.created_by_name, createdAt: iso(r.created_at)!, sentAt: iso(r.sent_at), completedAt: iso(r.completed_at),
      voidReason: r.void_reason, signedFileId: r.signed_file_id, signedSha256: r.signed_sha256,
      releaseOnPaymentOf: r.release_on_payment_of, releaseInvoiceNumber: r.release_invoice_number,
    };
  }

  async signers(db: Queryable, requestId: number): Promise<SignerRecord[]> {
    const { rows } = await db.query<SignerRow>('SELECT * FROM signature_signers WHERE request_id = $1 ORDER BY position', [requestId]);
    return rows.map(signerOf);
  }

  async signerByTokenHash(db: Queryable, tokenHash: string): Promise<SignerRecord | null> {
    const { rows } = await db.query<SignerRow>('SELECT * FROM signature_signers WHERE token_hash = $1', [tokenHash]);
    return rows[0] ? signerOf(rows[0]) : null;
  }

  async updateSigner(tx: Queryable, id: number, change: Partial<Record<'token_hash' | 'link_expires_at' | 'notified_at' | 'viewed_at' | 'consented_at' | 'consent_version' | 'identity_verified_at' | 'identity_result' | 'failed_checks' | 'locked_at' | 'code_hash' | 'code_expires_at' | 'code_attempts' | 'status' | 'signed_at' | 'declined_at' | 'decline_reason' | 'adoption' | 'field_values' | 'address' | 'browser', unknown>>): Promise<void> {
    const entries = Object.entries(change).filter(([, v]) => v !== undefined);
    if (!entries.length) return;
    const sets = entries.map(([k], i) => `${k} = $${i + 2}`);
    await tx.query(`UPDATE signature_signers SET ${sets.join(', ')} WHERE id = $1`,
      [id, ...entries.map(([k, v]) => (k === 'adoption' || k === 'field_values') && v !== null ? JSON.stringify(v) : v)]);
  }

  async documents(db: Queryable, requestId: number): Promise<StoredDocument[]> {
    const { rows } = await db.query<{ file_id: number | null; name: string; sha256: string; pages: { width: number; height: number }[]; content: Uint8Array }>(
      'SELECT file_id, name, sha256, pages, content FROM signature_documents WHERE request_id = $1 ORDER BY position', [requestId]);
    return rows.map((d) => ({ fileId: d.file_id, name: d.name, sha256: d.sha256, pages: d.pages, content: Buffer.from(d.content) }));
  }

  async sealed(db: Queryable, requestId: number): Promise<{ signed: Buffer | null; certificate: Buffer | null }> {
    const { rows } = await db.query<{ signed_pdf: Uint8Array | null; certificate_pdf: Uint8Array | null }>('SELECT signed_pdf, certificate_pdf FROM signature_requests WHERE id = $1', [requestId]);
    return { signed: bytes(rows[0]?.signed_pdf ?? null), certificate: bytes(rows[0]?.certificate_pdf ?? null) };
  }

  /** Locks the request's row for a state change (a signer's last signature, a void) so two never cross. */
  async lock(tx: Queryable, id: number): Promise<SignatureStatus | null> {
    const { rows } = await tx.query<{ status: SignatureStatus }>('SELECT status FROM signature_requests WHERE id = $1 FOR UPDATE', [id]);
    return rows[0]?.status ?? null;
  }

  async event(tx: Queryable, requestId: number, e: { action: string; actor: string; signerPosition?: number | null; detail?: string | null; address?: string | null; browser?: string | null }): Promise<void> {
    await tx.query('INSERT INTO signature_events (request_id, signer_position, action, actor, detail, address, browser) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [requestId, e.signerPosition ?? null, e.action, e.actor, e.detail ?? null, e.address ?? null, e.browser ?? null]);
  }
}
