import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import type { FirmExport } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson, apiRequest } from '@ledgerline/ui/api-client.ts';
import { formatDate } from './date-format.ts';
import { saveBlob } from './file-access.ts';
import { formatByteSize } from './file-size.ts';
import { failureReason } from './server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';

/**
 * A firm's exports: start one, watch its progress, download the archive. The admin
 * console's firm dialog (`/api/companies/{id}/export…`) and a firm Admin's Settings →
 * Export (`/api/{tenant}/export…`) differ only in where they ask.
 */
export interface FirmExportsApi {
  /** GET lists the exports; `<listUrl>/<id>/download` downloads one. */
  listUrl: string;
  /** POST starts one. */
  startUrl: string;
  /** Names the saved archive: `<shortName>-<date>.tar`. */
  shortName: string;
}

export function FirmExports({ api, enabled = true }: { api: FirmExportsApi; enabled?: boolean }) {
  const queryClient = useQueryClient();
  const exports = useQuery({
    queryKey: [api.listUrl],
    queryFn: () => apiJson<FirmExport[]>('GET', api.listUrl),
    enabled,
    // Progress moves while one runs; nothing to watch otherwise.
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'running') ? 1000 : false),
  });
  const start = useMutation({
    mutationFn: () => apiJson<FirmExport>('POST', api.startUrl),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [api.listUrl] }),
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Start Export', detail: failureReason(error) }),
  });
  const download = useMutation({
    // The download needs the bearer token, so it is fetched first and then saved.
    mutationFn: async (e: FirmExport) => {
      const response = await apiRequest('GET', `${api.listUrl}/${e.id}/download`);
      saveBlob(await response.blob(), `${api.shortName}-${e.createdAt.slice(0, 10)}.tar`);
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Download Export', detail: failureReason(error) }),
  });

  return (
    <div className="firm-exports">
      <Button label="Start Export" icon="pi pi-download" onClick={() => start.mutate()} loading={start.isPending} />
      {exports.isError && <Message severity="error" text={failureReason(exports.error)} />}
      {exports.data?.length === 0 && <p className="firm-exports__empty">No exports yet.</p>}
      <ul className="firm-exports__list" aria-label="Exports">
        {(exports.data ?? []).map((e) => (
          <li key={e.id} className="firm-exports__item" data-status={e.status}>
            <span>{formatDate(e.createdAt)}</span>
            {e.status === 'running' && <ProgressBar value={e.progress} aria-label="Export progress" className="firm-exports__progress" />}
            {e.status === 'ready' && (
              <Button label={`Download (${formatByteSize(e.size ?? 0)})`} icon="pi pi-save" size="small" outlined
                loading={download.isPending && download.variables?.id === e.id} onClick={() => download.mutate(e)} />
            )}
            {e.status === 'failed' && <Message severity="error" text={e.message ?? 'The export failed.'} />}
          </li>
        ))}
      </ul>
    </div>
  );
}
