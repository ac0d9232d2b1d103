import type { FirmImport } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import type { FirmExportsApi } from '@ledgerline/ui/firm-exports.tsx';

// Firm exports and imports are platform calls: never a tenant prefix.
export const firmExportsApi = (company: { id: number; shortName: string }): FirmExportsApi => ({
  listUrl: `/api/companies/${company.id}/exports`, startUrl: `/api/companies/${company.id}/export`, shortName: company.shortName,
});

export function startImport(file: File, name: string, shortName: string): Promise<FirmImport> {
  const form = new FormData();
  form.append('name', name);
  form.append('shortName', shortName);
  form.append('file', file);
  return apiJson('POST', '/api/companies/import', form);
}

export const importStatus = (id: string): Promise<FirmImport> => apiJson('GET', `/api/companies/imports/${id}`);
