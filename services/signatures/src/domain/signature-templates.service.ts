import { actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { canReadReportType, type AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Forbidden, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  SIGNATURE_MESSAGES, type FieldInput, type SignatureTemplate, type SignatureTemplateInput,
} from '@ledgerline/contracts/signatures.contracts.ts';
import type { SignatureTemplateStore } from '../store/signature-template.store.ts';
import type { StoredDocument } from '../store/signature.store.ts';
import { requireStaff } from './access-rules.ts';
import type { DocumentSource } from './document-source.ts';
import { mergeValuesFor, renderLetter, type LetterFacts } from './letter-renderer.ts';
import { checkFields } from './signature.service.ts';

/** Admin and DTA (every client) manage templates, like document request templates; other staff use them. */
const canManage = (scope: AccessScope): boolean => !scope.isClient && scope.clients === 'all';
/** A template without a report type serves every report type; one with a report type only staff who reach it. */
const reachesTemplate = (scope: AccessScope, t: Pick<SignatureTemplate, 'reportTypeId'>): boolean => t.reportTypeId === null || canReadReportType(scope, t.reportTypeId);

/** What a template gives a new request: its documents (when it brings them), fields and signer roles. */
export interface TemplateParts { documents: StoredDocument[] | null; fields: FieldInput[]; signers: { role: string; order: number }[] }

/** Signature templates (issue 41): engagement letters and saved placements of forms. */
export class SignatureTemplates {
  readonly #store: SignatureTemplateStore;
  readonly #documents: DocumentSource;
  readonly #directory: DirectoryLookup;

  constructor(deps: { store: SignatureTemplateStore; documents: DocumentSource; directory: DirectoryLookup }) {
    this.#store = deps.store;
    this.#documents = deps.documents;
    this.#directory = deps.directory;
  }

  list(t: TenantRequest): Promise<SignatureTemplate[]> {
    requireStaff(t.scope);
    return this.#store.list(t.db, t.scope.reportTypes);
  }

  async get(t: TenantRequest, id: number): Promise<SignatureTemplate> {
    requireStaff(t.scope);
    const found = await this.#store.find(t.db, id);
    if (!found || !reachesTemplate(t.scope, found)) throw new NotFound(SIGNATURE_MESSAGES.templateNotFound);
    return found;
  }

  async create(t: TenantRequest, input: SignatureTemplateInput): Promise<SignatureTemplate> {
    this.#requireManager(t.scope);
    const document = await this.#checked(t, input);
    const id = await this.#store.insert(t.db, { ...this.#record(input), document }, actorName(t.claims));
    return this.get(t, id);
  }

  async update(t: TenantRequest, id: number, input: SignatureTemplateInput): Promise<SignatureTemplate> {
    this.#requireManager(t.scope);
    const current = await this.get(t, id);
    // The same file again keeps the copy saved before (the file may have changed or gone since).
    const keep = input.fileId && input.fileId === current.fileId;
    const document = keep ? await this.#store.document(t.db, id) : await this.#checked(t, input);
    if (keep) {
      if (input.reportTypeId) await this.#directory.reportType(t, input.reportTypeId);
      this.#fieldsFit(input, document);
    }
    await this.#store.update(t.db, id, { ...this.#record(input), document: keep ? undefined : document });
    return this.get(t, id);
  }

  async delete(t: TenantRequest, id: number): Promise<{ message: string }> {
    this.#requireManager(t.scope);
    await this.get(t, id);
    await this.#store.delete(t.db, id);
    return { message: SIGNATURE_MESSAGES.templateDeleted };
  }

  /**
   * A request's parts from a template: a letter body rendered with the merge values, the
   * template's PDF, or (a form placement without a PDF) only the fields for the uploaded form.
   */
  async partsFor(t: TenantRequest, id: number, request: { title: string; hasDocuments: boolean; mergeValues: Readonly<Record<string, string | number>>; roles: (index: number) => string | null; facts: () => Promise<LetterFacts> }): Promise<TemplateParts> {
    const template = await this.get(t, id);
    if (template.body) {
      if (request.hasDocuments) throw new Invalid('A letter template makes its own document: leave documents out.');
      const facts = await request.facts();
      const values = mergeValuesFor(template.body, facts, request.mergeValues);
      const roles = template.signers.map((s, i) => request.roles(i) ?? s.role);
      const letter = await renderLetter({ title: request.title, body: template.body, values, roles });
      return { documents: [letter.document], fields: letter.fields, signers: template.signers };
    }
    const unknown = Object.keys(request.mergeValues);
    if (unknown.length) throw new Invalid(`${SIGNATURE_MESSAGES.unknownMergeFields}: ${unknown.join(', ')} (this template has no letter body)`);
    const pdf = request.hasDocuments ? null : await this.#store.document(t.db, id);
    if (!request.hasDocuments && !pdf) throw new Invalid(`${SIGNATURE_MESSAGES.documentsNeeded}: this template saves a placement for an uploaded form`);
    return { documents: pdf ? [pdf] : null, fields: template.fields, signers: template.signers };
  }

  #requireManager(scope: AccessScope): void {
    if (!canManage(scope)) throw new Forbidden(SIGNATURE_MESSAGES.templatesDenied);
  }

  #record(input: SignatureTemplateInput) {
    return { name: input.name, reportTypeId: input.reportTypeId ?? null, kind: input.kind, body: input.body, signers: input.signers, fields: input.fields };
  }

  async #checked(t: TenantRequest, input: SignatureTemplateInput): Promise<StoredDocument | null> {
    if (input.reportTypeId) await this.#directory.reportType(t, input.reportTypeId);
    const document = input.fileId ? await this.#documents.firmDocument(t, input.fileId) : null;
    this.#fieldsFit(input, document);
    return document;
  }

  /** Fields on the template's own PDF must fit its pages; a form's placement is checked against each upload it is used on. */
  #fieldsFit(input: SignatureTemplateInput, document: StoredDocument | null): void {
    if (document) checkFields(input.fields, [document], input.signers.length);
  }
}
