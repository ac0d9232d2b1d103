import 'primereact/resources/themes/lara-light-blue/theme.css';
import 'primeicons/primeicons.css';
import '@ledgerline/ui/theme.css';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@ledgerline/ui/api-client.ts';
// Provided by the host, so the documents remote (Chat buttons) and the chat remote (the
// dialog) share one launcher registry whichever of them loads first.
import '@ledgerline/ui/file-chat-launcher.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import { LoadingScreen } from './loading-screen.tsx';
import { loadRemotes } from './remote-loader.ts';
import { ShellApp } from './shell-app.tsx';
import { SHELL_OWN_ROUTES } from './shell-own-routes.tsx';
import { createShellRegistry } from './shell-registry.ts';

async function start(container: HTMLElement): Promise<void> {
  const root = createRoot(container);
  root.render(<LoadingScreen />);
  // Routes are mounted once every remote has registered (or failed), so a deep link
  // never flashes the not-found page before its remote arrives.
  const registry = createShellRegistry(SHELL_OWN_ROUTES, SPEC_NAV_ITEMS);
  await loadRemotes(registry);
  root.render(<ShellApp queryClient={createQueryClient()} routes={registry.routes()} navItems={registry.navItems()} />);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void start(container);
