import { useQuery } from '@tanstack/react-query';
import { firmCountryFromZone } from '@ledgerline/contracts/client-date.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { firmInfoQuery } from '@ledgerline/ui/firm-today.ts';

/** The firm's public facts (GET /api/{tenant}/info) a client-facing date needs. */
interface FirmInfo { timeZone: string; country?: string | null }

/**
 * The country whose way of writing dates a Client user reads (issue 40): formatDate(value,
 * { country }) writes "Apr 8, 2027" for a US firm, "8 Apr 2027" for a UK, Indian or
 * Australian one. Staff keep the fixed format (undefined). The firm's `country` once /info
 * carries it, else the country its time zone names (firmCountryFromZone).
 */
export function useClientDateCountry(): string | undefined {
  const { state } = useAuth();
  const isClient = state.status === 'authenticated' && isClientRole(state.user.role);
  const info = useQuery<FirmInfo>({ ...firmInfoQuery(), enabled: isClient });
  if (!isClient || !info.data) return undefined;
  return info.data.country ?? firmCountryFromZone(info.data.timeZone);
}
