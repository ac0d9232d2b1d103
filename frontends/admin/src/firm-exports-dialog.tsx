import { Dialog } from 'primereact/dialog';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { FirmExports } from '@ledgerline/ui/firm-exports.tsx';
import { useRetained } from '@ledgerline/ui/use-retained.ts';
import { firmExportsApi } from './firm-moves.api.ts';

/** A firm's exports: start one, watch its progress, download the archive (docs/running/backup-restore.md). */
export function FirmExportsDialog({ company, onClose }: { company: Company | null; onClose(): void }) {
  const shown = useRetained(company);
  return (
    <Dialog header={shown ? `Export ${shown.name}` : ''} visible={Boolean(company)} onHide={onClose} className="firm-moves-dialog" breakpoints={{ '640px': '95vw' }}>
      <p className="firm-moves-dialog__intro">
        An archive of everything in this firm: users, clients, files with their text, tasks, compliance, insights and messages. Import it as a new firm here or on another installation.
      </p>
      {shown && <FirmExports api={firmExportsApi(shown)} enabled={Boolean(company)} />}
    </Dialog>
  );
}
