import { useEffect, useState, type ReactElement } from 'react';
import { ConfirmDialog } from 'primereact/confirmdialog';

export interface DiscardGuard {
  /** Spread on the element around the form: typing into it marks the dialog as changed. */
  trackInput: { onInputCapture(): void };
  /** Close the dialog (X, Escape, Cancel): asks first when something was typed. */
  requestClose(): void;
  /** Render inside the dialog's page: the "discard?" question. */
  question: ReactElement;
}

/**
 * A form dialog with unsaved input asks before it is thrown away. "Unsaved input" is any
 * typing since the dialog opened (an `input` event inside it), so no form has to report
 * its own state; a save closes the dialog through its own path, without asking.
 */
export function useDiscardGuard(visible: boolean, onClose: () => void): DiscardGuard {
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (visible) setDirty(false);
  }, [visible]);
  return {
    trackInput: { onInputCapture: () => setDirty(true) },
    requestClose: () => (dirty ? setAsking(true) : onClose()),
    question: (
      <ConfirmDialog
        visible={asking}
        onHide={() => setAsking(false)}
        header="Discard changes?"
        message="What you entered in this form has not been saved."
        icon="pi pi-exclamation-triangle"
        acceptLabel="Discard"
        rejectLabel="Keep Editing"
        acceptClassName="p-button-danger"
        defaultFocus="reject"
        accept={onClose}
      />
    ),
  };
}
