import { Button } from 'primereact/button';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { FileAccessButton } from '@ledgerline/ui/file-access-button.tsx';
import { ChatButton } from './chat-button.tsx';
import { PaymentHoldControl } from './payment-hold.tsx';

export interface FileRowActionsProps {
  file: PortalFile;
  /** Offer the AI chat about the file (default true). */
  chat?: boolean;
  /** The client reports order: View, Chat, Download (spec 001 §2); otherwise View, Download, Chat. */
  chatFirst?: boolean;
  /** Shown only when given: each screen decides who may delete. */
  onDelete?: (() => void) | undefined;
}

/** The per-row buttons of a files table (spec 001 §2). */
export function FileRowActions({ file, chat = true, chatFirst = false, onDelete }: FileRowActionsProps) {
  const chatButton = chat ? <ChatButton file={file} /> : null;
  return (
    <div className="record-actions file-row-actions">
      <FileAccessButton file={file} kind="view" />
      {chatFirst && chatButton}
      <FileAccessButton file={file} kind="download" />
      {!chatFirst && chatButton}
      <PaymentHoldControl file={file} />
      {onDelete && (
        <Button icon="pi pi-trash" rounded text severity="danger" aria-label={`Delete ${file.originalName}`} tooltip="Delete" tooltipOptions={{ position: 'top' }} onClick={onDelete} />
      )}
    </div>
  );
}
