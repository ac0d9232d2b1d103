import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import type { Company, FirmExport } from '@ledgerline/contracts/identity.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { downloadExport, exportsUrl, formatSize, listExports, startExport } from './firm-moves.api.ts';

/** A firm's exports: start one, watch its progress, download the archive (docs/running/backup-restore.md). */
export function FirmExportsDialog({ company, onClose }: { company: Company | null; onClose(): void }) {
  const shown = useRetained(company);
  const queryClient = useQueryClient();
  const exports = useQuery({
    queryKey: [exportsUrl(shown?.id ?? 0)],
    queryFn: () => listExports(shown!.id),
    enabled: Boolean(company),
    // Progress moves while one runs; nothing to watch otherwise.
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'running') ? 1000 : false),
  });
  const start = useMutation({
    mutationFn: () => startExport(shown!.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [exportsUrl(shown!.id)] }),
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Start Export', detail: failureReason(error) }),
  });
  const download = useMutation({
    mutationFn: (e: FirmExport) => downloadExport(shown!.id, e.id, `${shown!.shortName}-${e.createdAt.slice(0, 10)}.tar`),
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Download Export', detail: failureReason(error) }),
  });

  return (
    <Dialog header={shown ? `Export ${shown.name}` : ''} visible={Boolean(company)} onHide={onClose} className="firm-moves-dialog" breakpoints={{ '640px': '95vw' }}>
      <p className="firm-moves-dialog__intro">
        An archive of everything in this firm: users, clients, files with their text, tasks, compliance, insights and messages. Import it as a new firm here or on another installation.
      </p>
      <Button label="Start Export" icon="pi pi-download" onClick={() => start.mutate()} loading={start.isPending} />
      {exports.isError && <Message severity="error" text={failureReason(exports.error)} />}
      <ul className="firm-moves-list" aria-label="Exports">
        {(exports.data ?? []).map((e) => (
          <li key={e.id} className="firm-moves-list__item" data-status={e.status}>
            <span>{formatDate(e.createdAt)}</span>
            {e.status === 'running' && <ProgressBar value={e.progress} aria-label="Export progress" className="firm-moves-list__progress" />}
            {e.status === 'ready' && (
              <Button label={`Download (${formatSize(e.size)})`} icon="pi pi-save" size="small" outlined loading={download.isPending && download.variables?.id === e.id} onClick={() => download.mutate(e)} />
            )}
            {e.status === 'failed' && <Message severity="error" text={e.message ?? 'The export failed.'} />}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
