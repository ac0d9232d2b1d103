import { addDays, instantAt, todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { REQUEST_DEFAULTS, REQUEST_MESSAGES } from '@ledgerline/contracts/requests.contracts.ts';
import { newFirmLinkToken } from '@ledgerline/kit/crypto/firm-link-token.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import type { LinkTable } from '../link-table.ts';
import type { Firm } from './request-reminders.ts';
import type { RequestStore } from './request.store.ts';

/** What minting a link needs of its request. */
export interface LinkedRequest { id: number; dueDate: string; createdById: number }

export interface MintedLink { id: number; url: string; expiresAt: Date }

/**
 * Upload links (issue 27, issue 40 "the link loop"): one place that makes them, so a link
 * made by staff, a reminder's fresh link and the new link an expired one asks for share the
 * kit's one link-token scheme (kit/crypto/firm-link-token.ts) and the same lifetime rules.
 */
export class RequestLinkMaker {
  readonly #store: RequestStore;
  readonly #publicBaseUrl: string;

  constructor(deps: { store: RequestStore; publicBaseUrl: string }) {
    this.#store = deps.store;
    this.#publicBaseUrl = deps.publicBaseUrl.replace(/\/$/, '');
  }

  /**
   * When a link ends: `days` from now if chosen (at most linkMaxDaysPastDue days past the due
   * date), else the end of the linkDaysPastDue-th day after the due date in the firm's zone,
   * and never sooner than that many days from today (a request already overdue still gets a
   * usable link).
   */
  expiry(firm: Firm, dueDate: string, days?: number | null, now = Date.now()): Date {
    if (days) {
      const at = new Date(now + days * 86_400_000);
      if (at > this.#endOfDay(firm, addDays(dueDate, REQUEST_DEFAULTS.linkMaxDaysPastDue))) throw new Invalid(REQUEST_MESSAGES.linkTooLong);
      return at;
    }
    const pastDue = this.#endOfDay(firm, addDays(dueDate, REQUEST_DEFAULTS.linkDaysPastDue));
    const fromToday = this.#endOfDay(firm, addDays(todayIn(firm.timeZone, new Date(now)), REQUEST_DEFAULTS.linkDaysPastDue));
    return pastDue > fromToday ? pastDue : fromToday;
  }

  async mint(tx: Queryable, firm: Firm, request: LinkedRequest, email: string | null, expiresAt = this.expiry(firm, request.dueDate)): Promise<MintedLink> {
    return this.mintIn(tx, this.#store.links, '/document-request/', firm, { ownerId: request.id, createdById: request.createdById }, email, expiresAt);
  }

  /** A link in `table` to the page at `pagePrefix` (an organizer's link too); the URL is the only place its token is whole. */
  async mintIn(tx: Queryable, table: LinkTable, pagePrefix: string, firm: Firm, owner: { ownerId: number; createdById: number }, email: string | null, expiresAt: Date): Promise<MintedLink> {
    const { token, hash } = newFirmLinkToken(firm.shortName);
    const id = await table.insert(tx, { ...owner, tokenHash: hash, email, expiresAt });
    return { id, url: `${this.#publicBaseUrl}${pagePrefix}${token}`, expiresAt };
  }

  #endOfDay(firm: Firm, date: string): Date {
    return instantAt(addDays(date, 1), '00:00', firm.timeZone);
  }
}
