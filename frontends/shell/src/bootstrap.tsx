import 'primereact/resources/themes/lara-light-blue/theme.css';
import 'primeicons/primeicons.css';
import '@ledgerline/ui/theme.css';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createQueryClient } from '@ledgerline/ui/api-client.ts';
import { readStoredAuth } from '@ledgerline/ui/auth-storage.ts';
// Provided by the host, so the documents remote (Chat buttons) and the chat remote (the
// dialog) share one launcher registry whichever of them loads first.
import '@ledgerline/ui/file-chat-launcher.ts';
import { SPEC_NAV_ITEMS } from '@ledgerline/ui/nav-items.ts';
import { LoadingScreen } from './loading-screen.tsx';
import { declaredPage } from './declared-page.tsx';
import { keepEscapeInOpenOverlays } from './overlay-escape.ts';
import { loadRemotes } from './remote-loader.ts';
import { ShellApp } from './shell-app.tsx';
import { SHELL_OWN_ROUTES } from './shell-own-routes.tsx';
import { preloadShellLayout } from './shell-routes.tsx';
import { createShellRegistry } from './shell-registry.ts';

async function start(container: HTMLElement): Promise<void> {
  // A task of its own: the modules above (React DOM, the router, the query cache, the shell)
  // have just run, in one task of 40-60 ms of a desktop's processor; four times that on a phone.
  await new Promise((resolve) => setTimeout(resolve));
  keepEscapeInOpenOverlays(document.body);
  const root = createRoot(container);
  root.render(<LoadingScreen />);
  if (readStoredAuth()) preloadShellLayout();
  // Routes are mounted once every remote's pages are known (declared, or registered by the
  // remotes without declarations), so a deep link never flashes the not-found page.
  const registry = createShellRegistry(SHELL_OWN_ROUTES, SPEC_NAV_ITEMS);
  await loadRemotes(registry, declaredPage);
  // As a transition, React renders the app in slices that yield to the browser every few
  // milliseconds, instead of one task that holds a phone's processor (and its first taps) for
  // the whole first render; 'Loading...' stays until the app is ready to show.
  startTransition(() => root.render(<ShellApp queryClient={createQueryClient()} routes={registry.routes()} navItems={registry.navItems()} />));
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
void start(container);
