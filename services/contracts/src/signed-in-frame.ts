/*
 * What the home's first screen shows before any script runs: the gateway writes a copy of the
 * signed-in frame and the home's heading into the first HTML (gateway/src/home-page.ts), and
 * the app draws the same from these values (dashboard.page.tsx, ui/tenant-selector.tsx).
 */

/**
 * The Dashboard's heading, by who is looking. A Client user's heading speaks to them, in words
 * as right for a person (an individual client) as for a company's contact: the first HTML is
 * drawn before anyone knows which of the two the client is.
 */
export const HOME_HEADING = {
  staff: { title: 'Firm Dashboard', subtitle: 'Your work first, then documents, activity and engagement across your clients' },
  client: { title: 'Your Dashboard', subtitle: 'What is due from you, and your documents' },
} as const;

/** Roles (lower case) whose header carries the tenant selector; platform administrators have it too (spec 000 §6). */
export const TENANT_SWITCHING_ROLES: readonly string[] = ['admin', 'dta'];
