import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import { FirmExports } from '@ledgerline/ui/firm-exports.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { downloadReadableCopy } from './directory.api.ts';

/**
 * Settings → Export (Admins): an archive of the whole firm to keep or to move to another
 * installation, and beside it a readable copy (CSV tables and folders of documents) to open
 * without Ledgerline.
 */
export function FirmExportTab() {
  const shortName = readCurrentTenant()?.shortName ?? 'firm';
  const readable = useMutation({
    mutationFn: () => downloadReadableCopy(shortName),
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Download Readable Copy', detail: failureReason(error) }),
  });
  return (
    <section aria-labelledby="firm-export">
      <h3 id="firm-export">Export the firm</h3>
      <p className="firm-export__intro">
        One archive of everything in the firm: users with their sign-in, clients, files with their text, tasks, compliance,
        insights and messages. The firm keeps working while it is made. Keep it as a copy of your records, or give it to the
        administrator of another Ledgerline installation to import.
      </p>
      <FirmExports api={{ listUrl: apiPath('export'), startUrl: apiPath('export'), shortName }} />
      <h3 id="firm-readable-copy">Readable copy</h3>
      <p className="firm-export__intro">
        Users, clients, report types and tasks as spreadsheets (CSV), and each client&apos;s documents in a folder of its own, by
        tax year and report type: to read without Ledgerline. It cannot be imported.
      </p>
      <Button label="Download Readable Copy" icon="pi pi-file-export" outlined onClick={() => readable.mutate()} loading={readable.isPending} />
    </section>
  );
}
