import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { roleIs, ROLES } from '@ledgerline/kit/auth/roles.ts';
import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { fitsPage } from '@ledgerline/kit/pdf/fields.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  SIGNATURE_MESSAGES, type IdentityMethod, type SignatureField, type SignatureListQuery, type SignatureRequest, type SignatureRequestInput,
  type SignatureRequestSummary, type SignatureRequestUpdate, type SignerInput, type FieldInput,
} from '@ledgerline/contracts/signatures.contracts.ts';
import type { NewSigner, SignatureStore, StoredDocument } from '../store/signature.store.ts';
import { assertReach, requireStaff } from './access-rules.ts';
import type { DocumentSource } from './document-source.ts';
import type { ReleaseInvoices } from './release-invoice.ts';
import type { IdentityProvider, SecretHasher } from './identity-checks.ts';
import { publishSignatureChange } from './signature-changes.ts';
import type { SignerNotices } from './signer-notices.ts';
import { expireIfDue } from './signing.service.ts';
import type { LetterFacts } from './letter-renderer.ts';
import type { SignatureTemplates } from './signature-templates.service.ts';
import type { SignatureReminders } from './signature-reminders.ts';

/**
 * The staff side of signature requests (issue 41): make and edit drafts, send, remind,
 * void, delete; the signer side and completion are SigningService's.
 */
export class SignatureService {
  readonly #store: SignatureStore;
  readonly #directory: DirectoryLookup;
  readonly #users: UserAccessReadModel;
  readonly #documents: DocumentSource;
  readonly #hasher: SecretHasher;
  readonly #notices: SignerNotices;
  readonly #provider: IdentityProvider | null;
  readonly #firmName: (shortName: string) => Promise<string>;
  readonly #fileSigned: (t: TenantRequest, id: number) => Promise<void>;
  readonly #invoices: ReleaseInvoices;
  readonly #templates: SignatureTemplates;
  readonly #reminders: Pick<SignatureReminders, 'arm' | 'disarm'>;
  readonly #firm: (shortName: string) => Promise<Omit<LetterFacts, 'clientName' | 'clientAddress'>>;

  constructor(deps: {
    templates: SignatureTemplates; reminders: Pick<SignatureReminders, 'arm' | 'disarm'>; firm: (shortName: string) => Promise<Omit<LetterFacts, 'clientName' | 'clientAddress'>>;
    store: SignatureStore; directory: DirectoryLookup; users: UserAccessReadModel; documents: DocumentSource; hasher: SecretHasher; notices: SignerNotices;
    provider: IdentityProvider | null; firmName: (shortName: string) => Promise<string>; fileSigned: (t: TenantRequest, id: number) => Promise<void>;
    invoices: ReleaseInvoices;
  }) {
    this.#invoices = deps.invoices;
    this.#firmName = deps.firmName;
    this.#templates = deps.templates;
    this.#reminders = deps.reminders;
    this.#firm = deps.firm;
    this.#fileSigned = deps.fileSigned;
    this.#store = deps.store;
    this.#directory = deps.directory;
    this.#users = deps.users;
    this.#documents = deps.documents;
    this.#hasher = deps.hasher;
    this.#notices = deps.notices;
    this.#provider = deps.provider;
  }

  list(t: TenantRequest, query: SignatureListQuery): Promise<SignatureRequestSummary[]> {
    return this.#store.list(t.db, t.scope, { ...query, ...(t.scope.isClient ? { signerUserId: actorId(t.claims) } : {}) });
  }

