import { firmCountryFromZone, type ClientDateCountry } from '@ledgerline/contracts/client-date.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useFirmInfo } from '@ledgerline/ui/firm-today.ts';

/**
 * The country whose way of writing dates a Client user reads (issue 40): formatDate(value,
 * { country }) writes "Apr 8, 2027" for a US firm, "8 Apr 2027" for a UK, Indian or
 * Australian one. Staff keep the firm's numeric format (undefined). The firm's `country`
 * (GET /api/{tenant}/info), else the country its time zone names (firmCountryFromZone).
 */
export function useClientDateCountry(): ClientDateCountry | undefined {
  const { state } = useAuth();
  const isClient = state.status === 'authenticated' && isClientRole(state.user.role);
  const info = useFirmInfo(undefined, isClient);
  if (!isClient || !info) return undefined;
  return info.country ?? firmCountryFromZone(info.timeZone);
}
