import { z } from 'zod';
import { idSchema, intSchema, textSchema } from './scalars.ts';

/*
 * Notifications (spec 001 §3 Notification, §4 notification states, §7 "Notifications") and
 * the one event any service publishes to notify a firm user (DESIGN §7): the tasks service
 * stores it, pushes it over the realtime endpoint and, when asked and SMTP is configured,
 * emails it.
 */

/** §3: success, warning, error; anything else is shown as info. */
export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
/** §3 names task, deadline and reminder (default general); the work areas to come add theirs. */
export const NOTIFICATION_CATEGORIES = ['general', 'task', 'deadline', 'reminder', 'compliance', 'insight', 'message'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** Published by any service through its outbox, tenant = the firm of `userId`. */
export const NOTIFICATION_REQUESTED = 'notification.requested';

/**
 * The payload of `notification.requested`. The event id is the notification's identity:
 * a redelivered event never makes a second notification. `actionUrl` is a path inside the
 * portal (the screens follow it on click), never another site.
 */
export const notificationRequestSchema = z.object({
  userId: idSchema('userId'),
  title: textSchema('title', 200).trim().min(1, 'title is required'),
  message: textSchema('message', 2000),
  type: z.enum(NOTIFICATION_TYPES).default('info'),
  category: z.enum(NOTIFICATION_CATEGORIES).default('general'),
  taskId: idSchema('taskId').nullish(),
  taskTitle: textSchema('taskTitle', 500).nullish(),
  reminderId: idSchema('reminderId').nullish(),
  clientId: idSchema('clientId').nullish(),
  clientName: textSchema('clientName', 500).nullish(),
  actionUrl: textSchema('actionUrl', 500).regex(/^\/(?!\/)/, 'actionUrl must be a path inside the portal').nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  /** Also by email, when the portal has SMTP_URL and the user's username is an address. */
  email: z.boolean().default(false),
});
export type NotificationRequest = z.input<typeof notificationRequestSchema>;

/**
 * Published by a service whose earlier notifications quote what is gone or changed (a deleted
 * or edited message): those of `userIds` whose metadata holds every key of `about` are
 * removed (`message` null) or say `message` instead, e-mails not yet sent included.
 */
export const NOTIFICATION_REVISED = 'notification.revised';
export const notificationRevisionSchema = z.object({
  userIds: z.array(idSchema('userIds')).max(10_000),
  about: z.record(z.string(), z.number().int()).refine((a) => Object.keys(a).length > 0, 'about names at least one metadata key'),
  message: textSchema('message', 2000).nullable(),
});
export type NotificationRevision = z.input<typeof notificationRevisionSchema>;

/** Spec 001 §3 "Notification", as the API returns it. */
export interface Notification {
  id: number;
  title: string;
  message: string;
  type: NotificationType;
  category: NotificationCategory;
  userId: number;
  taskId: number | null;
  taskTitle: string | null;
  reminderId: number | null;
  clientId: number | null;
  clientName: string | null;
  isRead: boolean;
  actionUrl: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

/**
 * GET /api/notifications: the caller's own, newest first. `userId` is accepted because the
 * screens send it (§7) and ignored: nobody reads another user's notifications.
 */
export const notificationListQuerySchema = z.object({
  userId: z.unknown().optional(),
  isRead: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
  limit: intSchema('limit', 1, 500).default(100),
});
/** PATCH /api/notifications/mark-all-read and the count: `userId` accepted, never trusted. */
export const notificationOwnerSchema = z.object({ userId: z.unknown().optional() });

export interface UnreadCount { count: number }