  async get(t: TenantRequest, id: number): Promise<SignatureRequest> {
    const found = await this.#store.find(t.db, id);
    if (!found) throw new NotFound(SIGNATURE_MESSAGES.notFound);
    assertReach(t.scope, actorId(t.claims), found);
    let r = await expireIfDue(t.db, t.shortName, this.#store, found);
    if (r.status === 'completed' && r.signedFileId === null && !t.scope.isClient) {
      // The hand-off at completion failed (files unavailable): staff opening it tries again.
      await this.#fileSigned(t, id);
      r = (await this.#store.find(t.db, id))!;
    }
    if (!t.scope.isClient) return r;
    // A signer sees the request, the other signers' names, roles and progress; not the audit trail's addresses.
    return { ...r, events: r.events.map((e) => ({ ...e, address: null })), signers: r.signers.map((s) => ({ ...s, address: null, browser: null, knowledgeQuestions: 0 })) };
  }

  async create(t: TenantRequest, input: SignatureRequestInput): Promise<SignatureRequest> {
    requireStaff(t.scope);
    const client = await this.#directory.client(t, input.clientId);
    await this.#directory.reportType(t, input.reportTypeId);
    this.#identityAvailable(input.identity);
    const template = input.templateId
      ? await this.#templates.partsFor(t, input.templateId, {
        title: input.title, hasDocuments: input.documents.length > 0, mergeValues: input.mergeValues ?? {},
        roles: (i) => input.signers[i]?.role ?? null, facts: () => this.#letterFacts(t, client.id),
      })
      : null;
    if (input.mergeValues && Object.keys(input.mergeValues).length && !template) throw new Invalid(`${SIGNATURE_MESSAGES.unknownMergeFields}: merge values need a templateId`);
    const signers = await this.#signers(t, client.id, input.signers, input.identity, template?.signers ?? []);
    const documents = template?.documents ?? await this.#documents.fetch(t, client.id, input.documents.map((d) => d.fileId));
    if (!documents.length) throw new Invalid(SIGNATURE_MESSAGES.documentsNeeded);
    const fields = checkFields(input.fields.length || !template ? input.fields : template.fields, documents, signers.length);
    const releaseOnPayment = input.releaseOnPaymentOf ? await this.#releaseInvoice(t, client.id, input.releaseOnPaymentOf) : null;
    const id = await t.db.transaction(async (tx) => {
      const requestId = await this.#store.insert(tx, {
        clientId: client.id, clientName: client.name, title: input.title, message: input.message, dueDate: input.dueDate ?? null,
        reminderEveryDays: input.reminderEveryDays ?? null, reportTypeId: input.reportTypeId, trackerItemId: input.trackerItemId ?? null,
        identity: input.identity, fields, createdById: actorId(t.claims), createdByName: actorName(t.claims), releaseOnPayment,
      }, documents, signers);
      await this.#store.event(tx, requestId, { action: 'created', actor: actorName(t.claims) });
      return requestId;
    });
    if (input.sendNow) await this.send(t, id);
    return this.get(t, id);
  }

  async update(t: TenantRequest, id: number, change: SignatureRequestUpdate): Promise<SignatureRequest> {
    requireStaff(t.scope);
    const current = await this.get(t, id);
    if (change.status === 'voided') {
      if (current.status !== 'sent' && current.status !== 'draft') throw new Conflict(SIGNATURE_MESSAGES.notSent);
      await t.db.transaction(async (tx) => {
        if (await this.#store.lock(tx, id) !== current.status) throw new Conflict(SIGNATURE_MESSAGES.notSent);
        await this.#store.updateRequest(tx, id, { status: 'voided', void_reason: change.voidReason ?? null });
        await this.#reminders.disarm(tx, id);
        // Links stop working at once.
        for (const s of await this.#store.signers(tx, id)) await this.#store.updateSigner(tx, s.id, { token_hash: null });
        await this.#store.event(tx, id, { action: 'voided', actor: actorName(t.claims), detail: change.voidReason ?? null });
        await publishSignatureChange(tx, this.#store, t.shortName, id, 'voided', { id: actorId(t.claims), name: actorName(t.claims) });
      });
      return this.get(t, id);
    }
    if (current.status !== 'draft') throw new Conflict(SIGNATURE_MESSAGES.notDraft);
    if (change.reportTypeId) await this.#directory.reportType(t, change.reportTypeId);
    const identity = change.identity ?? current.identity;
    this.#identityAvailable(identity);
    const signers = change.signers ? await this.#signers(t, current.clientId, change.signers, identity, current.signers.map((s) => ({ role: s.role, order: s.order }))) : null;
    if (!signers && change.identity === 'knowledge' && current.signers.some((s) => s.knowledgeQuestions === 0)) throw new Invalid(SIGNATURE_MESSAGES.knowledgeNeeded);
    // undefined: unchanged; null: filed released; an id: checked again.
    const releaseOnPayment = typeof change.releaseOnPaymentOf === 'number' ? await this.#releaseInvoice(t, current.clientId, change.releaseOnPaymentOf) : change.releaseOnPaymentOf;
    const documents = change.documents ? await this.#documents.fetch(t, current.clientId, change.documents.map((d) => d.fileId)) : null;
    const docsForCheck = documents ?? (await this.#store.documents(t.db, id));
    const fields = change.fields || documents || signers
      ? checkFields(change.fields ?? current.fields, docsForCheck, signers?.length ?? current.signers.length)
      : undefined;
    await t.db.transaction(async (tx) => {
      if (await this.#store.lock(tx, id) !== 'draft') throw new Conflict(SIGNATURE_MESSAGES.notDraft);
      await this.#store.updateRequest(tx, id, {
        title: change.title, message: change.message, due_date: change.dueDate, reminder_every_days: change.reminderEveryDays,
        report_type_id: change.reportTypeId, tracker_item_id: change.trackerItemId, identity: change.identity, fields,
        release_on_payment_of: releaseOnPayment === undefined ? undefined : (releaseOnPayment?.invoiceId ?? null),
        release_invoice_number: releaseOnPayment === undefined ? undefined : (releaseOnPayment?.invoiceNumber ?? null),
      });
      await this.#store.replaceParts(tx, id, documents, signers);
      await this.#store.event(tx, id, { action: 'edited', actor: actorName(t.claims) });
    });
    return this.get(t, id);
  }

  /**
   * A signed document released on payment (issue 43): holding a document until payment is the
   * Admin's, as for files; the invoice must be a sent, unpaid one of the request's client.
   */
  async #releaseInvoice(t: TenantRequest, clientId: number, invoiceId: number): Promise<{ invoiceId: number; invoiceNumber: string }> {
    if (!t.scope.isAdmin) throw new Forbidden(SIGNATURE_MESSAGES.adminsOnlyRelease);
    return this.#invoices.check(t, clientId, invoiceId);
  }

  async delete(t: TenantRequest, id: number): Promise<{ message: string }> {
    requireStaff(t.scope);
    const current = await this.get(t, id);
    if (current.status === 'sent' || current.status === 'completed') throw new Conflict(SIGNATURE_MESSAGES.cannotDelete);
    await t.db.transaction((tx) => this.#store.delete(tx, id));
    return { message: SIGNATURE_MESSAGES.deleted };
  }

  async send(t: TenantRequest, id: number): Promise<{ message: string }> {
    requireStaff(t.scope);
    const current = await this.get(t, id);
    if (current.status !== 'draft') throw new Conflict(SIGNATURE_MESSAGES.notDraft);
    this.#identityAvailable(current.identity);
    for (const s of current.signers) {
      if (!current.fields.some((f) => f.signerIndex === s.index && f.type === 'signature')) throw new Invalid(`${SIGNATURE_MESSAGES.noFieldsForSigner} (${s.name})`);
    }
    const firmName = await this.#firmName(t.shortName);
    await t.db.transaction(async (tx) => {
      if (await this.#store.lock(tx, id) !== 'draft') throw new Conflict(SIGNATURE_MESSAGES.notDraft);
      await this.#store.updateRequest(tx, id, { status: 'sent', sent_at: new Date() });
      await this.#store.event(tx, id, { action: 'sent', actor: actorName(t.claims) });
      await publishSignatureChange(tx, this.#store, t.shortName, id, 'sent', { id: actorId(t.claims), name: actorName(t.claims) });
      await this.#notices.notifyDue(tx, t.shortName, id, false, firmName);
      await this.#reminders.arm(tx, { name: firmName, timeZone: t.timeZone }, current);
    });
    return { message: SIGNATURE_MESSAGES.sent };
  }

  async remind(t: TenantRequest, id: number): Promise<{ message: string }> {
    requireStaff(t.scope);
    const current = await this.get(t, id);
    if (current.status !== 'sent') throw new Conflict(SIGNATURE_MESSAGES.notSent);
    const firmName = await this.#firmName(t.shortName);
    await t.db.transaction(async (tx) => {
      await this.#store.event(tx, id, { action: 'reminded', actor: actorName(t.claims) });
      await this.#notices.notifyDue(tx, t.shortName, id, true, firmName);
    });
    return { message: SIGNATURE_MESSAGES.reminded };
  }

  /** The document a request from a template would sign, for a client within reach and these merge values (a letter rendered, or the template's PDF). */
  async previewTemplate(t: TenantRequest, templateId: number, input: { clientId: number; title: string | null; mergeValues?: Record<string, string | number> | undefined }): Promise<{ name: string; content: Buffer }> {
    requireStaff(t.scope);
    const client = await this.#directory.client(t, input.clientId);
    const template = await this.#templates.get(t, templateId);
    const parts = await this.#templates.partsFor(t, templateId, {
      title: input.title ?? template.name, hasDocuments: false, mergeValues: input.mergeValues ?? {}, roles: () => null, facts: () => this.#letterFacts(t, client.id),
    });
    const document = parts.documents?.[0];
    if (!document) throw new Invalid(SIGNATURE_MESSAGES.documentsNeeded);
    return { name: document.name, content: document.content };
  }

  /** The merge fields the portal fills for a letter: the client's name and address, the firm, today in its zone, its currency. */
  async #letterFacts(t: TenantRequest, clientId: number): Promise<LetterFacts> {
    const [client, firm] = await Promise.all([this.#directory.clientRecord(t, clientId), this.#firm(t.shortName)]);
    return { clientName: client.name, clientAddress: client.address ?? '', ...firm };
  }

  #identityAvailable(identity: IdentityMethod): void {
    if (identity === 'provider' && !this.#provider) throw new Conflict(SIGNATURE_MESSAGES.providerUnavailable);
  }

  /** Signers as stored: a Client user of this client by id (their name and address from identity's events), or a name and address. */
  async #signers(t: TenantRequest, clientId: number, input: readonly SignerInput[], identity: IdentityMethod, saved: readonly { role: string; order: number }[]): Promise<NewSigner[]> {
    const out: NewSigner[] = [];
    for (const [i, given] of input.entries()) {
      // A template (or, editing a draft, the signer there before) names the role and order when the input does not.
      const role = given.role ?? saved[i]?.role;
      if (!role) throw new Invalid(SIGNATURE_MESSAGES.roleNeeded);
      const s = { ...given, role, order: given.order ?? saved[i]?.order ?? 1 };
      if (identity === 'knowledge' && !s.knowledge?.length) throw new Invalid(SIGNATURE_MESSAGES.knowledgeNeeded);
      const knowledge = (s.knowledge ?? []).map((k) => ({ question: k.question, answerHash: this.#hasher.hash('answer', k.answer) }));
      if (s.userId) {
        const user = await this.#clientUser(t.db, clientId, s.userId);
        out.push({ userId: s.userId, name: s.name ?? user.name, email: s.email ?? user.email, role: s.role, order: s.order, knowledge });
      } else {
        if (!s.name || !s.email) throw new Invalid(SIGNATURE_MESSAGES.signerNeedsUserOrEmail);
        out.push({ userId: null, name: s.name, email: s.email, role: s.role, order: s.order, knowledge });
      }
    }
    return out;
  }

  async #clientUser(db: SchemaDb, clientId: number, userId: number): Promise<{ name: string; email: string }> {
    const access = await this.#users.lookup(db, userId);
    const mailbox = await this.#users.mailbox(db, userId);
    const name = (await this.#users.names(db, [userId])).get(userId);
    if (!access || access === 'deleted' || !roleIs(access.role, ROLES.client) || access.clientIds[0] !== clientId || !mailbox?.to || !name) {
      throw new Invalid(SIGNATURE_MESSAGES.signerNotClientUser);
    }
    return { name: name.fullName || name.username, email: mailbox.to };
  }
}

/** Fields numbered, each on an existing page of an existing document and for an existing signer. */
export function checkFields(fields: readonly FieldInput[], documents: readonly Pick<StoredDocument, 'pages'>[], signerCount: number): SignatureField[] {
  return fields.map((f, index) => {
    const page = documents[f.documentIndex]?.pages[f.page - 1];
    if (!page || !fitsPage(f, page)) throw new Invalid(`${SIGNATURE_MESSAGES.fieldOutsidePage} (field ${index})`);
    if (f.signerIndex >= signerCount) throw new Invalid(`${SIGNATURE_MESSAGES.fieldSigner} (field ${index})`);
    return { ...f, index };
  });
}
