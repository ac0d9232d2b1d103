import { useState } from 'react';
import { Button } from 'primereact/button';
import { downloadFile, viewFile, type FileRef } from '@ledgerline/ui/file-access.ts';

export interface FileAccessButtonProps {
  file: FileRef;
  kind: 'view' | 'download';
  /** Called once the activity-log post of the view or download has settled, so a feed can refetch. */
  onRecorded?: () => void;
}

const LOOKS = {
  view: { icon: 'pi pi-eye', label: 'View', severity: undefined },
  download: { icon: 'pi pi-download', label: 'Download', severity: 'success' },
} as const;

/**
 * The View or Download icon button of a row that names a file, on every screen that lists
 * files. file-access checks the token (strictly, as tables do: spec 001 §5), shows the
 * toasts and records the activity; the button spins while the file is fetched.
 */
export function FileAccessButton({ file, kind, onRecorded }: FileAccessButtonProps) {
  const [busy, setBusy] = useState(false);
  const look = LOOKS[kind];
  const run = async () => {
    setBusy(true);
    try {
      // Never rejects: file-access turns every failure into a toast.
      await (kind === 'view' ? viewFile : downloadFile)(file, { strictToken: true, onRecorded });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={look.icon}
      rounded
      text
      severity={look.severity}
      aria-label={`${look.label} ${file.originalName}`}
      tooltip={look.label}
      tooltipOptions={{ position: 'top' }}
      loading={busy}
      disabled={busy}
      onClick={() => void run()}
    />
  );
}
