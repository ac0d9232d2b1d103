import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
/** The company list (GET /api/companies): the tenant selector and the administrator portal share its cache. */
export const COMPANIES_QUERY_KEY = ['/api/companies'] as const;

/** The fields of a company every reader of the list relies on. */
export interface CompanySummary {
  id: number;
  name: string;
  shortName: string;
  isActive: boolean;
  country?: FirmCountry | null;
}
