import { ProgressBar } from 'primereact/progressbar';
import { useId, useState, type DragEvent } from 'react';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ITEM_FILE_ACCEPT } from './request-view.ts';
import { uploadItemFile } from './requests.api.ts';

/**
 * Drop files here or pick them; on a phone "Take Photo" opens the camera (`capture`), while
 * "Choose Files" still offers the phone's files. Files go up one after another, with progress.
 */
export function ItemUpload({ requestId, itemId, itemTitle, onUploaded }: { requestId: number; itemId: number; itemTitle: string; onUploaded(): void }) {
  const [progress, setProgress] = useState<{ name: string; percent: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const id = useId();
  const upload = async (files: readonly File[]) => {
    for (const file of files) {
      setProgress({ name: file.name, percent: 0 });
      try {
        await uploadItemFile(requestId, itemId, file, (percent) => setProgress({ name: file.name, percent }));
        showToast({ severity: 'success', summary: 'File Uploaded', detail: `${file.name} for ${itemTitle}` });
      } catch (err) {
        showToast({ severity: 'error', summary: 'Upload Failed', detail: serverMessage(err) ?? `${file.name} could not be uploaded` });
        break;
      } finally {
        setProgress(null);
      }
    }
    onUploaded();
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!progress) void upload([...e.dataTransfer.files]);
  };
  const picked = (input: HTMLInputElement) => {
    const files = [...(input.files ?? [])];
    input.value = '';
    void upload(files);
  };
  return (
    <div className={dragging ? 'item-upload item-upload--dragging' : 'item-upload'}
      onDragOver={(e) => { e.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={drop}>
      {progress ? (
        <div className="item-upload__progress" role="status">
          <small>Uploading {progress.name}… {progress.percent}%</small>
          <ProgressBar value={progress.percent} showValue={false} aria-label={`Uploading ${progress.name}`} />
        </div>
      ) : (
        <>
          <span className="item-upload__hint"><i className="pi pi-cloud-upload" aria-hidden="true" /> Drop files here or</span>
          <label className="p-button p-button-sm p-button-outlined item-upload__pick" htmlFor={`${id}-files`}>Choose Files</label>
          <input id={`${id}-files`} className="item-upload__input" type="file" multiple accept={ITEM_FILE_ACCEPT}
            aria-label={`Upload files for ${itemTitle}`} onChange={(e) => picked(e.currentTarget)} />
          <label className="p-button p-button-sm p-button-outlined item-upload__camera" htmlFor={`${id}-camera`}><i className="pi pi-camera" aria-hidden="true" />&nbsp;Take Photo</label>
          <input id={`${id}-camera`} className="item-upload__input" type="file" accept="image/*" capture="environment"
            aria-label={`Take a photo for ${itemTitle}`} onChange={(e) => picked(e.currentTarget)} />
        </>
      )}
    </div>
  );
}
