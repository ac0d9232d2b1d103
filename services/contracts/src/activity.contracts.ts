import { z } from 'zod';
import { DB_INT_MAX, idSchema, intSchema } from './scalars.ts';
import { ACTIVITY_ACTIONS, type ActivityAction } from './activity.constants.ts';
import type { FileType } from './files.contracts.ts';

/*
 * Activity API (spec 001 §2 Activity feed and Dashboard; §3 Activity log; §7 "Activity";
 * spec 000 Administrator dashboard). The activity service builds all of it from every
 * service's events plus the view/download posts of the screens.
 */


/** Spec 001 §3 "Activity log". */
export interface ActivityLog {
  id: number;
  action: ActivityAction;
  fileId: number | null;
  fileName: string | null;
  userId: number;
  userName: string;
  clientId: number | null;
  clientName: string | null;
  details: string | null;
  /** ISO timestamp. */
  timestamp: string;
  /** The file the entry names has been deleted since (screens then offer no View/Download). */
  fileDeleted: boolean;
  /**
   * Where an action without a sign-in came from (a document-request link upload): the address
   * and browser; null otherwise, and for Client users. (Optional in the type only: older
   * screens' fixtures predate them; the API always sends both.)
   */
  address?: string | null;
  userAgent?: string | null;
}

/** POST /api/activity-logs: what a screen records after it viewed or downloaded a file. */
export const activityLogInputSchema = z.object({
  action: z.enum(['view', 'download'], { error: 'Action must be view or download' }),
  fileId: idSchema('fileId', 'fileId is required'),
  details: z.string().trim().max(1000).nullish().transform((v) => v || null),
});
export type ActivityLogInput = z.infer<typeof activityLogInputSchema>;

export const ACTIVITY_LIST_DEFAULT_LIMIT = 100;

/** GET /api/activity-logs: newest first. */
export const activityListQuerySchema = z.object({
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  fileId: idSchema('fileId').optional(),
  clientId: idSchema('clientId').optional(),
  // Platform administrators' entries carry negative user ids (kit/auth/actor-id.ts).
  userId: intSchema('userId', -DB_INT_MAX, DB_INT_MAX).refine((n) => n !== 0, 'userId must be a valid id').optional(),
  limit: intSchema('limit', 1, 1000).default(ACTIVITY_LIST_DEFAULT_LIMIT),
});
export type ActivityListQuery = z.infer<typeof activityListQuerySchema>;

// ---------------------------------------------------------------- tenant dashboard

export interface DashboardFile {
  fileId: number;
  fileName: string;
  clientId: number | null;
  clientName: string | null;
  fileType: FileType;
  size: number;
  uploaderName: string;
  uploadedAt: string;
}

export interface ActionCount { action: ActivityAction; count: number }

/**
 * GET /api/dashboard (tenant form /api/{tenant}/dashboard): everything the four tabs show,
 * limited to what the caller may see (Admin and DTA: the firm; CPA: their clients; Client:
 * their own client, and only their own row in topUsers).
 */
export interface DashboardOverview {
  totalDocuments: number;
  totalActivities: number;
  /** Clients with at least one document or activity in scope ('Your Companies' for a Client user). */
  totalClients: number;
  /** Distinct users with activity in the last 7 days. */
  activeUsers: number;
  recentFiles: DashboardFile[];
  /** Top 8 by activities. */
  topClients: { clientId: number; clientName: string; documents: number; activities: number; lastActivityAt: string | null }[];
  /** Top 8 by views + downloads + chats. */
  topFiles: { fileId: number; fileName: string; clientName: string | null; views: number; downloads: number; chats: number; total: number }[];
  /** Top 8 by actions. */
  topUsers: { userId: number; userName: string; actions: number; lastActiveAt: string | null }[];
  /** For charts: activity per day over the last 30 days (oldest first, days without activity as 0). */
  activityByDay: { date: string; count: number }[];
  actionCounts: ActionCount[];
  documentsByType: { fileType: FileType; count: number }[];
}

/** GET /api/dashboard/users/{userId}/activity: the user activity details dialog. */
export interface UserActivityDetails {
  userId: number;
  userName: string;
  totalActions: number;
  actionCounts: ActionCount[];
  /** Newest first, at most 50. */
  recent: ActivityLog[];
}

/** GET /api/dashboard/clients/{clientId}/engagement: the client engagement details dialog. */
export interface ClientEngagementDetails {
  clientId: number;
  clientName: string;
  documents: number;
  totalActions: number;
  actionCounts: ActionCount[];
  /** Newest first, at most 50. */
  recent: ActivityLog[];
}

// ---------------------------------------------------------------- administrator dashboard

/** Spec 000 §9: the administrator dashboard's list sizes. */
export const ADMIN_DASHBOARD_LIMITS = { topClients: 8, topDocuments: 10, topUsers: 10 } as const;

/** GET /api/admin/analytics (platform administrators): across every active firm. */
export interface AdminAnalytics {
  totalDocuments: number;
  topClients: { clientName: string; tenantName: string; documents: number; activities: number }[];
  topDocuments: { fileName: string; clientName: string | null; tenantName: string; sizeBytes: number; views: number; downloads: number; chats: number }[];
  topUsers: { userName: string; tenantName: string; actions: number; lastActiveAt: string | null }[];
}

// ---------------------------------------------------------------- events from other services

/**
 * What the chat service will publish when a user asks the AI about a file (recorded as a
 * `chat` activity). Files' own events (file.uploaded, file.deleted) are in files.contracts.
 */
export const FILE_CHATTED = 'file.chatted';
export interface FileChattedEvent {
  fileId: number;
  fileName: string;
  clientId: number | null;
  clientName: string | null;
  userId: number;
  userName: string;
  sessionId: number;
  occurredAt: string;
}
