import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import { actorId } from '@ledgerline/kit/auth/actor-id.ts';
import { hashToken } from '@ledgerline/kit/crypto/hashed-token.ts';
import { firmOfLinkToken } from '@ledgerline/kit/crypto/firm-link-token.ts';
import type { Queryable, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { Conflict, Forbidden, Gone, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { queueMail } from '@ledgerline/kit/mail/mail-job.ts';
import { firmMail } from '@ledgerline/kit/mail/mail-templates.ts';
import { appendCertificate, certificateDocument, type CertificateOfCompletion } from '@ledgerline/kit/pdf/certificate-page.ts';
import { drawFields, type FieldValue, type FilledField } from '@ledgerline/kit/pdf/fields.ts';
import { sealFingerprint, sealPdf, type SealIdentity } from '@ledgerline/kit/pdf/seal.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { TenantHandle, TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  ESIGN_DISCLOSURE, ESIGN_DISCLOSURE_VERSION, SIGNATURE_LIMITS, SIGNATURE_MESSAGES,
  TOTP_IDENTITY_METHOD, type Adoption, type SignatureRequest, type SignerFactor, type SignInput, type SigningView,
} from '@ledgerline/contracts/signatures.contracts.ts';
import type { RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';
import type { SignatureStore, SignerRecord } from '../store/signature.store.ts';
import { assertReach } from './access-rules.ts';
import { newCode, type IdentityProvider, type SecretHasher } from './identity-checks.ts';
import { publishIdentityFailure, publishSignatureChange, SYSTEM, type SignatureActor } from './signature-changes.ts';
import { isTurnOf, type SignerNotices } from './signer-notices.ts';
import { disarmSignatureReminders } from './signature-reminders.ts';

/** What hands the sealed PDF over (kit/files/report-forwarder.ts). */
export interface SignedFileSink {
  forwardFile(file: { name: string; type: string; bytes: Uint8Array }, target: RequestUploadAssertion): Promise<{ fileId: number }>;
}

/** How long a passed identity check lets the signer sign. */
const IDENTITY_VALID_MS = 30 * 60_000;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Where the signer's calls come from (the certificate records both). */
export interface Origin { address: string; browser: string }

/** A signer acting on a request: through a link, or as a signed-in Client user. */
/** A signed-in signer acts as themselves; a link signer has no account: the System, naming them. */
const signerActor = (s: SignerRecord): SignatureActor => (s.userId === null ? { id: SYSTEM.id, name: s.name } : { id: s.userId, name: s.name });

/**
 * A signed-in signer's authenticator app, checked by identity as them: present only in the
 * portal (a link signer has no account), where `factors` may add 'totp' to the e-mailed code.
 */
export interface SessionAuthenticator {
  factors(): Promise<SignerFactor[]>;
  /** Resolves for a fresh code; throws identity's refusal otherwise. */
  check(code: string): Promise<void>;
}

export interface SignerContext { shortName: string; db: SchemaDb; request: SignatureRequest; signer: SignerRecord; authenticator?: SessionAuthenticator }

const todayUtc = () => new Date().toISOString().slice(0, 10);

/**
 * The signer's side (issue 41): consent, view, identity check, adopt and sign, or decline;
 * the last signature completes the request (fields drawn, certificate appended, sealed) and
 * queues its hand-off to the files service.
 */
export class SigningService {
  readonly #store: SignatureStore;
  readonly #jobs: JobQueue;
  readonly #notices: SignerNotices;
  readonly #hasher: SecretHasher;
  readonly #seal: SealIdentity;
  readonly #provider: IdentityProvider | null;
  readonly #firmName: (shortName: string) => Promise<string>;
  readonly #files: SignedFileSink;
  readonly #onFilingError: (err: unknown, requestId: number) => void;

  constructor(deps: {
    store: SignatureStore; jobs: JobQueue; notices: SignerNotices; hasher: SecretHasher; seal: SealIdentity; provider: IdentityProvider | null;
    firmName: (shortName: string) => Promise<string>; files: SignedFileSink; onFilingError: (err: unknown, requestId: number) => void;
  }) {
    this.#files = deps.files;
    this.#onFilingError = deps.onFilingError;
    this.#store = deps.store;
    this.#jobs = deps.jobs;
    this.#notices = deps.notices;
    this.#hasher = deps.hasher;
    this.#seal = deps.seal;
    this.#provider = deps.provider;
    this.#firmName = deps.firmName;
  }

  /** A link's signer; a used, expired or replaced link, or a request no longer open, is gone (410). */
  async byLink(tenant: (shortName: string) => Promise<TenantHandle>, token: string): Promise<SignerContext> {
    const shortName = firmOfLinkToken(token);
    if (!shortName) throw new Gone(SIGNATURE_MESSAGES.linkGone);
    let handle: TenantHandle;
    try {
      handle = await tenant(shortName);
    } catch {
      throw new Gone(SIGNATURE_MESSAGES.linkGone);
    }
    const signer = await this.#store.signerByTokenHash(handle.db, hashToken(token));
    if (!signer || !signer.linkExpiresAt || signer.linkExpiresAt.getTime() <= Date.now() || signer.status !== 'pending') throw new Gone(SIGNATURE_MESSAGES.linkGone);
    const request = await this.#current(handle.db, handle.shortName, signer.requestId);
    if (request.status !== 'sent') throw new Gone(SIGNATURE_MESSAGES.linkGone);
    return { shortName: handle.shortName, db: handle.db, request, signer };
  }

  /** A signed-in Client user's own place among a request's signers (anyone else: 404). */
  async bySession(t: TenantRequest, requestId: number, authenticator?: SessionAuthenticator): Promise<SignerContext> {
    const found = await this.#store.find(t.db, requestId);
    if (!found) throw new NotFound(SIGNATURE_MESSAGES.notFound);
    assertReach(t.scope, actorId(t.claims), found);
    const signer = (await this.#store.signers(t.db, requestId)).find((s) => s.userId !== null && s.userId === actorId(t.claims));
    if (!signer) throw new NotFound(SIGNATURE_MESSAGES.notSigner);
    return { shortName: t.shortName, db: t.db, request: await this.#current(t.db, t.shortName, requestId), signer, ...(authenticator ? { authenticator } : {}) };
  }

  async view(c: SignerContext): Promise<SigningView> {
    const signers = await this.#store.signers(c.db, c.request.id);
    const documents = await c.db.query<{ name: string; pages: unknown[] }>('SELECT name, pages FROM signature_documents WHERE request_id = $1 ORDER BY position', [c.request.id]);
    const s = c.signer;
    return {
      requestId: c.request.id, firmName: await this.#firmName(c.shortName), title: c.request.title, message: c.request.message, status: c.request.status,
      identity: c.request.identity, disclosure: { version: ESIGN_DISCLOSURE_VERSION, paragraphs: ESIGN_DISCLOSURE },
      you: {
        index: s.position, name: s.name, email: s.email, role: s.role, status: s.status, viewedAt: iso(s.viewedAt), consentedAt: iso(s.consentedAt),
        identityVerifiedAt: iso(s.identityVerifiedAt), signedAt: iso(s.signedAt), lockedOut: s.lockedAt !== null, yourTurn: isTurnOf(s, signers),
        factors: await this.#factors(c),
      },
      knowledgeQuestions: c.request.identity === 'knowledge' ? s.knowledge.map((k) => k.question) : [],
      signers: signers.map((o) => ({ name: o.name, role: o.role, status: o.status, order: o.order })),
      documents: documents.rows.map((d) => ({ name: d.name, pages: d.pages.length })),
      fields: c.request.fields.filter((f) => f.signerIndex === s.position),
    };
  }

  /** The documents as one PDF, unsigned; the first time counts as the signer's viewing. */
  async document(c: SignerContext, origin: Origin): Promise<Buffer> {
    const docs = await this.#store.documents(c.db, c.request.id);
    const pdf = Buffer.from(await (await drawFields(docs.map((d) => d.content), [])).save());
    if (!c.signer.viewedAt && c.signer.status === 'pending') {
      await c.db.transaction(async (tx) => {
        await this.#store.updateSigner(tx, c.signer.id, { viewed_at: new Date(), address: origin.address, browser: origin.browser });
        await this.#store.event(tx, c.request.id, { action: 'viewed', actor: c.signer.name, signerPosition: c.signer.position, ...originOf(origin) });
      });
    }
    return pdf;
  }

  async consent(c: SignerContext, origin: Origin): Promise<SigningView> {
    this.#pending(c);
    await c.db.transaction(async (tx) => {
      await this.#store.updateSigner(tx, c.signer.id, { consented_at: new Date(), consent_version: ESIGN_DISCLOSURE_VERSION, address: origin.address, browser: origin.browser });
      await this.#store.event(tx, c.request.id, { action: 'consented', actor: c.signer.name, signerPosition: c.signer.position, detail: `ESIGN disclosure ${ESIGN_DISCLOSURE_VERSION}`, ...originOf(origin) });
    });
    return this.view(await this.#reload(c));
  }

  /** E-mails a fresh 6-digit code (sign_in_second_factor); a new code replaces the previous one. */
  async sendCode(c: SignerContext, origin: Origin): Promise<{ message: string }> {
    this.#pending(c);
    if (c.request.identity !== 'sign_in_second_factor') throw new Conflict('This request does not use an e-mailed code.');
    const code = newCode();
    const firmName = await this.#firmName(c.shortName);
    await c.db.transaction(async (tx) => {
      await this.#store.updateSigner(tx, c.signer.id, { code_hash: this.#hasher.hash('code', code), code_expires_at: new Date(Date.now() + SIGNATURE_LIMITS.codeMinutes * 60_000), code_attempts: 0 });
      await this.#store.event(tx, c.request.id, { action: 'code sent', actor: c.signer.name, signerPosition: c.signer.position, detail: c.signer.email, ...originOf(origin) });
      await queueMail(this.#jobs, tx, firmMail({
        to: c.signer.email, firmName, subject: `Your signing code: ${code}`,
        paragraphs: [`Your code to sign "${c.request.title}" is ${code}.`, `It is valid for ${SIGNATURE_LIMITS.codeMinutes} minutes. If you did not ask for it, ignore this e-mail and tell ${firmName}.`],
        footer: `Sent because a signature of yours was requested by ${firmName}.`,
      }));
    });
    return { message: SIGNATURE_MESSAGES.codeSent };
  }

  async verifyIdentity(c: SignerContext, answer: { code?: string | undefined; totp?: string | undefined; answers?: string[] | undefined }, origin: Origin): Promise<SigningView> {
    this.#pending(c);
    const s = c.signer;
    const event = (tx: Queryable, action: string, detail: string) => this.#store.event(tx, c.request.id, { action, actor: s.name, signerPosition: s.position, detail, ...originOf(origin) });
    const securityEvent = (tx: Queryable, check: string, lockedOut = false) => publishIdentityFailure(tx, c.shortName, {
      requestId: c.request.id, title: c.request.title, userId: s.userId, signerName: s.name, signerEmail: s.email, check, lockedOut, ...originOf(origin),
    });
    if (answer.totp !== undefined) {
      if (c.request.identity !== 'sign_in_second_factor') throw new Conflict(SIGNATURE_MESSAGES.totpNotForThisCheck);
      if (!c.authenticator) throw new Invalid(SIGNATURE_MESSAGES.totpSignedInOnly);
      try {
        await c.authenticator.check(answer.totp);
      } catch (err) {
        // Identity's refusal (wrong or used code, no authenticator, a Keycloak firm, too many tries) is the signer's answer.
        await event(c.db, 'identity failed', `${TOTP_IDENTITY_METHOD}: ${err instanceof Error ? err.message : 'refused'}`);
        throw err;
      }
      await c.db.transaction(async (tx) => {
        await this.#store.updateSigner(tx, s.id, { identity_verified_at: new Date(), identity_result: `passed: ${TOTP_IDENTITY_METHOD} of the signed-in user` });
        await event(tx, 'identity passed', TOTP_IDENTITY_METHOD);
      });
      return this.view(await this.#reload(c));
    }
    if (c.request.identity === 'provider') {
      if (!this.#provider) throw new Conflict(SIGNATURE_MESSAGES.providerUnavailable);
      const outcome = await this.#provider.verify({ name: s.name, email: s.email }, answer);
      await c.db.transaction(async (tx) => {
        if (outcome.passed) await this.#store.updateSigner(tx, s.id, { identity_verified_at: new Date(), identity_result: `passed: ${this.#provider!.name} (${outcome.detail})` });
        await event(tx, outcome.passed ? 'identity passed' : 'identity failed', `${this.#provider!.name}: ${outcome.detail}`);
        if (!outcome.passed) await securityEvent(tx, this.#provider!.name);
      });
      if (!outcome.passed) throw new Invalid(SIGNATURE_MESSAGES.knowledgeWrong);
      return this.view(await this.#reload(c));
    }
    if (c.request.identity === 'sign_in_second_factor') {
      const live = s.codeHash && s.codeExpiresAt && s.codeExpiresAt.getTime() > Date.now() && s.codeAttempts < SIGNATURE_LIMITS.codeAttempts;
      const passed = Boolean(live && answer.code && this.#hasher.matches('code', answer.code, s.codeHash!));
      await c.db.transaction(async (tx) => {
        if (passed) {
          await this.#store.updateSigner(tx, s.id, { identity_verified_at: new Date(), identity_result: `passed: code e-mailed to ${s.email}`, code_hash: null, code_expires_at: null });
          await event(tx, 'identity passed', `code e-mailed to ${s.email}`);
        } else {
          const attempts = s.codeAttempts + 1;
          // The last allowed wrong try spends the code: a new one must be asked for.
          await this.#store.updateSigner(tx, s.id, { code_attempts: attempts, ...(attempts >= SIGNATURE_LIMITS.codeAttempts ? { code_hash: null } : {}) });
          await event(tx, 'identity failed', 'wrong or expired e-mailed code');
          await securityEvent(tx, 'e-mailed code');
        }
      });
      if (!passed) throw new Invalid(SIGNATURE_MESSAGES.codeWrong);
      return this.view(await this.#reload(c));
    }
    if (s.lockedAt) throw new Forbidden(SIGNATURE_MESSAGES.lockedOut);
    const given = answer.answers ?? [];
    const passed = given.length === s.knowledge.length && s.knowledge.every((k, i) => this.#hasher.matches('answer', given[i] ?? '', k.answerHash));
    const failures = passed ? s.failedChecks : s.failedChecks + 1;
    const locked = !passed && failures >= SIGNATURE_LIMITS.knowledgeAttempts;
    await c.db.transaction(async (tx) => {
      if (passed) {
        const after = s.failedChecks ? ` after ${s.failedChecks} failed attempt${s.failedChecks === 1 ? '' : 's'}` : '';
        await this.#store.updateSigner(tx, s.id, { identity_verified_at: new Date(), identity_result: `passed: ${s.knowledge.length} of ${s.knowledge.length} answers the firm holds${after}` });
        await event(tx, 'identity passed', `knowledge answers${after}`);
      } else {
        await this.#store.updateSigner(tx, s.id, { failed_checks: failures, ...(locked ? { locked_at: new Date(), identity_result: `failed: locked out after ${failures} wrong answers` } : {}) });
        await event(tx, locked ? 'identity locked out' : 'identity failed', `wrong knowledge answers (${failures} of ${SIGNATURE_LIMITS.knowledgeAttempts})`);
        await securityEvent(tx, 'knowledge answers', locked);
      }
    });
    if (locked) throw new Forbidden(SIGNATURE_MESSAGES.lockedOut);
    if (!passed) throw new Invalid(SIGNATURE_MESSAGES.knowledgeWrong);
    return this.view(await this.#reload(c));
  }

  /** sign_in_second_factor: the e-mailed code always, the authenticator app where the signed-in signer has one. */
  async #factors(c: SignerContext): Promise<SignerFactor[]> {
    if (c.request.identity !== 'sign_in_second_factor') return [];
    return c.authenticator ? c.authenticator.factors() : ['email'];
  }

  async sign(c: SignerContext, input: SignInput, origin: Origin): Promise<SigningView> {
    this.#pending(c);
    const s = c.signer;
    const signers = await this.#store.signers(c.db, c.request.id);
    if (!isTurnOf(s, signers)) throw new Conflict(SIGNATURE_MESSAGES.notYourTurn);
    if (!s.consentedAt) throw new Conflict(SIGNATURE_MESSAGES.consentFirst);
    if (!s.viewedAt) throw new Conflict(SIGNATURE_MESSAGES.viewFirst);
    if (s.lockedAt) throw new Forbidden(SIGNATURE_MESSAGES.lockedOut);
    if (!s.identityVerifiedAt || Date.now() - s.identityVerifiedAt.getTime() > IDENTITY_VALID_MS) throw new Conflict(SIGNATURE_MESSAGES.identityFirst);
    const values = fieldValues(c.request, s.position, input);
    await checkAdoption(input.adoption);
    const firmName = await this.#firmName(c.shortName);
    const completed = await c.db.transaction(async (tx) => {
      if (await this.#store.lock(tx, c.request.id) !== 'sent') throw new Gone(SIGNATURE_MESSAGES.linkGone);
      await this.#store.updateSigner(tx, s.id, {
        status: 'signed', signed_at: new Date(), adoption: input.adoption, field_values: values, token_hash: null, address: origin.address, browser: origin.browser,
      });
      await this.#store.event(tx, c.request.id, { action: 'signed', actor: s.name, signerPosition: s.position, detail: `signature ${input.adoption.kind}`, ...originOf(origin) });
      await publishSignatureChange(tx, this.#store, c.shortName, c.request.id, 'signed', signerActor(s), s.name);
      const all = await this.#store.signers(tx, c.request.id);
      if (all.every((o) => o.status === 'signed')) {
        await this.#complete(tx, c.shortName, firmName, c.request.id);
        return true;
      }
      await this.#notices.notifyDue(tx, c.shortName, c.request.id, false, firmName);
      return false;
    });
    if (completed) await this.fileSigned(c.db, c.shortName, c.request.id);
    return this.view(await this.#reload(c));
  }

  async decline(c: SignerContext, reason: string, origin: Origin): Promise<SigningView> {
    this.#pending(c);
    await c.db.transaction(async (tx) => {
      if (await this.#store.lock(tx, c.request.id) !== 'sent') throw new Gone(SIGNATURE_MESSAGES.linkGone);
      await this.#store.updateSigner(tx, c.signer.id, { status: 'declined', declined_at: new Date(), decline_reason: reason, address: origin.address, browser: origin.browser });
      await this.#store.updateRequest(tx, c.request.id, { status: 'declined' });
      await disarmSignatureReminders(this.#jobs, tx, c.request.id);
      for (const o of await this.#store.signers(tx, c.request.id)) await this.#store.updateSigner(tx, o.id, { token_hash: null });
      await this.#store.event(tx, c.request.id, { action: 'declined', actor: c.signer.name, signerPosition: c.signer.position, detail: reason, ...originOf(origin) });
      await publishSignatureChange(tx, this.#store, c.shortName, c.request.id, 'declined', signerActor(c.signer), c.signer.name);
    });
    return this.view(await this.#reload(c));
  }

  /**
   * Hands the sealed PDF to the files service as a report of the client with the request's
   * report type, once. Runs after the completing transaction commits (never inside one: the
   * files service writes to the same database, on the embedded default the same connection),
   * and again when staff open a completed request that is not filed yet (the files service
   * was unavailable). A claim keeps two replicas from filing it twice.
   */
  async fileSigned(db: SchemaDb, shortName: string, requestId: number): Promise<void> {
    const claimed = await db.query<{ id: number }>(
      `UPDATE signature_requests SET filing_started_at = now() WHERE id = $1 AND status = 'completed' AND signed_file_id IS NULL
         AND (filing_started_at IS NULL OR filing_started_at < now() - interval '5 minutes') RETURNING id`, [requestId]);
    if (!claimed.rows.length) return;
    try {
      const request = (await this.#store.find(db, requestId))!;
      const { signed } = await this.#store.sealed(db, requestId);
      const name = `${request.title.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'Signed document'} - signed.pdf`;
      const stored = await this.#files.forwardFile({ name, type: 'application/pdf', bytes: signed! }, {
        t: shortName, c: request.clientId, r: request.reportTypeId, u: request.createdById, n: `E-signature: ${request.title}`.slice(0, 200),
        ...(request.releaseOnPaymentOf !== null ? { h: { i: request.releaseOnPaymentOf, n: request.releaseInvoiceNumber ?? '' } } : {}),
      });
      await db.transaction(async (tx) => {
        await this.#store.updateRequest(tx, requestId, { signed_file_id: stored.fileId });
        await this.#store.event(tx, requestId, { action: 'filed', actor: 'system', detail: `report file ${stored.fileId}` });
        // A linked tracker item shows the signed document (compliance follows this).
        await publishSignatureChange(tx, this.#store, shortName, requestId, 'filed', SYSTEM);
      });
    } catch (err) {
      await db.query('UPDATE signature_requests SET filing_started_at = NULL WHERE id = $1', [requestId]);
      this.#onFilingError(err, requestId);
    }
  }

  async #complete(tx: Queryable, shortName: string, firmName: string, requestId: number): Promise<void> {
    const request = (await this.#store.find(tx, requestId))!;
    const signers = await this.#store.signers(tx, requestId);
    const documents = await this.#store.documents(tx, requestId);
    const filled: FilledField[] = request.fields.flatMap((f) => {
      const value = signers[f.signerIndex]?.fieldValues?.[String(f.index)];
      const adoption = signers[f.signerIndex]?.adoption;
      const v = valueFor(f.type, value, adoption ?? null);
      return v ? [{ ...f, value: v }] : [];
    });
    const doc = await drawFields(documents.map((d) => d.content), filled);
    const completedAt = new Date();
    const certificate: CertificateOfCompletion = {
      title: request.title, requestId: `${shortName}/signature-requests/${requestId}`, firmName, clientName: request.clientName,
      sentAt: request.sentAt ? new Date(request.sentAt) : null, completedAt,
      signers: signers.map((s) => ({
        name: s.name, email: s.email, role: s.role, identityMethod: request.identity, identityResult: s.identityResult ?? '-',
        address: s.address, browser: s.browser, viewedAt: s.viewedAt, consentedAt: s.consentedAt, signedAt: s.signedAt,
        adoption: s.adoption ? (s.adoption.kind === 'typed' ? `typed ("${s.adoption.text}")` : 'drawn') : null,
      })),
      documents: documents.map((d) => ({ name: d.name, sha256: d.sha256 })),
      sealFingerprint: sealFingerprint(this.#seal),
    };
    await appendCertificate(doc, certificate);
    const details = { name: firmName, reason: `Signed electronically: ${request.title}`, location: 'Ledgerline', contactInfo: '', signingTime: completedAt };
    const sealed = await sealPdf(await doc.save(), this.#seal, details);
    const signedSha256 = createHash('sha256').update(sealed).digest('hex');
    const alone = await sealPdf(await (await certificateDocument({ ...certificate, sealedFileSha256: signedSha256 })).save(), this.#seal, { ...details, reason: `Certificate of completion: ${request.title}` });
    await this.#store.updateRequest(tx, requestId, { status: 'completed', completed_at: completedAt, signed_pdf: sealed, signed_sha256: signedSha256, certificate_pdf: alone });
    await this.#store.event(tx, requestId, { action: 'completed', actor: 'system', detail: `sealed, SHA-256 ${signedSha256}` });
    await disarmSignatureReminders(this.#jobs, tx, requestId);
    await publishSignatureChange(tx, this.#store, shortName, requestId, 'completed', SYSTEM);
    await this.#notices.completed(tx, { ...request, signedSha256 }, signers, firmName);
  }

  #pending(c: SignerContext): void {
    if (c.request.status !== 'sent') throw new Gone(SIGNATURE_MESSAGES.linkGone);
    if (c.signer.status !== 'pending') throw new Conflict(SIGNATURE_MESSAGES.alreadyDone);
  }

  async #reload(c: SignerContext): Promise<SignerContext> {
    const signer = (await this.#store.signers(c.db, c.request.id)).find((s) => s.id === c.signer.id)!;
    return { ...c, request: (await this.#store.find(c.db, c.request.id))!, signer };
  }

  async #current(db: SchemaDb, shortName: string, id: number): Promise<SignatureRequest> {
    const request = await this.#store.find(db, id);
    if (!request) throw new NotFound(SIGNATURE_MESSAGES.notFound);
    return expireIfDue(db, shortName, this.#store, request);
  }

}

/** The request, marked expired first when its due date (UTC) has passed unsigned: no job watches it, every read does. */
export async function expireIfDue(db: SchemaDb, shortName: string, store: SignatureStore, request: SignatureRequest): Promise<SignatureRequest> {
  if (request.status !== 'sent' || !request.dueDate || request.dueDate >= todayUtc()) return request;
  await db.transaction((tx) => expireRequest(tx, shortName, store, request));
  return (await store.find(db, request.id))!;
}

/** Ends a waiting request as expired (its links stop working), inside the caller's transaction; false when it was no longer waiting. */
export async function expireRequest(tx: Queryable, shortName: string, store: SignatureStore, request: Pick<SignatureRequest, 'id' | 'dueDate'>): Promise<boolean> {
  if (await store.lock(tx, request.id) !== 'sent') return false;
  await store.updateRequest(tx, request.id, { status: 'expired' });
  for (const s of await store.signers(tx, request.id)) await store.updateSigner(tx, s.id, { token_hash: null });
  await store.event(tx, request.id, { action: 'expired', actor: 'system', detail: `due ${request.dueDate}` });
  await publishSignatureChange(tx, store, shortName, request.id, 'expired', SYSTEM);
  return true;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const originOf = (o: Origin) => ({ address: o.address, browser: o.browser });

/** A drawn signature must be a PNG the PDF can embed (checked now: a broken one would fail the completion). */
async function checkAdoption(adoption: Adoption): Promise<void> {
  if (adoption.kind !== 'drawn') return;
  const png = Buffer.from(adoption.png, 'base64');
  const refused = new Invalid('The drawn signature must be a PNG image.');
  if (png.length < PNG_MAGIC.length || !png.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) throw refused;
  try {
    await (await PDFDocument.create()).embedPng(png);
  } catch {
    throw refused;
  }
}

/** This signer's values by field index: checked against their fields (others' fields refused), dates defaulting to today. */
function fieldValues(request: SignatureRequest, position: number, input: SignInput): Record<string, string | boolean> {
  const mine = request.fields.filter((f) => f.signerIndex === position);
  for (const key of Object.keys(input.values)) {
    const field = mine.find((f) => String(f.index) === key);
    if (!field || field.type === 'signature' || field.type === 'initials') throw new Invalid(`${SIGNATURE_MESSAGES.fieldValue} (field ${key})`);
  }
  const out: Record<string, string | boolean> = {};
  for (const f of mine) {
    const given = input.values[String(f.index)];
    if (f.type === 'signature' || f.type === 'initials') continue;
    if (f.type === 'checkbox') {
      if (given !== undefined && typeof given !== 'boolean') throw new Invalid(`${SIGNATURE_MESSAGES.fieldValue} (field ${f.index})`);
      if (f.required && given !== true) throw new Invalid(`${SIGNATURE_MESSAGES.fieldsMissing} (field ${f.index})`);
      out[String(f.index)] = given === true;
      continue;
    }
    if (given !== undefined && typeof given !== 'string') throw new Invalid(`${SIGNATURE_MESSAGES.fieldValue} (field ${f.index})`);
    const text = (given ?? '').trim() || (f.type === 'date' ? todayUtc() : '');
    if (f.required && !text) throw new Invalid(`${SIGNATURE_MESSAGES.fieldsMissing} (field ${f.index})`);
    out[String(f.index)] = text;
  }
  return out;
}

function valueFor(type: string, value: string | boolean | undefined, adoption: Adoption | null): FieldValue | null {
  if (type === 'signature' || type === 'initials') {
    if (!adoption) return null;
    const mark = adoption.kind === 'typed'
      ? { kind: 'typed' as const, text: type === 'initials' ? initialsOf(adoption.text) : adoption.text }
      : { kind: 'drawn' as const, png: Buffer.from(adoption.png, 'base64') };
    return { type, mark };
  }
  if (type === 'checkbox') return { type, checked: value === true };
  if (type === 'date' || type === 'text') return typeof value === 'string' && value ? { type, text: value } : null;
  return null;
}

const initialsOf = (name: string): string => name.split(/\s+/).filter(Boolean).map((w) => w[0]!.toUpperCase()).join('');
