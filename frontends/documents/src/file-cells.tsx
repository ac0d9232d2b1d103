import { Tag } from 'primereact/tag';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { FILE_TYPE_LABELS } from './file-filters.ts';
import { SnippetText } from './snippet-text.tsx';

/**
 * The file's name and, on a content search, its best matching passage; under the name, the
 * invoice a document waits for (issue 43: its Client users cannot open it until it is paid).
 */
export function FileNameCell({ file }: { file: PortalFile }) {
  return (
    <div className="file-name">
      <span className="file-name__text">
        <i className="pi pi-file" aria-hidden="true" /> {file.originalName}
      </span>
      {file.waitingForPayment && (
        <span className="file-name__waiting"><i className="pi pi-lock" aria-hidden="true" /> Waiting for payment of {file.waitingForPayment.invoiceNumber}</span>
      )}
      {file.snippet && <SnippetText snippet={file.snippet} />}
    </div>
  );
}

export function FileTypeTag({ file }: { file: PortalFile }) {
  return (
    <div className="file-type">
      <Tag value={FILE_TYPE_LABELS[file.fileType] ?? file.fileType} severity={file.fileType === 'report' ? 'info' : 'secondary'} />
      {file.reportTypeName && <span className="file-type__detail">{file.reportTypeName}</span>}
    </div>
  );
}
