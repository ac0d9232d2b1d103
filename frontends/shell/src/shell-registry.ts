import type { ShellContract, ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';

/** Collects what the shell and its remotes register before the first routed render. */
export interface ShellRegistry extends ShellContract {
  routes(): readonly ShellRoute[];
  navItems(): readonly ShellNavItem[];
}

export function createShellRegistry(routes: readonly ShellRoute[], navItems: readonly ShellNavItem[]): ShellRegistry {
  let currentRoutes = [...routes];
  let currentNavItems = [...navItems];
  return {
    // A later registration of the same path wins: a remote can take over a shell default.
    addRoutes: (added) => {
      currentRoutes = mergeByKey(currentRoutes, added, (route) => route.path);
    },
    addNavItems: (added) => {
      currentNavItems = mergeByKey(currentNavItems, added, (item) => item.id);
    },
    routes: () => currentRoutes,
    navItems: () => currentNavItems,
  };
}

/** Additions replace entries with the same key in place; new keys are appended. */
export function mergeByKey<T>(base: readonly T[], additions: readonly T[], key: (entry: T) => string): T[] {
  const merged = [...base];
  for (const entry of additions) {
    const index = merged.findIndex((existing) => key(existing) === key(entry));
    if (index === -1) merged.push(entry);
    else merged[index] = entry;
  }
  return merged;
}
