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

/**
 * The kinds of e-mail a user receives, each of which they may turn off in Account settings
 * (the one list: the tasks service checks it, the account page shows it). Sign-in codes and
 * invitations are not among them: they are asked for, never unwanted.
 */
export const EMAIL_KINDS = ['tasks', 'compliance', 'requests', 'messages'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
export const EMAIL_KIND_LABELS: Record<EmailKind, string> = {
  tasks: 'Tasks and task reminders',
  compliance: 'Compliance deadlines and reminders',
  requests: 'Document requests and their reminders',
  messages: 'Messages',
};
/** A notification's e-mail kind when its publisher names none. */
export function emailKindOf(category: NotificationCategory): EmailKind {
  if (category === 'compliance' || category === 'deadline') return 'compliance';
  if (category === 'message') return 'messages';
  return 'tasks';
}
/** GET/PUT /api/users/{id}/email-preferences (the user themself): the kinds turned off. */
export const emailPreferencesSchema = z.object({
  off: z.array(z.enum(EMAIL_KINDS, { error: `off lists kinds of e-mail: ${EMAIL_KINDS.join(', ')}` })).max(EMAIL_KINDS.length * 2).transform((v) => [...new Set(v)]),
});
export interface EmailPreferences { off: EmailKind[] }

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
  /**
   * Also by e-mail, to the user's address (their username when they have none and it is one),
   * unless they turned this kind off; without SMTP_URL the e-mail is written to the log.
   */
  email: z.boolean().default(false),
  /** Which of the user's e-mail preferences covers it (default: from `category`). */
  emailKind: z.enum(EMAIL_KINDS).nullish(),
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

