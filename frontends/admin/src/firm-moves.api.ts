import type { FirmExport, FirmImport } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson, apiRequest } from '@ledgerline/ui/api-client.ts';
import { saveBlob } from '@ledgerline/ui/file-access.ts';

// Firm exports and imports are platform calls: never a tenant prefix.
export const exportsUrl = (companyId: number) => `/api/companies/${companyId}/exports`;

export const startExport = (companyId: number): Promise<FirmExport> => apiJson('POST', `/api/companies/${companyId}/export`);

export const listExports = (companyId: number): Promise<FirmExport[]> => apiJson('GET', exportsUrl(companyId));

/** Saves a finished archive through the browser (the download needs the bearer token, so it is fetched first). */
export async function downloadExport(companyId: number, exportId: string, fileName: string): Promise<void> {
  const response = await apiRequest('GET', `${exportsUrl(companyId)}/${exportId}/download`);
  saveBlob(await response.blob(), fileName);
}

export function startImport(file: File, name: string, shortName: string): Promise<FirmImport> {
  const form = new FormData();
  form.append('name', name);
  form.append('shortName', shortName);
  form.append('file', file);
  return apiJson('POST', '/api/companies/import', form);
}

export const importStatus = (id: string): Promise<FirmImport> => apiJson('GET', `/api/companies/imports/${id}`);

/** "12.3 MB" */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(unit ? 1 : 0)} ${units[unit]}`;
}
