import type { RouteDeclaration } from '@ledgerline/ui/shell-contract.ts';

/**
 * The document-request pages (issue 27), known to the shell before the remote loads. Other
 * screens link to exactly these: notifications (/requests/{id}), the dashboard and the
 * compliance tracker. Client users see their own client's requests on the same pages.
 */
export const ROUTES = {
  requests: { path: '/requests', tenantScoped: true, title: 'Requests', audience: ['staff', 'client'] },
  // Before /requests/:id in spirit: the router ranks the fixed segment first.
  templates: { path: '/requests/templates', tenantScoped: true, title: 'Request Templates', audience: ['staff'] },
  // Organizers (issue 42): questionnaires, beside document requests in the "what we need from you" family.
  organizers: { path: '/requests/organizers', tenantScoped: true, title: 'Organizers', audience: ['staff'] },
  organizerTemplates: { path: '/requests/organizer-templates', tenantScoped: true, title: 'Organizer Templates', audience: ['staff'] },
  organizer: { path: '/requests/organizers/:id', tenantScoped: true, title: 'Organizer', audience: ['staff', 'client'] },
  // A link for someone without an account (PUBLIC_BASE_URL + ORGANIZER_PUBLIC_PAGE_PREFIX + token): outside the signed-in frame.
  publicOrganizer: { path: '/organizer/:token', access: 'public', title: 'Organizer' },
  request: { path: '/requests/:id', tenantScoped: true, title: 'Document Request', audience: ['staff', 'client'] },
} satisfies Record<string, RouteDeclaration>;
