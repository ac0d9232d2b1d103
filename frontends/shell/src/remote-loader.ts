import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RegisterRemote, ShellContract, ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';

/** One entry of the gateway's /frontends.json. */
export interface RemoteEntry {
  name: string;
  manifestUrl: string;
}

/** A remote that has not answered by then is given up, so one slow host cannot hold the shell. */
const REMOTE_LOAD_TIMEOUT_MS = 10_000;

/**
 * Loads every remote the gateway lists and lets each register itself. Any failure is logged
 * and skipped: the shell and the other remotes keep working.
 */
export async function loadRemotes(shell: ShellContract): Promise<void> {
  const remotes = await fetchRemoteList();
  registerRemotes(remotes.map((remote) => ({ name: remote.name, entry: remote.manifestUrl })));
  await Promise.all(remotes.map((remote) => registerRemote(remote, shell)));
}

async function fetchRemoteList(): Promise<RemoteEntry[]> {
  try {
    const response = await fetch('/frontends.json', { cache: 'no-cache' });
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
  return typeof entry?.name === 'string' && typeof entry.manifestUrl === 'string';
}

async function registerRemote(remote: RemoteEntry, shell: ShellContract): Promise<void> {
  try {
    const module = await withTimeout(loadRemote<{ default?: RegisterRemote }>(`${remote.name}/register`), remote.name);
    const register = module?.default;
    if (typeof register !== 'function') throw new Error('its ./register has no default export function');
    // Collected first and handed over only when register() returns, so a remote that
    // throws half-way leaves no half of its pages behind.
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    shell.addRoutes(routes);
    shell.addNavItems(navItems);
  } catch (error) {
    console.error(`Remote '${remote.name}' failed to load; continuing without it`, error);
  }
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
