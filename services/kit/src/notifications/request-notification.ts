import { NOTIFICATION_REQUESTED, notificationRequestSchema, type NotificationRequest } from '@ledgerline/contracts/notifications.contracts.ts';
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
