import { Button } from 'primereact/button';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { downloadFile, viewFile } from '@ledgerline/ui/file-access.ts';
import { ChatButton } from './chat-button.tsx';

export interface FileRowActionsProps {
  file: PortalFile;
  /** Offer the AI chat about the file (default true). */
  chat?: boolean;
  /** The client reports order: View, Chat, Download (spec 001 §2); otherwise View, Download, Chat. */
  chatFirst?: boolean;
  /** Shown only when given: each screen decides who may delete. */
  onDelete?: (() => void) | undefined;
}

// Table views check the token strictly: three dot-separated parts (spec 001 §5).
const TABLE_ACCESS = { strictToken: true };

/** The per-row buttons of a files table (spec 001 §2). */
export function FileRowActions({ file, chat = true, chatFirst = false, onDelete }: FileRowActionsProps) {
  const name = file.originalName;
  const chatButton = chat ? <ChatButton file={file} /> : null;
  return (
    <div className="record-actions file-row-actions">
      <Button icon="pi pi-eye" rounded text aria-label={`View ${name}`} tooltip="View" tooltipOptions={{ position: 'top' }} onClick={() => void viewFile(file, TABLE_ACCESS)} />
      {chatFirst && chatButton}
      <Button icon="pi pi-download" rounded text aria-label={`Download ${name}`} tooltip="Download" tooltipOptions={{ position: 'top' }} onClick={() => void downloadFile(file, TABLE_ACCESS)} />
      {!chatFirst && chatButton}
      {onDelete && (
        <Button icon="pi pi-trash" rounded text severity="danger" aria-label={`Delete ${name}`} tooltip="Delete" tooltipOptions={{ position: 'top' }} onClick={onDelete} />
      )}
    </div>
  );
}
