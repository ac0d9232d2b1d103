import { useQuery } from '@tanstack/react-query';
import { getOptional } from '@ledgerline/ui/optional-query.ts';

/**
 * Dashboard data owned by services an installation may not run yet: loading, unavailable
 * (the service answered 404), failed, or the data.
 */
export type OptionalData<T> =
  | { state: 'loading' }
  | { state: 'unavailable' }
  | { state: 'failed'; error: unknown }
  | { state: 'ready'; data: T };

export function useOptionalData<T>(url: string): OptionalData<T> {
  const query = useQuery({ queryKey: [url], queryFn: ({ signal }) => getOptional<T>(url, signal) });
  if (query.isPending) return { state: 'loading' };
  if (query.isError) return { state: 'failed', error: query.error };
  return query.data === null ? { state: 'unavailable' } : { state: 'ready', data: query.data };
}
