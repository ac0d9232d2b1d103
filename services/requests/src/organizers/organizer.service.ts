import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import { FIRM_COUNTRY_FACTS } from '@ledgerline/contracts/firm-country.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import type { SecretBox } from '@ledgerline/kit/crypto/secret-box.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Conflict, Gone, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { SchemaDb } from '@ledgerline/kit/db/database.ts';
import type { RequestLink } from '@ledgerline/contracts/requests.contracts.ts';
import type { IncomingMessage } from 'node:http';
import type { ReportForwarder } from '@ledgerline/kit/files/report-forwarder.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  ORGANIZER_EVENTS, ORGANIZER_LINK_MESSAGES, ORGANIZER_MESSAGES, ORGANIZER_PUBLIC_PAGE_PREFIX, organizerUploadFieldsSchema,
  type CreatedOrganizerLink, type OrganizerFileAnswer, type PublicOrganizer,
  type OrganizerAnswers, type OrganizerChanged, type OrganizerDetail, type OrganizerInput, type OrganizerListQuery, type OrganizerSummary,
  type OrganizerTemplate, type OrganizerTemplateInput, type OrganizerUpdate,
} from '@ledgerline/contracts/organizers.contracts.ts';
import { requireStaff, requireTemplateManager } from '../access-rules.ts';
import type { Firm } from '../requests/request-reminders.ts';
import type { RequestService } from '../requests/request.service.ts';
import type { RequestLinkMaker } from '../requests/request-links.ts';
import { assertOrganizerReach, reachesTemplate } from './organizer-access.ts';
import { answerProgress, checkAnswerShape, fileAnswerKeys, mergeSensitive, missingAnswers, prefillFrom, requestItemsCalledFor, splitSensitive } from './organizer-answers.ts';
import { renderOrganizerPdf } from './organizer-pdf.ts';
import type { OrganizerReminders } from './organizer-reminders.ts';
import type { OrganizerStore, StoredOrganizer } from './organizer.store.ts';

const OPEN_FOR_ANSWERS = new Set(['draft', 'sent', 'in_progress']);

/** An organizer opened through a live link. */
export interface OrganizerLinkContext { firm: Firm; db: SchemaDb; organizer: StoredOrganizer; recipient: string | null }

/**
 * The rules of organizers (issue 42): templates, who may do what, answers saved as the client
 * types (sensitive ones sealed), and what a submission makes — the answers' PDF filed as a
 * report of the client, and the document request items the answers call for.
 */
export class OrganizerService {
  readonly #store: OrganizerStore;
  readonly #requests: RequestService;
  readonly #reminders: OrganizerReminders;
  readonly #directory: DirectoryLookup;
  readonly #files: ReportForwarder;
  readonly #box: SecretBox;
  readonly #firm: (shortName: string) => Promise<Firm>;
  readonly #links: RequestLinkMaker;

  constructor(deps: {
    store: OrganizerStore; requests: RequestService; reminders: OrganizerReminders; directory: DirectoryLookup; files: ReportForwarder; box: SecretBox;
    firm: (shortName: string) => Promise<Firm>; links: RequestLinkMaker;
  }) {
    this.#links = deps.links;
    this.#store = deps.store;
    this.#requests = deps.requests;
    this.#reminders = deps.reminders;
    this.#directory = deps.directory;
    this.#files = deps.files;
    this.#box = deps.box;
    this.#firm = deps.firm;
  }

  // Templates

