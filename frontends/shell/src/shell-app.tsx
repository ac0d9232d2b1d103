import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider } from '@tanstack/react-query';
import { PrimeReactProvider } from 'primereact/api';
import { BrowserRouter } from 'react-router-dom';
import { AuthProvider } from '@ledgerline/ui/auth-context.tsx';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { PRIME_REACT_CONFIG } from './prime-react-config.ts';
import { ShellRoutes } from './shell-routes.tsx';

export interface ShellAppProps {
  queryClient: QueryClient;
  routes: readonly ShellRoute[];
  navItems: readonly ShellNavItem[];
}

/** Providers every page relies on; remotes reach them through the shared singletons. */
export function ShellApp({ queryClient, routes, navItems }: ShellAppProps) {
  return (
    <PrimeReactProvider value={PRIME_REACT_CONFIG}>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <BrowserRouter>
            <ShellRoutes routes={routes} navItems={navItems} />
          </BrowserRouter>
        </AuthProvider>
      </QueryClientProvider>
    </PrimeReactProvider>
  );
}
