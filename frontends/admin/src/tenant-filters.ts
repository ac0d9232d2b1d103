import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

export type StatusFilter = 'all' | 'active' | 'inactive';

export const STATUS_FILTER_OPTIONS: readonly { label: string; value: StatusFilter }[] = [
  { label: 'All Tenants', value: 'all' },
  { label: 'Active Only', value: 'active' },
  { label: 'Inactive Only', value: 'inactive' },
];

export interface TenantFilters {
  search: string;
  status: StatusFilter;
}

export const NO_FILTERS: TenantFilters = { search: '', status: 'all' };

export const hasFilters = (filters: TenantFilters): boolean => filters.search.trim() !== '' || filters.status !== 'all';

/** Case-insensitive search over name and short name, then the status filter. */
export function filterTenants(companies: readonly Company[], filters: TenantFilters): Company[] {
  const needle = filters.search.trim().toLowerCase();
  return companies.filter((company) => {
    if (filters.status === 'active' && !company.isActive) return false;
    if (filters.status === 'inactive' && company.isActive) return false;
    return needle === '' || company.name.toLowerCase().includes(needle) || company.shortName.includes(needle);
  });
}

export const showingLine = (shown: number, total: number): string => `Showing ${shown} of ${total} tenants`;
