import { lazy, type ComponentType } from 'react';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

/**
 * The shell runs every remote's register at boot, so pages (and their styles) are fetched
 * only when one of them is first shown; the shell's Suspense boundary covers the wait.
 */
function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy<ComponentType>(async () => {
    const [module] = await Promise.all([load(), import('@ledgerline/ui/components.css'), import('./directory.css')]);
    return { default: module[name] };
  });
  return <Page />;
}

/** Exposed as './register': the firm's client directory, report types, settings and the client portal page. */
const register: RegisterRemote = (shell) => {
  shell.addRoutes([
    { path: '/clients', element: lazyPage(() => import('./clients.page.tsx'), 'ClientsPage'), tenantScoped: true },
    { path: '/report-types', element: lazyPage(() => import('./report-types.page.tsx'), 'ReportTypesPage'), tenantScoped: true },
    { path: '/settings', element: lazyPage(() => import('./settings.page.tsx'), 'SettingsPage'), tenantScoped: true },
    { path: '/firm-details', element: lazyPage(() => import('./firm-details.page.tsx'), 'FirmDetailsPage'), tenantScoped: true },
    {
      path: '/:tenantName/client/:clientId/portal',
      element: lazyPage(() => import('./client-portal.page.tsx'), 'ClientPortalPage'),
      access: 'public',
    },
  ]);
};

export default register;
