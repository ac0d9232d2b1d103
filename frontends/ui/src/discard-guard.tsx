import { useEffect, useRef, useState, type ReactElement } from 'react';
import { ConfirmDialog } from 'primereact/confirmdialog';

export interface DiscardGuard {
  /** Spread on the element around the form: typing into it marks the dialog as changed. */
  trackInput: { onInputCapture(): void };
  /** Close the dialog (X, Escape, Cancel): asks first when something was typed. */
  requestClose(): void;
  /**
   * Say whether there is unsaved input where typing does not tell: a chosen file or option,
   * or a save that keeps the dialog open (false: closing no longer asks).
   */
  setChanged(changed: boolean): void;
  /** Render inside the dialog's page: the "discard?" question. */
  question: ReactElement;
}

/**
 * A form dialog with unsaved input asks before it is thrown away. "Unsaved input" is any
 * typing since the dialog opened (an `input` event inside it), so no form has to report
 * its own state; a save closes the dialog through its own path, without asking. Dialogs
 * whose input is not typed report it with `setChanged`.
 */
export function useDiscardGuard(visible: boolean, onClose: () => void): DiscardGuard {
  // A ref, not state: marking the dialog changed must not re-render it (a re-render on the
  // first keystroke lost that keystroke's value in the Google Drive credentials form).
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    if (visible) dirty.current = false;
  }, [visible]);
  return {
    trackInput: { onInputCapture: () => { dirty.current = true; } },
    requestClose: () => (dirty.current ? setAsking(true) : onClose()),
    setChanged: (changed) => { dirty.current = changed; },
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
