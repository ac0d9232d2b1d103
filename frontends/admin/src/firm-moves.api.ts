import type { FirmArchiveOrigin, FirmImport } from '@ledgerline/contracts/identity.contracts.ts';
import { ApiError, apiJson } from '@ledgerline/ui/api-client.ts';
import type { FirmExportsApi } from '@ledgerline/ui/firm-exports.tsx';

// Firm exports and imports are platform calls: never a tenant prefix.
export const firmExportsApi = (company: { id: number; shortName: string }): FirmExportsApi => ({
  listUrl: `/api/companies/${company.id}/exports`, startUrl: `/api/companies/${company.id}/export`, shortName: company.shortName,
});

/** `confirm`: the platform admin's yes to an archive not signed by this or a trusted installation. */
export function startImport(file: File, name: string, shortName: string, confirm = false): Promise<FirmImport> {
  const form = new FormData();
  form.append('name', name);
  form.append('shortName', shortName);
  if (confirm) form.append('confirm', 'true');
  form.append('file', file);
  return apiJson('POST', '/api/companies/import', form);
}

export const importStatus = (id: string): Promise<FirmImport> => apiJson('GET', `/api/companies/imports/${id}`);

/** The archive's origin when the server asks for confirmation (409 with `details.origin`), else null. */
export function originToConfirm(error: unknown): FirmArchiveOrigin | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  try {
    return (JSON.parse(error.body) as { details?: { origin?: FirmArchiveOrigin } }).details?.origin ?? null;
  } catch {
    return null;
  }
}

/** What the import screen says of an archive's signature. */
export function originText(origin: FirmArchiveOrigin): string {
  switch (origin.signer) {
    case 'this-installation': return 'Signed by this installation.';
    case 'trusted-installation': return `Signed by a trusted installation (key ${origin.keyId}).`;
    case 'unknown-installation': return `Signed by an unknown installation (key ${origin.keyId}); imported on your confirmation.`;
    default: return 'Not signed; imported on your confirmation.';
  }
}
