import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { matchRoutes } from 'react-router-dom';
import type { RegisterRemote, RouteDeclaration, ShellContract, ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { expandRoutes } from './route-table.ts';

/** One entry of the gateway's /frontends.json. */
export interface RemoteEntry {
  name: string;
  manifestUrl: string;
  /** The remote's declared pages (its routes.json); absent for a remote built without one. */
  routes?: RouteDeclaration[];
  navItems?: ShellNavItem[];
  loadOnSignIn?: boolean;
}

/** What a remote's register() handed over. */
export interface Registration {
  routes: ShellRoute[];
  navItems: ShellNavItem[];
}

/** A remote that has not answered by then is given up, so one slow host cannot hold the shell. */
const REMOTE_LOAD_TIMEOUT_MS = 10_000;

/**
 * Reads the gateway's remote list and plugs every remote's pages into the shell. A remote
 * that declares its pages (routes.json) is not loaded now: each of its pages is a
 * placeholder (`declaredPage`) that loads the remote when first shown, so the login page
 * fetches the shell and the sign-in remote only. A remote without declarations is loaded
 * and registered at once, as before. Failures are logged and skipped.
 */
export async function loadRemotes(shell: ShellContract, declaredPage: (remote: string, path: string) => ShellRoute['element']): Promise<void> {
  const remotes = await fetchRemoteList();
  registerRemotes(remotes.map((remote) => ({ name: remote.name, entry: remote.manifestUrl })));
  const eager: Promise<void>[] = [];
  for (const remote of remotes) {
    if (remote.routes) {
      shell.addRoutes(remote.routes.map((route) => ({ ...route, element: declaredPage(remote.name, route.path) })));
      shell.addNavItems(remote.navItems ?? []);
      if (remote.loadOnSignIn) signInRemotes.push(remote.name);
    } else {
      eager.push(
        registration(remote.name).then(
          (registered) => {
            shell.addRoutes(registered.routes);
            shell.addNavItems(registered.navItems);
          },
          (error: unknown) => console.error(`Remote '${remote.name}' failed to load; continuing without it`, error),
        ),
      );
    }
  }
  // The page being opened needs its remote: fetched now, alongside the shell's own first render.
  const opening = remoteOf(remotes, window.location.pathname);
  if (opening) void registration(opening);
  await Promise.all(eager);
}

/** The remote that declares the page at `pathname` (react-router's ranking, as the routes themselves). */
function remoteOf(remotes: readonly RemoteEntry[], pathname: string): string | undefined {
  const entries = remotes.flatMap((remote) => expandRoutes((remote.routes ?? []).map((route) => ({ ...route, element: null }))).map((entry) => ({ ...entry, remote: remote.name })));
  return matchRoutes(entries, pathname)?.[0]?.route.remote;
}

const registrations = new Map<string, Promise<Registration>>();
/** On a processor that is never idle, the sign-in remotes wait no longer than this for a quiet moment. */
const SIGN_IN_REMOTES_WAIT_MS = 2000;
const signInRemotes: string[] = [];

/**
 * Loads, in the background, the remotes that asked to be there for every signed-in page
 * (RemoteDeclarations.loadOnSignIn); the signed-in layout calls it, the sign-in pages never do.
 * They wait for the remotes already on their way (the page being opened) and for an idle
 * moment, so the first page does not share the network and the processor with them.
 */
export function loadSignInRemotes(): void {
  void Promise.allSettled(registrations.values()).then(() => requestIdleCallback(() => {
    for (const name of signInRemotes) {
      registration(name).catch((error: unknown) => console.error(`Remote '${name}' failed to load; continuing without it`, error));
    }
  }, { timeout: SIGN_IN_REMOTES_WAIT_MS }));
}

/** The remote's register() result, loading the remote on the first call only. */
export function registration(remoteName: string): Promise<Registration> {
  let pending = registrations.get(remoteName);
  if (!pending) {
    pending = withTimeout(loadRemote<{ default?: RegisterRemote }>(`${remoteName}/register`), remoteName).then((module) => collect(module?.default));
    // A failed load may be retried by a later visit (a network blip must not stick).
    pending.catch(() => registrations.delete(remoteName));
    registrations.set(remoteName, pending);
  }
  return pending;
}

/** Collected first and handed over only when register() returns, so a remote that throws half-way leaves nothing behind. */
export function collect(register: unknown): Registration {
  if (typeof register !== 'function') throw new Error('its ./register has no default export function');
  const routes: ShellRoute[] = [];
  const navItems: ShellNavItem[] = [];
  (register as RegisterRemote)({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
  return { routes, navItems };
}

async function fetchRemoteList(): Promise<RemoteEntry[]> {
  try {
    // As index.html preloads it (the server has it revalidated: Cache-Control no-cache).
    const response = await fetch('/frontends.json');
    if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
    const body = (await response.json()) as { remotes?: unknown };
    if (!Array.isArray(body.remotes)) throw new Error('frontends.json has no remotes list');
    return body.remotes.filter(isRemoteEntry);
  } catch (error) {
    console.error('Could not read /frontends.json; starting without remotes', error);
    return [];
  }
}

function isRemoteEntry(value: unknown): value is RemoteEntry {
  const entry = value as Partial<RemoteEntry> | null;
  return typeof entry?.name === 'string' && typeof entry.manifestUrl === 'string' && (entry.routes === undefined || Array.isArray(entry.routes));
}

function withTimeout<T>(promise: Promise<T>, remoteName: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer from '${remoteName}' within ${REMOTE_LOAD_TIMEOUT_MS} ms`)), REMOTE_LOAD_TIMEOUT_MS);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
