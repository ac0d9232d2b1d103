import { Button } from 'primereact/button';

export interface FormDialogFooterProps {
  /** The id of the <form> the submit button belongs to (it sits outside it, in the footer). */
  formId: string;
  submitLabel: string;
  /** Spec 000 §4 pending labels: 'Creating...', 'Updating...', 'Saving...'. */
  pendingLabel: string;
  pending: boolean;
  onCancel(): void;
}

export function FormDialogFooter({ formId, submitLabel, pendingLabel, pending, onCancel }: FormDialogFooterProps) {
  return (
    <div className="form-dialog-footer">
      <Button type="button" label="Cancel" outlined onClick={onCancel} disabled={pending} />
      <Button type="submit" form={formId} label={pending ? pendingLabel : submitLabel} icon="pi pi-check" loading={pending} />
    </div>
  );
}
