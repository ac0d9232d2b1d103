import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { newFirmLinkToken } from '@ledgerline/kit/crypto/firm-link-token.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { queueMail } from '@ledgerline/kit/mail/mail-job.ts';
import { firmMail } from '@ledgerline/kit/mail/mail-templates.ts';
import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { SIGNATURE_LIMITS } from '@ledgerline/contracts/signatures.contracts.ts';
import type { SignatureStore, SignerRecord } from '../store/signature.store.ts';
import { SIGNING_PAGE_PATH } from '../signing-page/signing-page.router.ts';

/** Whether every signer before this one (a lower order) has signed. */
export const isTurnOf = (signer: Pick<SignerRecord, 'order'>, all: readonly Pick<SignerRecord, 'order' | 'status'>[]): boolean =>
  all.every((s) => s.order >= signer.order || s.status === 'signed');

/** When a link minted now ends: the day after the due date (UTC, so every zone's due day is in), else SIGNATURE_LIMITS.linkDays. */
export function linkExpiry(dueDate: string | null, now = new Date()): Date {
  if (dueDate) return new Date(Date.parse(`${dueDate}T00:00:00Z`) + 2 * 86_400_000);
  return new Date(now.getTime() + SIGNATURE_LIMITS.linkDays * 86_400_000);
}

/**
 * E-mails the signers whose turn it is: each link signer gets a new per-signer link (the
 * kit's firm link token, kit/crypto/firm-link-token.ts; a newer link replaces the older one), a Client user is sent to
 * the portal. Queued in the caller's transaction: sent only if it commits.
 */
export class SignerNotices {
  readonly #store: SignatureStore;
  readonly #jobs: JobQueue;
  readonly #publicBaseUrl: string;

  readonly #users: UserAccessReadModel;

  constructor(deps: { store: SignatureStore; jobs: JobQueue; publicBaseUrl: string; users: UserAccessReadModel }) {
    this.#users = deps.users;
    this.#store = deps.store;
    this.#jobs = deps.jobs;
    this.#publicBaseUrl = deps.publicBaseUrl.replace(/\/$/, '');
  }

  /** `again`: a reminder (everyone due, told before or not); else only those not told yet. */
  /**
   * Tells every signer, and the staff member who made the request, that all have signed: a
   * Client user can download the signed PDF in the portal, anyone else is told to ask the firm
   * (links end with the signature).
   */
  async completed(tx: Queryable, request: { id: number; title: string; createdById: number; signedSha256: string | null }, signers: readonly SignerRecord[], firmName: string): Promise<void> {
    const creator = await this.#users.mailbox(tx, request.createdById);
    const names = signers.map((s) => `${s.name} (${s.role})`).join(', ');
    const mails = signers.map((s) => firmMail({
      to: s.email, firmName, subject: `Signed: ${request.title}`,
      paragraphs: [
        `Everyone has signed "${request.title}": ${names}.`,
        s.userId === null ? `${firmName} keeps the signed document; ask them for a copy.` : 'You can download the signed document in the portal.',
        `Its SHA-256 fingerprint is ${request.signedSha256}.`,
      ],
      footer: `You received this because ${firmName} named you as a signer.`,
    }));
    if (creator?.to) {
      mails.push(firmMail({
        to: creator.to, firmName, subject: `Signed: ${request.title}`,
        paragraphs: [`Everyone has signed "${request.title}": ${names}. The sealed PDF is filed as a report of the client.`],
        footer: 'You received this because you sent this signature request.',
      }));
    }
    for (const mail of mails) await queueMail(this.#jobs, tx, mail);
  }

  /** `firmName`: looked up before the caller's transaction (a lookup may wait on identity). */
  async notifyDue(tx: Queryable, shortName: string, requestId: number, again: boolean, firmName: string): Promise<void> {
    const request = (await this.#store.find(tx, requestId))!;
    const signers = await this.#store.signers(tx, requestId);
    for (const s of signers) {
      if (s.status !== 'pending' || !isTurnOf(s, signers) || (!again && s.notifiedAt)) continue;
      let url: string;
      const change: Parameters<SignatureStore['updateSigner']>[2] = { notified_at: new Date() };
      if (s.userId === null) {
        const { token, hash } = newFirmLinkToken(shortName);
        change.token_hash = hash;
        change.link_expires_at = linkExpiry(request.dueDate);
        url = `${this.#publicBaseUrl}${SIGNING_PAGE_PATH}${token}`;
      } else {
        // A Client user signs signed in: the same page, on their own /signing calls.
        url = `${this.#publicBaseUrl}${SIGNING_PAGE_PATH}portal/${shortName}/${requestId}`;
      }
      await this.#store.updateSigner(tx, s.id, change);
      await queueMail(this.#jobs, tx, firmMail({
        to: s.email, firmName,
        subject: `${again ? 'Reminder: please sign' : 'Please sign'}: ${request.title}`,
        paragraphs: [
          `${firmName} asks you to sign "${request.title}" as ${s.role}.`,
          ...(request.message ? [request.message] : []),
          ...(request.dueDate ? [`Please sign by ${request.dueDate}.`] : []),
          s.userId === null ? 'The link is for you alone: do not forward this e-mail.' : 'Sign in to the portal to review and sign.',
        ],
        link: { label: 'Review and sign', url },
        footer: `You received this because ${firmName} named you as a signer.`,
      }));
    }
  }
}
