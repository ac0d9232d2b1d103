import { useEffect } from 'react';
import { saveCurrentTenant, type StoredTenant } from './auth-storage.ts';
import { useFirmInfo } from './firm-today.ts';

/**
 * Keeps the stored current firm's country (which the pages' date and number formats are read
 * from at load, firm-formats.ts) the firm's own: a sign-in from before countries, or a country
 * changed in the console since, is put right for the next page load.
 */
export function useFirmCountrySync(tenant: StoredTenant | null): void {
  const info = useFirmInfo(tenant?.shortName, tenant !== null);
  useEffect(() => {
    if (info && tenant && (tenant.country ?? null) !== (info.country ?? null)) saveCurrentTenant({ ...tenant, country: info.country });
  }, [info, tenant]);
}
