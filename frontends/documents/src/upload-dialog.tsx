import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { ProgressBar } from 'primereact/progressbar';
import type { FileType, FirmDocumentType, UploadResult } from '@ledgerline/contracts/files.contracts.ts';
import { useDiscardGuard } from '@ledgerline/ui/discard-guard.tsx';
import { formatFileSize } from '@ledgerline/ui/file-size.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { uploadWithProgress } from '@ledgerline/ui/upload-request.ts';
import { filesPath } from './documents.api.ts';
import { useClients, useReportTypes, useUploadRefresh } from './documents.queries.ts';
import { DOCUMENT_TYPE_OPTIONS } from './firm-document.model.ts';
import {
  addEntries,
  fileTypeOptions,
  initialUploadValues,
  NO_CLIENT,
  pendingEntries,
  uploadDisabled,
  uploadFailureMessage,
  uploadFields,
  uploadFormData,
  uploadProblem,
  visibleFields,
  clientOptional,
  type UploadEntry,
  type UploadFormValues,
} from './upload-form.model.ts';

export interface UploadDialogProps {
  visible: boolean;
  onClose(): void;
  /** Offer the firm document type (the firm documents screen only). */
  allowFirmDocument?: boolean;
  /** Starting values, e.g. the page's chosen client and report type. */
  preset?: Partial<UploadFormValues>;
}

/**
 * 'Add Data' (spec 001 §2 "Upload dialog"), shared by the reports page, the file panel and firm documents.
 * Closing it with files chosen or fields changed but not uploaded asks first; during and after an upload it does not.
 */
export function UploadDialog({ visible, onClose, allowFirmDocument = false, preset }: UploadDialogProps) {
  const [pending, setPending] = useState(false);
  const guard = useDiscardGuard(visible, onClose);
  const requestClose = () => { if (!pending) guard.requestClose(); };
  return (
    <Dialog
      header="Add Data"
      visible={visible}
      onHide={requestClose}
      closable={!pending}
      className="upload-dialog"
    >
      {/* Mounted only while open, so every opening starts from the preset with no files. */}
      {visible && (
        <UploadForm
          allowFirmDocument={allowFirmDocument}
          preset={preset}
          pending={pending}
          setPending={setPending}
          setChanged={guard.setChanged}
          onCancel={requestClose}
          onClose={onClose}
        />
      )}
      {guard.question}
    </Dialog>
  );
}

interface UploadFormProps {
  allowFirmDocument: boolean;
  preset: Partial<UploadFormValues> | undefined;
  pending: boolean;
  setPending(pending: boolean): void;
  /** Whether anything chosen here is not uploaded yet (closing then asks first). */
  setChanged(changed: boolean): void;
  /** Cancel: asks first when something is not uploaded. */
  onCancel(): void;
  /** Closes without asking (after a successful upload). */
  onClose(): void;
}

const sameValues = (a: UploadFormValues, b: UploadFormValues): boolean =>
  a.fileType === b.fileType && a.clientId === b.clientId && a.reportTypeId === b.reportTypeId && a.documentType === b.documentType;