  async templates(t: TenantRequest): Promise<OrganizerTemplate[]> {
    requireStaff(t.scope);
    return (await this.#store.templates(t.db)).filter((x) => reachesTemplate(t.scope, x));
  }

  async template(t: TenantRequest, id: number): Promise<OrganizerTemplate> {
    requireStaff(t.scope);
    const template = await this.#store.template(t.db, id);
    if (!template || !reachesTemplate(t.scope, template)) throw new NotFound(ORGANIZER_MESSAGES.templateNotFound);
    return template;
  }

  async saveTemplate(t: TenantRequest, input: OrganizerTemplateInput, id?: number): Promise<OrganizerTemplate> {
    requireTemplateManager(t.scope);
    if (input.reportTypeId) await this.#directory.reportType(t, input.reportTypeId);
    if (id !== undefined) await this.#editable(t, id);
    const saved = await this.#store.saveTemplate(t.db, input, id);
    return (await this.#store.template(t.db, saved!))!;
  }

  async deleteTemplate(t: TenantRequest, id: number): Promise<{ message: string }> {
    requireTemplateManager(t.scope);
    await this.#editable(t, id);
    if (await this.#store.templateInUse(t.db, id)) throw new Conflict(ORGANIZER_MESSAGES.templateInUse);
    await this.#store.deleteTemplate(t.db, id);
    return { message: ORGANIZER_MESSAGES.templateDeleted };
  }

  async #editable(t: TenantRequest, id: number): Promise<void> {
    const template = await this.#store.template(t.db, id);
    if (!template) throw new NotFound(ORGANIZER_MESSAGES.templateNotFound);
    if (template.builtIn) throw new Conflict(ORGANIZER_MESSAGES.builtInReadOnly);
  }

  // Organizers

  async list(t: TenantRequest, query: OrganizerListQuery): Promise<OrganizerSummary[]> {
    const rows = await this.#store.list(t.db, t.scope, query);
    return rows.map(summaryOf);
  }

  async get(t: TenantRequest, id: number): Promise<OrganizerDetail> {
    return this.#detail(t.shortName, await this.#reached(t, id));
  }

  /** Made by staff who reach the client (and the report type); with sendNow, sent at once. Last year's answers come along. */
  async create(t: TenantRequest, input: OrganizerInput, trackerItemId: number | null = input.trackerItemId ?? null): Promise<OrganizerDetail> {
    requireStaff(t.scope);
    const client = await this.#directory.client(t, input.clientId);
    const template = await this.#store.template(t.db, input.templateId);
    if (!template || !reachesTemplate(t.scope, template)) throw new NotFound(ORGANIZER_MESSAGES.templateNotFound);
    const reportTypeId = input.reportTypeId ?? template.reportTypeId ?? null;
    if (reportTypeId) await this.#directory.reportType(t, reportTypeId);
    const previous = await this.#store.previous(t.db, { clientId: client.id, templateId: template.id, builtIn: template.builtIn, year: input.year - 1 });
    const answers = previous ? prefillFrom(template.sections, this.#answersOf(t.shortName, previous)) : {};
    const firm = await this.#firm(t.shortName);
    const id = await t.db.transaction(async (tx) => {
      const organizerId = await this.#store.insert(tx, {
        clientId: client.id, clientName: client.name, templateId: template.id, templateName: template.name, builtIn: template.builtIn, year: input.year,
        title: input.title ?? `${template.name} — ${input.year}`, message: input.message, dueDate: input.dueDate, reminderEveryDays: input.reminderEveryDays,
        reportTypeId, trackerItemId, sections: template.sections, prefilledFromId: previous?.id ?? null,
        createdById: actorId(t.claims), createdByName: actorName(t.claims),
      }, {}, null, answerProgress(template.sections, answers));
      if (!organizerId) throw new Conflict(ORGANIZER_MESSAGES.alreadyExists);
      // The sealed answers are bound to the organizer's id: written once the id exists.
      if (Object.keys(answers).length) await this.#writeAnswers(tx, t.shortName, organizerId, template.sections, answers);
      if (input.sendNow) await this.#send(tx, firm, t, (await this.#store.find(tx, organizerId))!);
      return organizerId;
    });
    return this.get(t, id);
  }

  async update(t: TenantRequest, id: number, change: OrganizerUpdate): Promise<OrganizerDetail> {
    requireStaff(t.scope);
    await this.#reached(t, id);
    const firm = await this.#firm(t.shortName);
    await t.db.transaction(async (tx) => {
      const locked = (await this.#store.find(tx, id, true))!;
      if (change.status === 'sent' && locked.status !== 'draft') throw new Conflict('Only a draft organizer can be sent.');
      if (change.status === 'reviewed' && locked.status !== 'submitted') throw new Conflict(ORGANIZER_MESSAGES.notSubmitted);
      await this.#store.update(tx, id, {
        title: change.title ?? undefined, message: change.message, dueDate: change.dueDate, reminderEveryDays: change.reminderEveryDays,
        ...(change.status === 'reviewed' ? { status: 'reviewed' as const, reviewedAt: 'now' as const } : {}),
      });
      const now = (await this.#store.find(tx, id))!;
      if (change.status === 'sent') await this.#send(tx, firm, t, now);
      else if (change.status === 'reviewed') await this.#event(tx, t.shortName, ORGANIZER_EVENTS.reviewed, now, this.#actor(t));
      else if (now.status === 'sent' || now.status === 'in_progress') await this.#reminders.arm(tx, firm, now);
    });
    return this.get(t, id);
  }

  /** Saves the answers as they are now (the whole set; partial is fine): a sent organizer is then in progress. */
  async saveAnswers(t: TenantRequest, id: number, answers: OrganizerAnswers): Promise<OrganizerDetail> {
    await this.#reached(t, id);
    await this.#saveAnswers(t.db, t.shortName, id, answers);
    return this.get(t, id);
  }

  /** A file question's upload by whoever answers (multipart: `questionId`, then `file`): filed as a report of the client. */
  async uploadFile(t: TenantRequest, id: number, req: IncomingMessage): Promise<OrganizerFileAnswer> {
    return this.#uploadFile(t.db, t.shortName, await this.#reached(t, id), req, this.#actor(t));
  }

  async submit(t: TenantRequest, id: number): Promise<OrganizerDetail> {
    const organizer = await this.#reached(t, id);
    await this.#submit(t.db, t.shortName, organizer, this.#actor(t));
    return this.get(t, id);
  }

  async reopen(t: TenantRequest, id: number): Promise<OrganizerDetail> {
    requireStaff(t.scope);
    await this.#reached(t, id);
    const firm = await this.#firm(t.shortName);
    await t.db.transaction(async (tx) => {
      const locked = (await this.#store.find(tx, id, true))!;
      if (locked.status !== 'submitted' && locked.status !== 'reviewed') throw new Conflict(ORGANIZER_MESSAGES.notSubmitted);
      await this.#store.update(tx, id, { status: 'in_progress', submittedAt: null, reviewedAt: null });
      const now = (await this.#store.find(tx, id))!;
      await this.#reminders.arm(tx, firm, now);
      await this.#event(tx, t.shortName, ORGANIZER_EVENTS.reopened, now, this.#actor(t));
    });
    return this.get(t, id);
  }

  // Links (people without an account)

  /** A link to answer the organizer without an account (staff who reach it; once sent); with email, it is sent there. The URL is shown only now. */
  async createLink(t: TenantRequest, id: number, input: { email?: string | null; expiresInDays?: number | null }): Promise<CreatedOrganizerLink> {
    requireStaff(t.scope);
    const organizer = await this.#reached(t, id);
    if (organizer.status !== 'sent' && organizer.status !== 'in_progress') throw new Conflict('Send the organizer first; a submitted one needs reopening.');
    const firm = await this.#firm(t.shortName);
    const expiresAt = this.#links.expiry(firm, organizer.dueDate, input.expiresInDays);
    const link = await t.db.transaction(async (tx) => {
      const link = await this.#links.mintIn(tx, this.#store.links, ORGANIZER_PUBLIC_PAGE_PREFIX, firm, { ownerId: id, createdById: actorId(t.claims) }, input.email ?? null, expiresAt);
      if (input.email) await this.#reminders.mailLink(tx, firm, organizer, input.email, link);
      return link;
    });
    return { id: link.id, url: link.url, expiresAt: link.expiresAt.toISOString() };
  }

  async links(t: TenantRequest, id: number): Promise<RequestLink[]> {
    requireStaff(t.scope);
    await this.#reached(t, id);
    return this.#store.links.list(t.db, id);
  }

  /** The link no longer opens the organizer (410, as an expired one). */
  async revokeLink(t: TenantRequest, id: number, linkId: number): Promise<{ message: string }> {
    requireStaff(t.scope);
    const organizer = await this.#reached(t, id);
    await t.db.transaction(async (tx) => {
      if (!await this.#store.links.revoke(tx, id, linkId)) throw new NotFound(ORGANIZER_LINK_MESSAGES.linkNotFound);
      await this.#event(tx, t.shortName, ORGANIZER_EVENTS.linkRevoked, organizer, this.#actor(t));
    });
    return { message: ORGANIZER_LINK_MESSAGES.linkRevoked };
  }

  async byLink(db: (shortName: string) => Promise<{ db: SchemaDb }>, token: string): Promise<OrganizerLinkContext> {
    const found = await this.#store.links.find(db, token);
    if (!found) throw new NotFound(ORGANIZER_LINK_MESSAGES.linkNotFound);
    if (!found.link.live) throw new Gone(ORGANIZER_LINK_MESSAGES.linkGone);
    const organizer = (await this.#store.find(found.db, found.link.ownerId))!;
    if (!OPEN_FOR_ANSWERS.has(organizer.status) || organizer.status === 'draft') throw new Gone(ORGANIZER_LINK_MESSAGES.organizerDone);
    return { firm: await this.#firm(found.shortName), db: found.db, organizer, recipient: found.link.email };
  }

  /** The organizer as the link's holder answers it: its questions and answers (sensitive ones whole: they are the holder's own), the firm's name. */
  async presentPublic(link: OrganizerLinkContext): Promise<PublicOrganizer> {
    const organizer = (await this.#store.find(link.db, link.organizer.id))!;
    return { ...(await this.#detail(link.firm.shortName, organizer)), firmName: link.firm.name };
  }

  async saveAnswersByLink(link: OrganizerLinkContext, answers: OrganizerAnswers): Promise<PublicOrganizer> {
    await this.#saveAnswers(link.db, link.firm.shortName, link.organizer.id, answers);
    return this.presentPublic(link);
  }

  async uploadFileByLink(link: OrganizerLinkContext, req: IncomingMessage): Promise<OrganizerFileAnswer> {
    return this.#uploadFile(link.db, link.firm.shortName, link.organizer, req, linkActor(link));
  }

  async submitByLink(link: OrganizerLinkContext): Promise<PublicOrganizer> {
    await this.#submit(link.db, link.firm.shortName, link.organizer, linkActor(link));
    return this.presentPublic(link);
  }

  // Internals

  async #reached(t: TenantRequest, id: number): Promise<StoredOrganizer> {
    const organizer = await this.#store.find(t.db, id);
    if (!organizer) throw new NotFound(ORGANIZER_MESSAGES.organizerNotFound);
    assertOrganizerReach(t.scope, organizer);
    return organizer;
  }

  async #detail(shortName: string, o: StoredOrganizer): Promise<OrganizerDetail> {
    const firm = await this.#firm(shortName);
    return {
      ...summaryOf(o), message: o.message, reminderEveryDays: o.reminderEveryDays, sections: o.sections,
      answers: this.#answersOf(shortName, o), prefilledFromId: o.prefilledFromId, currency: FIRM_COUNTRY_FACTS[firm.country]?.currency ?? null,
    };
  }

  /** The whole answers: the plain ones with the sealed ones merged back. */
  #answersOf(shortName: string, o: StoredOrganizer): OrganizerAnswers {
    if (!o.sealedAnswers) return o.answers;
    return mergeSensitive(o.answers, JSON.parse(this.#box.open(o.sealedAnswers, sealContext(shortName, o.id))) as OrganizerAnswers);
  }

  async #writeAnswers(tx: Queryable, shortName: string, id: number, sections: StoredOrganizer['sections'], answers: OrganizerAnswers): Promise<void> {
    const { plain, sensitive } = splitSensitive(sections, answers);
    const sealed = Object.keys(sensitive).length ? this.#box.seal(JSON.stringify(sensitive), sealContext(shortName, id)) : null;
    await this.#store.update(tx, id, { answers: plain, sealed, ...answerProgress(sections, answers) });
  }

  async #saveAnswers(db: TenantRequest['db'], shortName: string, id: number, answers: OrganizerAnswers): Promise<void> {
    await db.transaction(async (tx) => {
      const locked = (await this.#store.find(tx, id, true))!;
      if (!OPEN_FOR_ANSWERS.has(locked.status)) throw new Conflict(ORGANIZER_MESSAGES.notOpenForAnswers);
      checkAnswerShape(locked.sections, answers);
      const named = fileAnswerKeys(locked.sections, answers);
      if (named.length) {
        const uploaded = await this.#store.uploadedFiles(tx, id);
        if (named.some((key) => !uploaded.has(key))) throw new Invalid(ORGANIZER_MESSAGES.fileNotUploaded);
      }
      await this.#writeAnswers(tx, shortName, id, locked.sections, answers);
      if (locked.status === 'sent') await this.#store.update(tx, id, { status: 'in_progress' });
    });
  }

  /**
   * The upload goes to the files service as document request items' uploads do (the kit's
   * forwarder: the same types, size limits and checks), as a report of the client with the
   * organizer's report type; the organizer keeps its id so an answer can name it.
   */
  async #uploadFile(db: SchemaDb, shortName: string, organizer: StoredOrganizer, req: IncomingMessage, actor: { actorId: number; actorName: string }): Promise<OrganizerFileAnswer> {
    if (!OPEN_FOR_ANSWERS.has(organizer.status)) throw new Conflict(ORGANIZER_MESSAGES.notOpenForAnswers);
    const fileQuestions = new Set(organizer.sections.flatMap((s) => s.questions.filter((q) => q.type === 'file').map((q) => q.id)));
    let questionId = '';
    const stored = await this.#files.forwardFormFile(req, (fields) => {
      const parsed = organizerUploadFieldsSchema.safeParse(fields);
      if (!parsed.success || !fileQuestions.has(parsed.data.questionId)) throw new Invalid(ORGANIZER_MESSAGES.notAFileQuestion);
      questionId = parsed.data.questionId;
    }, { t: shortName, c: organizer.clientId, r: organizer.reportTypeId, u: actor.actorId, n: actor.actorName });
    await this.#store.addFile(db, { organizerId: organizer.id, questionId, fileId: stored.fileId, name: stored.fileName });
    return { fileId: stored.fileId, name: stored.fileName };
  }

  async #submit(db: TenantRequest['db'], shortName: string, organizer: StoredOrganizer, actor: { actorId: number; actorName: string }): Promise<void> {
    if (!OPEN_FOR_ANSWERS.has(organizer.status)) throw new Conflict(ORGANIZER_MESSAGES.notOpenForAnswers);
    const answers = this.#answersOf(shortName, organizer);
    const missing = missingAnswers(organizer.sections, answers);
    if (missing.length) throw new Invalid(`${ORGANIZER_MESSAGES.incomplete} Still to answer: ${missing.join('; ')}`, { missing });
    const firm = await this.#firm(shortName);
    const currency = FIRM_COUNTRY_FACTS[firm.country]?.currency ?? null;
    const pdf = await renderOrganizerPdf({
      firmName: firm.name, clientName: organizer.clientName, title: organizer.title, year: organizer.year, currency,
      submittedOn: clientDate(todayIn(firm.timeZone), firm.country), sections: organizer.sections, answers,
    });
    // Filed as a report of the client (stored, extracted, searchable) before the organizer is marked submitted.
    const file = await this.#files.forwardFile(
      { name: `${organizer.title.replace(/[^\w .,()-]+/g, ' ').trim() || 'Organizer'}.pdf`, type: 'application/pdf', bytes: pdf },
      { t: shortName, c: organizer.clientId, r: organizer.reportTypeId, u: organizer.createdById, n: actor.actorName },
    );
    await db.transaction(async (tx) => {
      const locked = (await this.#store.find(tx, organizer.id, true))!;
      if (!OPEN_FOR_ANSWERS.has(locked.status)) throw new Conflict(ORGANIZER_MESSAGES.notOpenForAnswers);
      if (locked.updatedAt !== organizer.updatedAt) throw new Conflict('The answers changed while submitting: please submit again.');
      const requestId = await this.#requests.addOrganizerItems(tx, firm, locked, requestItemsCalledFor(locked.sections, answers), actor);
      await this.#store.update(tx, organizer.id, { status: 'submitted', submittedAt: 'now', reportFileId: file.fileId, requestId: requestId ?? locked.requestId });
      await this.#reminders.disarm(tx, organizer.id);
      const documentsOutstanding = locked.trackerItemId !== null && await this.#store.documentsOutstanding(tx, locked.trackerItemId);
      await this.#event(tx, shortName, ORGANIZER_EVENTS.submitted, (await this.#store.find(tx, organizer.id))!, actor, { documentsOutstanding });
    });
  }

  async #send(tx: Queryable, firm: Firm, t: TenantRequest, o: StoredOrganizer): Promise<void> {
    await this.#store.update(tx, o.id, { status: 'sent', sentAt: 'now' });
    await this.#reminders.notify(tx, firm, o, 'sent');
    await this.#reminders.arm(tx, firm, o);
    await this.#event(tx, t.shortName, ORGANIZER_EVENTS.sent, { ...o, status: 'sent' }, this.#actor(t));
  }

  async #event(tx: Queryable, shortName: string, type: string, o: StoredOrganizer, actor: { actorId: number; actorName: string }, extra: Pick<OrganizerChanged, 'documentsOutstanding'> = {}): Promise<void> {
    await enqueueEvents(tx, [newEvent<OrganizerChanged>(type, shortName, {
      organizerId: o.id, clientId: o.clientId, clientName: o.clientName, title: o.title, year: o.year, status: o.status,
      reportTypeId: o.reportTypeId, trackerItemId: o.trackerItemId, requestId: o.requestId, ...extra, ...actor,
    })]);
  }

  #actor(t: TenantRequest): { actorId: number; actorName: string } {
    return { actorId: actorId(t.claims), actorName: actorName(t.claims) };
  }
}

/** A person holding a link has no account: the organizer's maker is recorded as who let them in, the name says it came by link. */
const linkActor = (link: OrganizerLinkContext): { actorId: number; actorName: string } => ({
  actorId: link.organizer.createdById, actorName: `${link.organizer.clientName} (organizer link${link.recipient ? ` sent to ${link.recipient}` : ''})`,
});

/** A sealed answer set opens only for its own organizer in its own firm (SecretBox's associated data). */
const sealContext = (shortName: string, id: number): string => `organizer-answers:${shortName}:${id}`;

function summaryOf(o: StoredOrganizer): OrganizerSummary {
  return {
    id: o.id, clientId: o.clientId, clientName: o.clientName, templateId: o.templateId, templateName: o.templateName, year: o.year, title: o.title,
    status: o.status, dueDate: o.dueDate, reportTypeId: o.reportTypeId, trackerItemId: o.trackerItemId, requestId: o.requestId, reportFileId: o.reportFileId,
    answeredCount: o.answeredCount, questionCount: o.questionCount, sentAt: o.sentAt, submittedAt: o.submittedAt, reviewedAt: o.reviewedAt, updatedAt: o.updatedAt,
  };
}
