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
 * service's events): the document total and the dashboard's top lists. Its reply is the
 * contracts' AdminAnalytics, its list sizes ADMIN_DASHBOARD_LIMITS (spec 000 §9).
 */
export const ADMIN_ANALYTICS_URL = '/api/admin/analytics';
