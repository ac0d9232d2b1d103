import {
  DEFAULT_FIRM_DOCUMENT_TYPE,
  DEFAULT_UPLOAD_FILE_TYPE,
  UPLOAD_MESSAGES,
  type FileType,
  type FirmDocumentType,
} from '@ledgerline/contracts/files.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { FILE_TYPE_LABELS } from './file-filters.ts';

/** The client choice 'No Client' of a firm or company document (spec 001 §2 "Upload dialog"). */
export const NO_CLIENT = 'none';

export interface UploadFormValues {
  fileType: FileType;
  clientId: number | typeof NO_CLIENT | null;
  reportTypeId: number | null;
  documentType: FirmDocumentType;
}

export function initialUploadValues(preset: Partial<UploadFormValues> = {}): UploadFormValues {
  return {
    fileType: DEFAULT_UPLOAD_FILE_TYPE,
    clientId: null,
    reportTypeId: null,
    documentType: DEFAULT_FIRM_DOCUMENT_TYPE,
    ...preset,
  };
}

/** The file types offered: firm documents only on the firm documents screen. */
export function fileTypeOptions(allowFirmDocument: boolean): { label: string; value: FileType }[] {
  const types: FileType[] = allowFirmDocument ? ['report', 'company_document', 'firm_document'] : ['report', 'company_document'];
  return types.map((value) => ({ value, label: FILE_TYPE_LABELS[value] }));
}

/**
 * A report needs a client; firm and company documents may have one ('No Client'). Spec 001 §5
 * sends a client only for reports and firm documents, but a company document is a client
 * company's paper (its Client users see it, the file panel filters it by client), so the
 * dialog asks for one there too rather than filing every company document under no client.
 */
export const clientOptional = (fileType: FileType): boolean => fileType !== 'report';

/** Which fields the dialog shows for a file type besides the client, which every type asks for. */
export function visibleFields(fileType: FileType): { reportType: boolean; documentType: boolean } {
  return {
    reportType: fileType === 'report',
    documentType: fileType === 'firm_document',
  };
}

/** Spec 001 §5: the first rule the form breaks, in the spec's order; null when it may be sent. */
export function uploadProblem(values: UploadFormValues, fileCount: number): string | null {
  if (values.fileType === 'report' && typeof values.clientId !== 'number') return UPLOAD_MESSAGES.noClient;
  if (fileCount === 0) return UPLOAD_MESSAGES.noFiles;
  return null;
}

/** Spec 001 §5: disabled while pending, with no files, or for a report with no client. */
export function uploadDisabled(values: UploadFormValues, fileCount: number, pending: boolean): boolean {
  return pending || uploadProblem(values, fileCount) !== null;
}

/**
 * The multipart fields sent with each file (spec 001 §5): clientId whenever a client other
 * than 'No Client' is chosen (company documents too, see clientOptional); reportTypeId for
 * reports; documentType for firm documents.
 */
export function uploadFields(values: UploadFormValues): Record<string, string> {
  const fields: Record<string, string> = { fileType: values.fileType };
  const hasClient = typeof values.clientId === 'number';
  if (hasClient) fields.clientId = String(values.clientId);
  if (values.fileType === 'report' && values.reportTypeId !== null) fields.reportTypeId = String(values.reportTypeId);
  if (values.fileType === 'firm_document') fields.documentType = values.documentType;
  return fields;
}

/** One request per file, fields first so the server knows them before the file streams in. */
export function uploadFormData(fields: Readonly<Record<string, string>>, file: Blob, fileName: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', file, fileName);
  return form;
}

/** Spec 001 §8: 'Failed to upload file: {message}', or without a message from the server. */
export function uploadFailureMessage(error: unknown): string {
  const message = serverMessage(error);
  return message ? `Failed to upload file: ${message}` : 'Failed to upload file';
}

export type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed';

/** A chosen file and how its own upload went. */
export interface UploadEntry {
  key: string;
  file: File;
  progress: number;
  status: UploadStatus;
  error?: string;
}

/** Adds chosen or dropped files, leaving out ones already in the list. */
export function addEntries(entries: readonly UploadEntry[], files: Iterable<File>): UploadEntry[] {
  const next = [...entries];
  for (const file of files) {
    const key = `${file.name}:${file.size}:${file.lastModified}`;
    if (!next.some((entry) => entry.key === key)) next.push({ key, file, progress: 0, status: 'queued' });
  }
  return next;
}

/** Files still to send: not yet sent, or failed and tried again. */
export const pendingEntries = (entries: readonly UploadEntry[]): UploadEntry[] => entries.filter((entry) => entry.status !== 'done');
