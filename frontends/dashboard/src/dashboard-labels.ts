import type { DashboardOverview } from '@ledgerline/contracts/activity.contracts.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { formatCount } from '@ledgerline/ui/count-format.ts';

export type DashboardTabId = 'overview' | 'engagement' | 'documents' | 'users';

export interface DashboardTab {
  id: DashboardTabId;
  label: string;
}

const STAFF_TABS: readonly DashboardTab[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'engagement', label: 'Client Engagement' },
  { id: 'documents', label: 'Document Analytics' },
  { id: 'users', label: 'User Activity' },
];

/**
 * Spec 001 §2 names three labels for the Client role. A Client user belongs to one client, so
 * ranking clients by engagement means nothing to them: their tabs are the other three.
 */
const CLIENT_TABS: readonly DashboardTab[] = [
  { id: 'overview', label: 'Company Overview' },
  { id: 'documents', label: 'Your Documents' },
  { id: 'users', label: 'Your Activity' },
];

/** A person's (an individual client's) overview is their own, not a company's. */
const PERSON_TABS: readonly DashboardTab[] = [{ id: 'overview', label: 'Your Overview' }, ...CLIENT_TABS.slice(1)];

/** `person`: the Client user's client is an individual (entity type individual). */
export function dashboardTabs(role: string | undefined, person = false): readonly DashboardTab[] {
  if (!isClientRole(role)) return STAFF_TABS;
  return person ? PERSON_TABS : CLIENT_TABS;
}

export interface SummaryFigure {
  title: string;
  icon: string;
  /** Undefined while the dashboard loads. */
  value: number | undefined;
  /** A second figure under the first, e.g. how many of the firm's clients are active. */
  note?: string;
}

/**
 * The summary cards: the firm's figures for staff, the own client's for a Client user (spec
 * 001 §2). Staff's Clients card counts the clients they may see in the directory
 * (`firmClients`), with those that have documents or activity as the second figure.
 */
export function summaryFigures(role: string | undefined, overview: DashboardOverview | undefined, firmClients?: number, person = false): SummaryFigure[] {
  if (isClientRole(role)) {
    const own = [
      { title: 'Your Documents', icon: 'pi pi-file', value: overview?.totalDocuments },
      { title: 'Your Activities', icon: 'pi pi-history', value: overview?.totalActivities },
    ];
    // A person has no companies: counting their own client as "Your Companies 1" says nothing.
    return person ? own : [...own, { title: 'Your Companies', icon: 'pi pi-building', value: overview?.totalClients }];
  }
  return [
    { title: 'Total Documents', icon: 'pi pi-file', value: overview?.totalDocuments },
    { title: 'Total Activities', icon: 'pi pi-history', value: overview?.totalActivities },
    { title: 'Clients', icon: 'pi pi-building', value: firmClients, ...(overview ? { note: `${formatCount(overview.totalClients)} active` } : {}) },
    { title: 'Active Users (7d)', icon: 'pi pi-users', value: overview?.activeUsers },
  ];
}
