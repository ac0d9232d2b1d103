// Module federation shares ui modules by their package name only; a relative import would
// bundle a second ApiError class (and a second toast store, …) into this module.
import { ApiError, apiJson } from '@ledgerline/ui/api-client.ts';

/**
 * GET for data owned by a service an installation may not run yet (clients, report types,
 * analytics): its 404 means "nothing here" and gives null, so screens show an empty state
 * instead of failing. Every other failure still throws.
 */
export async function getOptional<T>(url: string, signal?: AbortSignal): Promise<T | null> {
  try {
    return await apiJson<T>('GET', url, undefined, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
