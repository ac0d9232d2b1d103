import { confirmDialog } from 'primereact/confirmdialog';

export interface ConfirmDeletionOptions {
  header: string;
  message: string;
  onConfirm(): void;
}

/** The one look of every "delete …?" question; the page renders a <ConfirmDialog />. */
export function confirmDeletion({ header, message, onConfirm }: ConfirmDeletionOptions): void {
  confirmDialog({
    header,
    message,
    icon: 'pi pi-exclamation-triangle',
    acceptLabel: 'Delete',
    rejectLabel: 'Cancel',
    acceptClassName: 'p-button-danger',
    defaultFocus: 'reject',
    accept: onConfirm,
  });
}
