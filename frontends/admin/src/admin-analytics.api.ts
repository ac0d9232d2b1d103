import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

/** Identity's platform figures: firms and users (GET /api/admin/overview). */
export const ADMIN_OVERVIEW_URL = '/api/admin/overview';

export interface AdminOverview {
  totalCompanies: number;
  activeCompanies: number;
  totalUsers: number;
  activeUsers7d: number;
  recentTenants: Company[];
}

/** The chat service's sessions across the platform (spec 001 §7: items with fileId, userId). */
export const ADMIN_CHAT_SESSIONS_URL = '/api/admin/chat-sessions';

export interface AdminChatSession {
  fileId: number;
  userId: number;
}

/**
 * The activity service's platform analytics (design §2: dashboards are built from every
 * service's events): document total and the dashboard's top lists (spec 001 §9: 8 clients,
 * 10 documents, 10 users).
 */
export const ADMIN_ANALYTICS_URL = '/api/admin/analytics';

export interface AdminAnalytics {
  totalDocuments: number;
  topClients: { clientName: string; tenantName: string; documents: number; activities: number }[];
  topDocuments: { fileName: string; clientName: string; views: number; downloads: number; chats: number }[];
  topUsers: { userName: string; tenantName: string; actions: number; lastActiveAt: string | null }[];
}

export const TOP_CLIENTS = 8;
export const TOP_DOCUMENTS = 10;
export const TOP_USERS = 10;
