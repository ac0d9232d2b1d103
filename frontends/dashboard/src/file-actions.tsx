import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { downloadFile, viewFile, type FileRef } from '@ledgerline/ui/file-access.ts';
import { ACTIVITY_RESOURCES } from './dashboard.api.ts';

/**
 * View and download buttons of a row that names a file. The shared file-access module checks
 * the token, shows the toasts and records the activity; once that record has landed the feed
 * and the figures are refetched, so the new view or download shows at once.
 */
export function FileActions({ file }: { file: FileRef }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'view' | 'download' | null>(null);
  const options = { strictToken: true, onRecorded: () => void invalidateApiResources(queryClient, ACTIVITY_RESOURCES) };
  const run = (kind: 'view' | 'download') => async () => {
    setBusy(kind);
    try {
      // Never rejects: file-access turns every failure into a toast.
      await (kind === 'view' ? viewFile(file, options) : downloadFile(file, options));
    } finally {
      setBusy(null);
    }
  };
  const tooltipOptions = { position: 'top' } as const;
  return (
    <div className="record-actions">
      <Button
        icon="pi pi-eye"
        rounded
        text
        aria-label={`View ${file.originalName}`}
        tooltip="View"
        tooltipOptions={tooltipOptions}
        loading={busy === 'view'}
        disabled={busy !== null}
        onClick={run('view')}
      />
      <Button
        icon="pi pi-download"
        rounded
        text
        severity="success"
        aria-label={`Download ${file.originalName}`}
        tooltip="Download"
        tooltipOptions={tooltipOptions}
        loading={busy === 'download'}
        disabled={busy !== null}
        onClick={run('download')}
      />
    </div>
  );
}
