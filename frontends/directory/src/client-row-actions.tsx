import { Button } from 'primereact/button';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { RecordActions } from '@ledgerline/ui/record-actions.tsx';

export interface ClientRowActionsProps {
  client: Client;
  onEdit(): void;
  onGoogleDrive(): void;
  onCopyLink(): void;
  onDownloadDocuments(): void;
  onDelete(): void;
}

/** The Actions column of Client Management; Google Drive Setup only for clients that upload there. */
export function ClientRowActions({ client, onEdit, onGoogleDrive, onCopyLink, onDownloadDocuments, onDelete }: ClientRowActionsProps) {
  const tooltipOptions = { position: 'top' } as const;
  return (
    <RecordActions name={client.name} onEdit={onEdit} onDelete={onDelete}>
      {client.uploadDestination === 'google_drive' && (
        <Button
          icon="pi pi-google"
          rounded
          text
          severity="success"
          aria-label={`Google Drive Setup for ${client.name}`}
          tooltip="Google Drive Setup"
          tooltipOptions={tooltipOptions}
          onClick={onGoogleDrive}
        />
      )}
      <Button
        icon="pi pi-link"
        rounded
        text
        severity="info"
        aria-label={`Copy portal link for ${client.name}`}
        tooltip="Copy portal link"
        tooltipOptions={tooltipOptions}
        onClick={onCopyLink}
      />
      <Button
        icon="pi pi-file-export"
        rounded
        text
        aria-label={`Download documents of ${client.name}`}
        tooltip="Download documents (ZIP)"
        tooltipOptions={tooltipOptions}
        onClick={onDownloadDocuments}
      />
    </RecordActions>
  );
}
