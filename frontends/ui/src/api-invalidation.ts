import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Whether a query's key (whose first element is its URL, as with the generic query) reads
 * one of these API resources, in either path form: /api/files…, /api/{tenant}/files….
 */
export function readsApiResource(queryKey: QueryKey, resources: readonly string[]): boolean {
  const url = queryKey[0];
  if (typeof url !== 'string') return false;
  const path = url.split('?')[0] ?? '';
  const segments = path.split('/').filter(Boolean);
  if (segments[0] !== 'api') return false;
  // /api/{resource}… or /api/{tenant}/{resource}…
  return resources.some((resource) => segments[1] === resource || segments[2] === resource);
}

/**
 * Marks every cached query of these resources stale and refetches the active ones, e.g.
 * after an upload: activity logs, files, clients and users (spec 001 §2).
 */
export function invalidateApiResources(queryClient: QueryClient, resources: readonly string[]): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => readsApiResource(query.queryKey, resources) });
}
