import type { RequestItemFile } from '@ledgerline/contracts/requests.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { FileAccessButton } from '@ledgerline/ui/file-access-button.tsx';

/** An item's files with who sent them and when; View and Download go through the files API like every file list. */
export function ItemFiles({ files }: { files: readonly RequestItemFile[] }) {
  if (files.length === 0) return null;
  return (
    <ul className="request-item__files" aria-label="Files">
      {files.map((f) => (
        <li key={f.fileId}>
          <span className="request-item__file-name"><i className="pi pi-file" aria-hidden="true" /> {f.fileName}</span>
          <small>{f.uploadedByName}{f.viaLink ? ' · by link' : ''} · {formatDate(f.uploadedAt, { withTime: true })}</small>
          <span className="request-item__file-actions">
            <FileAccessButton file={{ id: f.fileId, originalName: f.fileName }} kind="view" />
            <FileAccessButton file={{ id: f.fileId, originalName: f.fileName }} kind="download" />
          </span>
        </li>
      ))}
    </ul>
  );
}
