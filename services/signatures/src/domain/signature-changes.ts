import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { SYSTEM_ACTOR } from '@ledgerline/contracts/files.contracts.ts';
import {
  SIGNATURE_REQUEST_CHANGED, SIGNING_IDENTITY_FAILED, type SignatureAction, type SignatureRequestChanged, type SigningIdentityFailed,
} from '@ledgerline/contracts/signatures.contracts.ts';
import type { SignatureStore } from '../store/signature.store.ts';

/** Who moved a request: a signed-in user, or the System (a link signer has no account; completion and expiry are the product's). */
export interface SignatureActor { id: number; name: string }
export const SYSTEM: SignatureActor = SYSTEM_ACTOR;

/**
 * Announces a step of a request through the outbox, inside the transaction that takes it
 * (after the step's own writes, so the event carries the new status): the activity log,
 * compliance's stage moves and the realtime pushes all follow this one event, once.
 */
export async function publishSignatureChange(
  tx: Queryable, store: SignatureStore, shortName: string, requestId: number, action: SignatureAction, actor: SignatureActor, signerName: string | null = null,
): Promise<void> {
  const r = (await store.find(tx, requestId))!;
  const signers = await store.signers(tx, requestId);
  const change: SignatureRequestChanged = {
    requestId, title: r.title, clientId: r.clientId, clientName: r.clientName, reportTypeId: r.reportTypeId, trackerItemId: r.trackerItemId,
    action, status: r.status, signerName, signerUserIds: signers.flatMap((s) => (s.userId === null ? [] : [s.userId])),
    completedAt: r.completedAt, signedFileId: r.signedFileId, actorId: actor.id, actorName: actor.name,
  };
  await enqueueEvents(tx, [newEvent<SignatureRequestChanged>(SIGNATURE_REQUEST_CHANGED, shortName, change)]);
}

/** A failed identity check (or a lock-out) for the firm's security events, in the transaction that counts the failure. */
export async function publishIdentityFailure(tx: Queryable, shortName: string, failure: SigningIdentityFailed): Promise<void> {
  await enqueueEvents(tx, [newEvent<SigningIdentityFailed>(SIGNING_IDENTITY_FAILED, shortName, failure)]);
}
