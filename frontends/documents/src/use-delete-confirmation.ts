import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useDeleteFile } from './documents.queries.ts';

/**
 * The texts of a delete (spec 001 §5, §8), which differ by screen: the reports page names
 * the file, the file panel's table and firm documents ask generically.
 */
export interface DeleteTexts {
  header: string;
  question(file: PortalFile): string;
  /** The success toast; none when the list simply loses the row. */
  deleted?(file: PortalFile): string;
  /** False: a failure is only logged (firm documents). */
  toastFailure: boolean;
}

export const REPORT_DELETE_TEXTS: DeleteTexts = {
  header: 'Delete File',
  question: (file) => `Are you sure you want to delete "${file.originalName}"? This action cannot be undone.`,
  deleted: (file) => `File "${file.originalName}" deleted successfully.`,
  toastFailure: true,
};

export const TABLE_DELETE_TEXTS: DeleteTexts = {
  header: 'Delete File',
  question: () => 'Are you sure you want to delete this file?',
  deleted: () => 'File deleted successfully',
  toastFailure: true,
};

export const FIRM_DOCUMENT_DELETE_TEXTS: DeleteTexts = {
  header: 'Delete Document',
  question: () => 'Are you sure you want to delete this document?',
  toastFailure: false,
};

/** Asks with the screen's question, deletes, and tells the outcome in the screen's words. */
export function useDeleteConfirmation(texts: DeleteTexts): (file: PortalFile) => void {
  const remove = useDeleteFile({
    onDeleted: (file) => {
      if (texts.deleted) showToast({ severity: 'success', summary: 'Success', detail: texts.deleted(file) });
    },
    onFailed: (error, file) => {
      if (texts.toastFailure) showToast({ severity: 'error', summary: 'Error', detail: `Failed to delete file: ${failureReason(error)}` });
      else console.error(`Failed to delete document ${file.id}`, error);
    },
  });
  return (file) => confirmDeletion({ header: texts.header, message: texts.question(file), onConfirm: () => remove.mutate(file) });
}
