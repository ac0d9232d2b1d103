import { Dialog } from 'primereact/dialog';
import type { ReactNode } from 'react';
import { useDiscardGuard } from '@ledgerline/ui/discard-guard.tsx';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';

export interface CreateEditDialogProps {
  visible: boolean;
  /** True when an existing record is edited: header 'Edit {noun}', submit 'Update {noun}'. */
  editing: boolean;
  /** What the dialog saves, as the spec names it ('Role', 'User', 'Tenant', 'Report Type'). */
  noun: string;
  /** Header in create mode: 'Add {noun}' unless the spec says otherwise ('Create Tenant'). */
  createHeader?: string;
  /** The id of the <form> inside, which the footer's submit button belongs to. */
  formId: string;
  pending: boolean;
  className?: string;
  onClose(): void;
  children: ReactNode;
}

/**
 * The one add/edit dialog of the portal: the spec's header, submit and pending labels
 * ('Creating...' / 'Updating...') for whatever record the form inside saves; closing it
 * with unsaved input asks first.
 */
export function CreateEditDialog({ visible, editing, noun, createHeader, formId, pending, className = 'form-dialog', onClose, children }: CreateEditDialogProps) {
  const guard = useDiscardGuard(visible, onClose);
  return (
    <Dialog
      visible={visible}
      onHide={guard.requestClose}
      header={editing ? `Edit ${noun}` : (createHeader ?? `Add ${noun}`)}
      className={className}
      footer={
        <FormDialogFooter
          formId={formId}
          submitLabel={editing ? `Update ${noun}` : `Create ${noun}`}
          pendingLabel={editing ? 'Updating...' : 'Creating...'}
          pending={pending}
          onCancel={guard.requestClose}
        />
      }
    >
      <div {...guard.trackInput}>{children}</div>
      {guard.question}
    </Dialog>
  );
}
