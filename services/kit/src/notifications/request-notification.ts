import {
  NOTIFICATION_REQUESTED, NOTIFICATION_REVISED, notificationRequestSchema, notificationRevisionSchema, type NotificationRequest, type NotificationRevision,
} from '@ledgerline/contracts/notifications.contracts.ts';
import { newEvent } from '../bus/bus.ts';
import type { Queryable } from '../db/database.ts';
import { enqueueEvents } from '../outbox/outbox.ts';

/**
 * How any service notifies a firm user (DESIGN §7 notifications): a `notification.requested`
 * event in the caller's transaction (outbox), so the notification exists exactly when the
 * change it reports committed. The tasks service stores, pushes and emails it. The payload is
 * checked here, where a mistake is the publisher's, rather than dropped by the consumer.
 */
export async function requestNotifications(tx: Queryable, tenant: string, requests: readonly NotificationRequest[]): Promise<void> {
  await enqueueEvents(tx, requests.map((r) => newEvent(NOTIFICATION_REQUESTED, tenant, notificationRequestSchema.parse(r))));
}

/** Removes or rewrites notifications already requested, in the caller's transaction (outbox) like the change that makes them wrong. */
export async function reviseNotifications(tx: Queryable, tenant: string, revision: NotificationRevision): Promise<void> {
  const parsed = notificationRevisionSchema.parse(revision);
  if (parsed.userIds.length) await enqueueEvents(tx, [newEvent(NOTIFICATION_REVISED, tenant, parsed)]);
}
