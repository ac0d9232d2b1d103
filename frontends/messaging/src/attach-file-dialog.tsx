import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { useEffect, useState } from 'react';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { formatFileSize } from '@ledgerline/ui/file-size.ts';
import type { Attachment } from './messaging.api.ts';

/** Rows the picker lists: the newest files, or the best matches of what is typed. */
const PICKER_ROWS = 10;
/** Typing settles this long before the files service is asked. */
const SEARCH_DELAY_MS = 250;

/**
 * 'Attach a File': the files the user may open (the files service's own list and search,
 * so a Client user is offered only their client's files), one picked per message. The
 * service checks again when the message is sent.
 */
export function AttachFileDialog({ visible, onHide, onPick }: { visible: boolean; onHide(): void; onPick(file: Attachment): void }) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => { if (visible) { setTyped(''); setSearch(''); } }, [visible]);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const files = useQuery<PortalFile[]>({ queryKey: [apiQueryPath('files', { search: search || undefined, limit: PICKER_ROWS })], enabled: visible });
  const list = files.data ?? [];

  return (
    <Dialog header="Attach a File" visible={visible} onHide={onHide} className="attach-dialog" breakpoints={{ '640px': '95vw' }}>
      <label htmlFor="attach-search" className="attach-dialog__label">Search files</label>
      <InputText id="attach-search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="File name or content" autoFocus />
      <ul className="attach-dialog__files" aria-label="Files">
        {files.isLoading && <li className="attach-dialog__empty">Loading...</li>}
        {!files.isLoading && list.length === 0 && <li className="attach-dialog__empty">No files found</li>}
        {list.map((f) => (
          <li key={f.id}>
            <Button text className="attach-dialog__file" onClick={() => { onPick({ id: f.id, name: f.originalName }); onHide(); }}
              aria-label={`Attach ${f.originalName}`}>
              <i className="pi pi-file" aria-hidden="true" />
              <span className="attach-dialog__name">{f.originalName}</span>
              <span className="attach-dialog__meta">{[f.clientName, formatFileSize(f.size)].filter(Boolean).join(' · ')}</span>
            </Button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
