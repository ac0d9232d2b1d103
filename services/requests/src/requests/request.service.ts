import type { IncomingMessage } from 'node:http';
import { actorId, actorName } from '@ledgerline/kit/auth/actor-id.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import type { Queryable, SchemaDb } from '@ledgerline/kit/db/database.ts';
import type { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { Conflict, Forbidden, Gone, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import { firmMail } from '@ledgerline/kit/mail/mail-templates.ts';
import { queueMail } from '@ledgerline/kit/mail/mail-job.ts';
import { requestNotifications } from '@ledgerline/kit/notifications/request-notification.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import {
  DOCUMENT_REQUEST_CHANGED, REQUEST_DEFAULTS, REQUEST_MESSAGES,
  type CreatedRequestLink, type DocumentRequest, type DocumentRequestChanged, type DocumentRequestSummary, type PublicDocumentRequest,
  type RequestInput, type RequestItem, type RequestItemValues, type RequestListQuery, type RequestUpdate,
} from '@ledgerline/contracts/requests.contracts.ts';
import { assertReach, requestSeenBy, requireStaff } from '../access-rules.ts';
import type { ReportForwarder } from '@ledgerline/kit/files/report-forwarder.ts';
import type { RequestLinkMaker } from './request-links.ts';
import type { Firm, RequestReminders } from './request-reminders.ts';
import type { NewItem, RequestStore } from './request.store.ts';


/** Who did something: a signed-in user, or a person holding a link. */
interface Actor { id: number; name: string; viaLink: boolean; address?: string; userAgent?: string }

/** A request opened through a live link. */
export interface LinkContext { firm: Firm; db: SchemaDb; request: DocumentRequest; recipient: string | null }

/**
 * A person holding a link has no account: the files service records the request's creator
 * as the uploader's id (who let them in), and the name says it came by link.
 */
const linkActor = (link: LinkContext): Actor => ({
  id: link.request.createdById, viaLink: true,
  name: `${link.request.clientName} (upload link${link.recipient ? ` sent to ${link.recipient}` : ''})`,
});


/**
 * The rules of document requests (issue 27): who may do what, item decisions, completion,
 * links; reminders are RequestReminders's.
 */
export class RequestService {
  readonly #store: RequestStore;
  readonly #directory: DirectoryLookup;
  readonly #jobs: JobQueue;
  readonly #reminders: RequestReminders;
  readonly #files: ReportForwarder;
  readonly #firm: (shortName: string) => Promise<Firm>;
  readonly #links: RequestLinkMaker;

  constructor(deps: { store: RequestStore; directory: DirectoryLookup; jobs: JobQueue; reminders: RequestReminders; files: ReportForwarder; firm: (shortName: string) => Promise<Firm>; links: RequestLinkMaker }) {
    this.#store = deps.store;
    this.#reminders = deps.reminders;
    this.#directory = deps.directory;
    this.#jobs = deps.jobs;
    this.#files = deps.files;
    this.#firm = deps.firm;
    this.#links = deps.links;
  }

  async list(t: TenantRequest, query: RequestListQuery): Promise<DocumentRequestSummary[]> {
    const overdueBefore = query.overdue === 'true' ? todayIn((await this.#firm(t.shortName)).timeZone) : undefined;
    return this.#store.list(t.db, t.scope, {
      limit: query.limit, offset: query.offset,
      ...(query.clientId ? { clientId: query.clientId } : {}), ...(query.status ? { status: query.status } : {}), ...(overdueBefore ? { overdueBefore } : {}),
    });
  }

  async get(t: TenantRequest, id: number): Promise<DocumentRequest> {
    const request = await this.#store.find(t.db, id);
    if (!request) throw new NotFound(REQUEST_MESSAGES.requestNotFound);
    assertReach(t.scope, request);
    return requestSeenBy(t.scope, request);
  }

  /** The request as it is now, as the caller sees it (after a change they made). */
  async #seen(t: TenantRequest, id: number): Promise<DocumentRequest> {
    return requestSeenBy(t.scope, (await this.#store.find(t.db, id))!);
  }

  async create(t: TenantRequest, input: RequestInput, trackerItemId: number | null = null): Promise<DocumentRequest> {
    requireStaff(t.scope);
    const client = await this.#directory.client(t, input.clientId);
    if (input.reportTypeId) await this.#directory.reportType(t, input.reportTypeId);
    let items: NewItem[];
    if (input.templateId) {
      const template = await this.#store.template(t.db, input.templateId);
      if (!template) throw new NotFound(REQUEST_MESSAGES.templateNotFound);
      items = template.items.map((i) => ({ title: i.title, description: i.description, required: i.required, reportTypeId: null }));
    } else {
      items = (input.items ?? []).map((i) => ({ title: i.title, description: i.description ?? null, required: i.required ?? true, reportTypeId: i.reportTypeId ?? null }));
    }
    for (const rt of new Set(items.map((i) => i.reportTypeId).filter((v): v is number => v !== null))) await this.#directory.reportType(t, rt);
    const reviewer = await this.#reviewer(t, input.assignedToId ?? null);
    const firm = await this.#firm(t.shortName);
    const id = await t.db.transaction(async (tx) => {
      const requestId = await this.#store.insert(tx, {
        clientId: client.id, clientName: client.name, title: input.title, message: input.message, dueDate: input.dueDate,
        reminderEveryDays: input.reminderEveryDays, reportTypeId: input.reportTypeId ?? null, trackerItemId,
        assignedToId: reviewer.id, assignedToName: reviewer.name, createdById: actorId(t.claims),
      }, items.map((i) => ({ ...i, reportTypeId: i.reportTypeId ?? input.reportTypeId ?? null })));
      await this.#reminders.arm(tx, firm, { id: requestId, dueDate: input.dueDate, reminderEveryDays: input.reminderEveryDays });
      await this.#event(tx, t.shortName, requestId, { action: 'created', ...this.#actorOf(t) });
      if (input.sendNow) await this.#reminders.chase(tx, firm, requestId, 'sent');
      return requestId;
    });
    return this.#seen(t, id);
  }

  async update(t: TenantRequest, id: number, change: RequestUpdate): Promise<DocumentRequest> {
    requireStaff(t.scope);
    const current = await this.get(t, id);
    const reviewer = change.assignedToId === undefined ? undefined : await this.#reviewer(t, change.assignedToId);
    if (change.status === 'open' && current.status === 'completed') throw new Conflict('A completed request cannot be reopened; create a new one.');
    const firm = await this.#firm(t.shortName);
    await t.db.transaction(async (tx) => {
      await this.#store.update(tx, id, {
        title: change.title, message: change.message, dueDate: change.dueDate, reminderEveryDays: change.reminderEveryDays, status: change.status,
        ...(reviewer ? { assignedToId: reviewer.id, assignedToName: reviewer.name } : {}),
      });
      const now = (await this.#store.summary(tx, id))!;
      if (now.status === 'open') await this.#reminders.arm(tx, firm, now);
      else await this.#reminders.disarm(tx, id);
      const action = change.status === 'cancelled' && current.status !== 'cancelled' ? 'cancelled' : change.status === 'open' && current.status === 'cancelled' ? 'reopened' : 'updated';
      await this.#event(tx, t.shortName, id, { action, ...this.#actorOf(t) });
    });
    return this.#seen(t, id);
  }

  async send(t: TenantRequest, id: number): Promise<{ message: string }> {
    requireStaff(t.scope);
    const request = await this.get(t, id);
    if (request.status !== 'open') throw new Conflict(REQUEST_MESSAGES.notOpen);
    const firm = await this.#firm(t.shortName);
    // Nothing goes out when nothing is still needed (all in and waiting for review).
    const sent = await t.db.transaction(async (tx) => {
      if (!await this.#reminders.chase(tx, firm, id, 'sent')) return false;
      await this.#event(tx, t.shortName, id, { action: 'sent', ...this.#actorOf(t) });
      return true;
    });
    return { message: sent ? REQUEST_MESSAGES.sent : REQUEST_MESSAGES.nothingToSend };
  }

  /**
   * The items a submitted organizer's answers call for (issue 42), within the organizer's
   * transaction: added to the client's open request for the same tracker item and report
   * type, else to a new one (assigned to whoever made the organizer), leaving out titles the
   * request already has. The client's users are told, and reminders run as for any request.
   * The request's id, or null when nothing was called for.
   */
  async addOrganizerItems(tx: Queryable, firm: Firm, organizer: {
    clientId: number; clientName: string; title: string; dueDate: string; reminderEveryDays: number; reportTypeId: number | null; trackerItemId: number | null;
    createdById: number; createdByName: string;
  }, items: readonly { title: string; description: string | null }[], actor: { actorId: number; actorName: string }): Promise<number | null> {
    if (!items.length) return null;
    const existing = await tx.query<{ id: number }>(
      `SELECT id FROM document_requests WHERE client_id = $1 AND status = 'open'
         AND tracker_item_id IS NOT DISTINCT FROM $2 AND report_type_id IS NOT DISTINCT FROM $3 ORDER BY id DESC LIMIT 1 FOR UPDATE`,
      [organizer.clientId, organizer.trackerItemId, organizer.reportTypeId]);
    const newItems = (had: readonly string[]) => {
      const seen = new Set(had.map((t) => t.toLowerCase()));
      return items.filter((i) => !seen.has(i.title.toLowerCase()) && seen.add(i.title.toLowerCase()))
        .map((i) => ({ title: i.title, description: i.description, required: true, reportTypeId: organizer.reportTypeId }));
    };
    let requestId = existing.rows[0]?.id;
    if (requestId === undefined) {
      const fresh = newItems([]);
      requestId = await this.#store.insert(tx, {
        clientId: organizer.clientId, clientName: organizer.clientName, title: organizer.title, message: null, dueDate: organizer.dueDate,
        reminderEveryDays: organizer.reminderEveryDays, reportTypeId: organizer.reportTypeId, trackerItemId: organizer.trackerItemId,
        assignedToId: organizer.createdById, assignedToName: organizer.createdByName, createdById: organizer.createdById,
      }, fresh);
      await this.#reminders.arm(tx, firm, { id: requestId, dueDate: organizer.dueDate, reminderEveryDays: organizer.reminderEveryDays });
      await this.#event(tx, firm.shortName, requestId, { action: 'created', ...actor });
      await this.#reminders.chase(tx, firm, requestId, 'sent');
      return requestId;
    }
    const request = (await this.#store.summary(tx, requestId))!;
    const added = newItems((await this.#store.items(tx, requestId)).map((i) => i.title));
    for (const item of added) {
      const itemId = await this.#store.addItem(tx, requestId, item);
      await this.#store.recount(tx, requestId);
      await this.#event(tx, firm.shortName, requestId, { action: 'item_added', itemId, itemTitle: item.title, ...actor });
    }
    if (added.length) {
      await this.#reminders.notifyClient(tx, firm, request, `More documents: ${request.title}`,
        `From your answers, ${firm.name} also needs: ${added.map((i) => i.title).join(', ')}.`);
    }
    return requestId;
  }

  // Items

  /**
   * Staff ask for one more document on a request already made (and perhaps sent): while it
   * is open, the item joins the end of its list and the client's users are told.
   */
  async addItem(t: TenantRequest, id: number, input: RequestItemValues): Promise<DocumentRequest> {
    requireStaff(t.scope);
    const request = await this.get(t, id);
    this.#open(request);
    const reportTypeId = input.reportTypeId ?? request.reportTypeId;
    if (input.reportTypeId) await this.#directory.reportType(t, input.reportTypeId);
    const firm = await this.#firm(t.shortName);
    await t.db.transaction(async (tx) => {
      await this.#store.summary(tx, id, true);
      const item = { title: input.title, description: input.description ?? null, required: input.required, reportTypeId: reportTypeId ?? null };
      const itemId = await this.#store.addItem(tx, id, item);
      await this.#store.recount(tx, id);
      await this.#event(tx, t.shortName, id, { action: 'item_added', itemId, itemTitle: item.title, ...this.#actorOf(t) });
      await this.#reminders.notifyClient(tx, firm, request, `One more document: ${item.title}`, `${firm.name} added "${item.title}" to ${request.title}.`);
    });
    // As the caller sees it: a CPA's answer leaves out the items of report types they lack (issue 38, M1).
    return this.#seen(t, id);
  }

  async upload(t: TenantRequest, id: number, itemId: number, req: IncomingMessage): Promise<DocumentRequest> {
    // get() leaves out the items outside the caller's report types: uploading to one is a 404.
    const request = await this.get(t, id);
    return requestSeenBy(t.scope, await this.#upload(t.db, t.shortName, request, itemId, req, {
      id: actorId(t.claims), name: actorName(t.claims), viaLink: false,
    }));
  }

  async decide(t: TenantRequest, id: number, itemId: number, decision: { status: 'accepted' | 'rejected' | 'not_applicable'; comment: string | null }): Promise<DocumentRequest> {
    const request = await this.get(t, id);
    const item = this.#item(request, itemId);
    this.#open(request);
    const actor: Actor = { id: actorId(t.claims), name: actorName(t.claims), viaLink: false };
    if (t.scope.isClient) {
      if (decision.status !== 'not_applicable') throw new Forbidden(REQUEST_MESSAGES.clientMayOnlyMarkNotApplicable);
      return requestSeenBy(t.scope, await this.#notApplicable(t.db, t.shortName, request, item, decision.comment, actor));
    }
    if (decision.status === 'not_applicable') throw new Invalid(REQUEST_MESSAGES.staffDecision);
    if (decision.status === 'rejected' && !decision.comment) throw new Invalid(REQUEST_MESSAGES.rejectionNeedsComment);
    if (decision.status === 'accepted' && item.status !== 'uploaded' && item.status !== 'not_applicable') throw new Conflict(REQUEST_MESSAGES.nothingToAccept);
    const firm = await this.#firm(t.shortName);
    await t.db.transaction(async (tx) => {
      await this.#store.summary(tx, id, true);
      // A rejection goes back to the client as requested, with the reason beside it.
      await this.#store.setItem(tx, itemId, decision.status === 'accepted'
        ? { status: 'accepted', staffComment: decision.comment }
        : { status: 'requested', staffComment: decision.comment });
      await this.#store.recount(tx, id);
      await this.#event(tx, t.shortName, id, {
        action: decision.status === 'accepted' ? 'item_accepted' : 'item_rejected', itemId, itemTitle: item.title, comment: decision.comment, actorId: actor.id, actorName: actor.name,
      });
      if (decision.status === 'rejected') await this.#reminders.returned(tx, firm, request, item.title, decision.comment!);
      await this.#settle(tx, firm, id);
    });
    return this.#seen(t, id);
  }

  // Links

  async createLink(t: TenantRequest, id: number, input: { email?: string | null; expiresInDays?: number | null }): Promise<CreatedRequestLink> {
    requireStaff(t.scope);
    const request = await this.get(t, id);
    this.#open(request);
    const firm = await this.#firm(t.shortName);
    const expiresAt = this.#links.expiry(firm, request.dueDate, input.expiresInDays);
    const link = await t.db.transaction(async (tx) => {
      const link = await this.#links.mint(tx, firm, { ...request, createdById: actorId(t.claims) }, input.email ?? null, expiresAt);
      if (input.email) await queueMail(this.#jobs, tx, this.#linkMail(firm, request, input.email, link));
      await this.#event(tx, t.shortName, id, { action: 'link_created', ...this.#actorOf(t) });
      return link;
    });
    return { id: link.id, url: link.url, expiresAt: link.expiresAt.toISOString() };
  }

  /**
   * "E-mail me a new link" from an expired link's page: a new link goes to the address the
   * expired one was sent to, at most once an hour per link, and only while the request is
   * open and the link was not revoked. The caller's answer is the same whatever the token
   * (no telling which tokens exist or where they were sent).
   */
  async renewLink(db: (shortName: string) => Promise<{ db: SchemaDb }>, token: string): Promise<{ message: string }> {
    const answer = { message: REQUEST_MESSAGES.newLinkOnItsWay };
    const found = await this.#store.links.find(db, token);
    if (!found?.link.email || found.link.live) return answer;
    const to = found.link.email;
    const { shortName, db: firmDb, link } = found;
    const request = await this.#store.find(firmDb, link.ownerId);
    if (request?.status !== 'open') return answer;
    const firm = await this.#firm(shortName);
    await firmDb.transaction(async (tx) => {
      if (!await this.#store.claimRenewal(tx, link.id, REQUEST_DEFAULTS.linkRenewEveryMinutes)) return;
      const fresh = await this.#links.mint(tx, firm, request, to);
      await queueMail(this.#jobs, tx, this.#linkMail(firm, request, to, fresh));
      await this.#event(tx, shortName, request.id, { action: 'link_created', actorId: SYSTEM_ACTOR.id, actorName: SYSTEM_ACTOR.name });
    });
    return answer;
  }

  #linkMail(firm: Firm, request: DocumentRequest, to: string, link: { url: string; expiresAt: Date }) {
    const missing = request.items.filter((i) => i.required && (i.status === 'requested' || i.status === 'rejected')).map((i) => i.title);
    return firmMail({
      to, firmName: firm.name, subject: `${firm.name} asks for documents: ${request.title}`,
      paragraphs: [
        `${firm.name} needs documents from ${request.clientName} by ${clientDate(request.dueDate, firm.country)}.`,
        ...(missing.length ? [`Still needed: ${missing.join(', ')}.`] : []),
        ...(request.message ? [request.message] : []), 'Open the link to upload them; no account is needed.',
      ],
      link: { label: 'Upload documents', url: link.url },
      footer: `This link works until ${clientDate(link.expiresAt.toISOString(), firm.country)}. Keep it to yourself: anyone holding it can upload to this request.`,
    });
  }

  async links(t: TenantRequest, id: number) {
    requireStaff(t.scope);
    await this.get(t, id);
    return this.#store.links.list(t.db, id);
  }

  async revokeLink(t: TenantRequest, id: number, linkId: number): Promise<{ message: string }> {
    requireStaff(t.scope);
    await this.get(t, id);
    await t.db.transaction(async (tx) => {
      if (!await this.#store.links.revoke(tx, id, linkId)) throw new NotFound(REQUEST_MESSAGES.linkNotFound);
      await this.#event(tx, t.shortName, id, { action: 'link_revoked', ...this.#actorOf(t) });
    });
    return { message: REQUEST_MESSAGES.linkRevoked };
  }

  // Public calls (by link token only)

  async byLink(db: (shortName: string) => Promise<{ db: SchemaDb }>, token: string): Promise<LinkContext> {
    const found = await this.#store.links.find(db, token);
    if (!found) throw new NotFound(REQUEST_MESSAGES.linkNotFound);
    if (!found.link.live) throw new Gone(REQUEST_MESSAGES.linkGone);
    const request = (await this.#store.find(found.db, found.link.ownerId))!;
    if (request.status !== 'open') throw new Gone(REQUEST_MESSAGES.requestDone);
    return { firm: await this.#firm(found.shortName), db: found.db, request, recipient: found.link.email };
  }

  presentPublic(firm: Firm, r: DocumentRequest): PublicDocumentRequest {
    const waiting = (i: RequestItem) => i.status === 'requested' || i.status === 'rejected';
    return {
      firmName: firm.name, clientName: r.clientName, title: r.title, message: r.message, dueDate: r.dueDate,
      dueDateText: clientDate(r.dueDate, firm.country),
      allDone: !r.items.some((i) => i.required && waiting(i)),
      items: r.items.map((i) => ({
        id: i.id, title: i.title, description: i.description, required: i.required, status: i.status, fileCount: i.files.length,
        // A returned item is requested again with the firm's reason beside it (decide()).
        returnedReason: waiting(i) ? i.staffComment : null,
      })),
    };
  }

  async uploadByLink(link: LinkContext, itemId: number, req: IncomingMessage, who: { address: string; userAgent: string }) {
    const r = link.request;
    const updated = await this.#upload(link.db, link.firm.shortName, r, itemId, req, { ...linkActor(link), ...who });
    return this.presentPublic(link.firm, updated);
  }

  async notApplicableByLink(link: LinkContext, itemId: number, comment: string | null, who: { address: string; userAgent: string }) {
    const r = link.request;
    const updated = await this.#notApplicable(link.db, link.firm.shortName, r, this.#item(r, itemId), comment, { ...linkActor(link), ...who });
    return this.presentPublic(link.firm, updated);
  }

  // Internals

  async #upload(db: SchemaDb, shortName: string, request: DocumentRequest, itemId: number, req: IncomingMessage, actor: Actor): Promise<DocumentRequest> {
    const item = this.#item(request, itemId);
    this.#open(request);
    if (item.status === 'accepted') throw new Conflict('This item is already accepted.');
    const files = await this.#files.forward(req, { t: shortName, c: request.clientId, r: item.reportTypeId, u: actor.id, n: actor.name });
    const firm = await this.#firm(shortName);
    await db.transaction(async (tx) => {
      await this.#store.summary(tx, request.id, true);
      await this.#store.addFiles(tx, itemId, files, actor.name, actor.viaLink);
      await this.#store.setItem(tx, itemId, { status: 'uploaded' });
      await this.#store.recount(tx, request.id);
      await this.#event(tx, shortName, request.id, { action: 'item_uploaded', itemId, itemTitle: item.title, files, ...this.#actorFields(actor) });
      await this.#settle(tx, firm, request.id);
    });
    return (await this.#store.find(db, request.id))!;
  }

  async #notApplicable(db: SchemaDb, shortName: string, request: DocumentRequest, item: RequestItem, comment: string | null, actor: Actor): Promise<DocumentRequest> {
    this.#open(request);
    if (!comment) throw new Invalid(REQUEST_MESSAGES.notApplicableNeedsComment);
    if (item.status === 'accepted') throw new Conflict('This item is already accepted.');
    const firm = await this.#firm(shortName);
    await db.transaction(async (tx) => {
      await this.#store.summary(tx, request.id, true);
      await this.#store.setItem(tx, item.id, { status: 'not_applicable', clientComment: comment });
      await this.#store.recount(tx, request.id);
      await this.#event(tx, shortName, request.id, { action: 'item_not_applicable', itemId: item.id, itemTitle: item.title, comment, ...this.#actorFields(actor) });
      await this.#settle(tx, firm, request.id);
    });
    return (await this.#store.find(db, request.id))!;
  }

  /** After a recount: when every required item is accepted or not applicable, completes and tells the reviewer. */
  async #settle(tx: Queryable, firm: Firm, id: number): Promise<void> {
    const request = (await this.#store.summary(tx, id))!;
    if (request.status !== 'open' || request.progress.done < request.progress.required) return;
    const items = await this.#store.items(tx, id);
    if (items.some((i) => i.status === 'uploaded' || (i.required && i.status === 'requested'))) return;
    await this.#store.update(tx, id, { status: 'completed' });
    await this.#reminders.disarm(tx, id);
    await this.#event(tx, firm.shortName, id, { action: 'completed', actorId: SYSTEM_ACTOR.id, actorName: SYSTEM_ACTOR.name });
    if (request.assignedToId > 0) {
      await requestNotifications(tx, firm.shortName, [{
        userId: request.assignedToId, title: `Documents complete: ${request.title}`, message: `${request.clientName} has sent everything for "${request.title}".`,
        type: 'success', category: 'general', clientId: request.clientId, clientName: request.clientName, actionUrl: `/requests/${id}`,
      }]);
    }
  }

  async #reviewer(t: TenantRequest, assignedToId: number | null): Promise<{ id: number; name: string }> {
    if (assignedToId === null || assignedToId === actorId(t.claims)) return { id: actorId(t.claims), name: actorName(t.claims) };
    const name = await this.#store.isStaff(t.db, assignedToId);
    if (!name) throw new Invalid(REQUEST_MESSAGES.assigneeNotStaff);
    return { id: assignedToId, name };
  }

  #item(request: DocumentRequest, itemId: number): RequestItem {
    const item = request.items.find((i) => i.id === itemId);
    if (!item) throw new NotFound(REQUEST_MESSAGES.itemNotFound);
    return item;
  }

  #open(request: DocumentRequestSummary): void {
    if (request.status !== 'open') throw new Conflict(REQUEST_MESSAGES.notOpen);
  }

  #actorOf(t: TenantRequest): Pick<DocumentRequestChanged, 'actorId' | 'actorName'> {
    return { actorId: actorId(t.claims), actorName: actorName(t.claims) };
  }

  #actorFields(actor: Actor): Pick<DocumentRequestChanged, 'actorId' | 'actorName' | 'viaLink' | 'address' | 'userAgent'> {
    return {
      actorId: actor.id, actorName: actor.name, viaLink: actor.viaLink,
      ...(actor.address ? { address: actor.address } : {}), ...(actor.userAgent ? { userAgent: actor.userAgent } : {}),
    };
  }

  /** The change's event, with the request's state as this transaction leaves it (call after the change and its recount). */
  async #event(tx: Queryable, shortName: string, requestId: number, change: Pick<DocumentRequestChanged, 'action' | 'actorId' | 'actorName'> & Partial<DocumentRequestChanged>): Promise<void> {
    const state = await this.#store.nextRevision(tx, requestId);
    await enqueueEvents(tx, [newEvent<DocumentRequestChanged>(DOCUMENT_REQUEST_CHANGED, shortName, { ...change, ...state })]);
  }
}
