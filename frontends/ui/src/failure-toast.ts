import { useEffect } from 'react';
import { showToast } from '@ledgerline/ui/toast-store.ts';

/**
 * Shows `detail` as an error toast once per failed load of a query (spec 000 §8 'Error'
 * toasts such as 'Failed to fetch clients'): keyed on the failure's time, so a retry that
 * fails again says so again, and a re-render does not.
 */
export function useFailureToast(query: { isError: boolean; errorUpdatedAt: number }, detail: string): void {
  const failedAt = query.isError ? query.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) showToast({ severity: 'error', summary: 'Error', detail });
  }, [failedAt, detail]);
}
