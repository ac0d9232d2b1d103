import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import { declaredRoutes, type RegisterRemote } from '@ledgerline/ui/shell-contract.ts';
import { ROUTES } from './routes.ts';

const styles = () => import('./requests.css');

/** Exposed as './register': the Requests list and a request's page (staff review, client upload), and the organizers. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes(declaredRoutes(ROUTES, {
    requests: lazyPage(() => import('./requests.page.tsx'), 'RequestsPage', styles),
    request: lazyPage(() => import('./request.page.tsx'), 'RequestPage', styles),
    templates: lazyPage(() => import('./templates.page.tsx'), 'TemplatesPage', styles),
    organizers: lazyPage(() => import('./organizers.page.tsx'), 'OrganizersPage', styles),
    organizerTemplates: lazyPage(() => import('./organizer-templates.page.tsx'), 'OrganizerTemplatesPage', styles),
    organizer: lazyPage(() => import('./organizer.page.tsx'), 'OrganizerPage', styles),
    publicOrganizer: lazyPage(() => import('./public-organizer.page.tsx'), 'PublicOrganizerPage', styles),
  }));
};

export default register;