function UploadForm({ allowFirmDocument, preset, pending, setPending, setChanged, onCancel, onClose }: UploadFormProps) {
  const clients = useClients();
  const reportTypes = useReportTypes();
  const refresh = useUploadRefresh();
  const [values, setValues] = useState(() => initialUploadValues(preset));
  // The fields as opened or as last uploaded with: a change from them is unsaved input.
  const [savedValues, setSavedValues] = useState(values);
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const fields = visibleFields(values.fileType);
  const toSend = pendingEntries(entries);
  const problem = uploadProblem(values, toSend.length);
  // Files never sent, or fields changed since: an upload (even a failed one) counts as saving them.
  const changed = entries.some((entry) => entry.status === 'queued') || !sameValues(values, savedValues);
  useEffect(() => setChanged(changed), [changed, setChanged]);

  const changeFileType = (fileType: FileType) =>
    setValues((current) => ({
      ...current,
      fileType,
      // A firm document starts without a client; a report needs a real one.
      clientId: clientOptional(fileType) && current.clientId === null ? NO_CLIENT : fileType === 'report' && current.clientId === NO_CLIENT ? null : current.clientId,
    }));
  const update = (key: string, patch: Partial<UploadEntry>) =>
    setEntries((current) => current.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)));
  const addFiles = (files: FileList | null) => {
    // Copied now: the input's FileList empties when its value is reset right after.
    const chosen = Array.from(files ?? []);
    if (chosen.length) setEntries((current) => addEntries(current, chosen));
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    if (!pending) addFiles(event.dataTransfer.files);
  };

  async function upload() {
    if (uploadDisabled(values, toSend.length, pending)) return;
    setPending(true);
    setSavedValues(values);
    const sent = uploadFields(values);
    let uploaded = 0;
    let lastFailure: string | null = null;
    // One request per file, so each has its own progress and its own error.
    for (const entry of toSend) {
      update(entry.key, { status: 'uploading', progress: 0, error: undefined });
      try {
        await uploadWithProgress<UploadResult>(filesPath(), uploadFormData(sent, entry.file, entry.file.name), {
          onProgress: (progress) => update(entry.key, { progress }),
        });
        update(entry.key, { status: 'done', progress: 100 });
        uploaded += 1;
      } catch (error) {
        lastFailure = uploadFailureMessage(error);
        update(entry.key, { status: 'failed', error: lastFailure });
      }
    }
    setPending(false);
    if (lastFailure === null) {
      onClose();
      refresh(true);
      return;
    }
    // The failed files stay listed with their errors for another try; the sent ones are in.
    if (uploaded > 0) refresh(false);
    showToast({ severity: 'error', summary: 'Error', detail: lastFailure });
  }

  const clientOptions = [
    ...(clientOptional(values.fileType) ? [{ label: 'No Client', value: NO_CLIENT as number | typeof NO_CLIENT }] : []),
    ...(clients.data ?? []).map((client) => ({ label: client.name, value: client.id as number | typeof NO_CLIENT })),
  ];

  return (
    <div className="upload-form">
      <FormField label="File Type" htmlFor="upload-file-type">
        <Dropdown
          inputId="upload-file-type"
          value={values.fileType}
          options={fileTypeOptions(allowFirmDocument)}
          onChange={(event) => changeFileType(event.value as FileType)}
          disabled={pending}
        />
      </FormField>
      <FormField label={clientOptional(values.fileType) ? 'Client (optional)' : 'Client'} htmlFor="upload-client">
        <Dropdown
          inputId="upload-client"
          value={values.clientId}
          options={clientOptions}
          onChange={(event) => setValues((current) => ({ ...current, clientId: (event.value as number | typeof NO_CLIENT | undefined) ?? null }))}
          filter
          filterPlaceholder="Search clients"
          emptyFilterMessage="No client found."
          emptyMessage="No client found."
          placeholder="Select a client"
          loading={clients.isPending}
          disabled={pending}
        />
      </FormField>
      {fields.reportType && (
        <FormField label="Report Type" htmlFor="upload-report-type">
          <Dropdown
            inputId="upload-report-type"
            value={values.reportTypeId}
            options={(reportTypes.data ?? []).map((type) => ({ label: type.name, value: type.id }))}
            onChange={(event) => setValues((current) => ({ ...current, reportTypeId: (event.value as number | undefined) ?? null }))}
            placeholder="Select a report type"
            emptyMessage="No report types available"
            showClear={values.reportTypeId !== null}
            disabled={pending}
          />
        </FormField>
      )}
      {fields.documentType && (
        <FormField label="Document Type" htmlFor="upload-document-type">
          <Dropdown
            inputId="upload-document-type"
            value={values.documentType}
            options={DOCUMENT_TYPE_OPTIONS}
            onChange={(event) => setValues((current) => ({ ...current, documentType: event.value as FirmDocumentType }))}
            disabled={pending}
          />
        </FormField>
      )}
      <div
        className={dragging ? 'upload-dropzone upload-dropzone--active' : 'upload-dropzone'}
        onDragOver={(event) => { event.preventDefault(); setDragging(true); }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <i className="pi pi-cloud-upload upload-dropzone__icon" aria-hidden="true" />
        <span>Drag and drop files here, or</span>
        <Button type="button" label="Choose Files" icon="pi pi-folder-open" outlined size="small" disabled={pending} onClick={() => input.current?.click()} />
        <input
          id="upload-files"
          ref={input}
          type="file"
          multiple
          hidden
          aria-label="Files to upload"
          onChange={(event) => {
            addFiles(event.target.files);
            // Choosing the same file again after removing it must fire change again.
            event.target.value = '';
          }}
        />
      </div>
      {entries.length > 0 && (
        <ul className="upload-files" aria-label="Files to upload">
          {entries.map((entry) => (
            <UploadFileRow
              key={entry.key}
              entry={entry}
              onRemove={pending || entry.status === 'done' ? undefined : () => setEntries((current) => current.filter((e) => e.key !== entry.key))}
            />
          ))}
        </ul>
      )}
      <div className="form-dialog-footer upload-form__footer">
        {problem && !pending && <small className="upload-form__hint" role="status">{problem}</small>}
        <Button type="button" label="Cancel" outlined onClick={onCancel} disabled={pending} />
        <Button
          type="button"
          label={pending ? 'Uploading...' : 'Upload'}
          icon="pi pi-upload"
          loading={pending}
          disabled={uploadDisabled(values, toSend.length, pending)}
          onClick={() => void upload()}
        />
      </div>
    </div>
  );
}

const STATUS_ICONS: Partial<Record<UploadEntry['status'], string>> = {
  done: 'pi pi-check-circle',
  failed: 'pi pi-times-circle',
};

export function UploadFileRow({ entry, onRemove }: { entry: UploadEntry; onRemove: (() => void) | undefined }) {
  const name = entry.file.name;
  return (
    <li className={`upload-file upload-file--${entry.status}`} data-file-name={name}>
      <div className="upload-file__head">
        <i className={`${STATUS_ICONS[entry.status] ?? 'pi pi-file'} upload-file__icon`} aria-hidden="true" />
        <span className="upload-file__name">{name}</span>
        <span className="upload-file__size">{formatFileSize(entry.file.size)}</span>
        {onRemove && <Button type="button" icon="pi pi-times" rounded text severity="secondary" aria-label={`Remove ${name}`} onClick={onRemove} />}
      </div>
      {/* A refused upload may have sent every byte: it reads 'Failed' in red, never a blue 100 %. */}
      <ProgressBar
        value={entry.status === 'failed' ? 100 : entry.progress}
        displayValueTemplate={entry.status === 'failed' ? () => 'Failed' : undefined}
        className="upload-file__progress"
        aria-label={`Upload progress of ${name}`}
      />
      {entry.error && <small className="upload-file__error" role="alert">{entry.error}</small>}
    </li>
  );
}
