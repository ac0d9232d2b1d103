import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Button } from 'primereact/button';
import { Toast } from 'primereact/toast';
// By package name so this outlet and every showToast() caller share one store (see optional-query.ts).
import { activeToast, dismissToast, latestToast, subscribeToasts } from '@ledgerline/ui/toast-store.ts';

/**
 * Shows the toast of the toast store. The signed-in layout and each sign-in page render one;
 * only one of them is mounted at a time.
 */
export function ToastOutlet() {
  const ref = useRef<Toast>(null);
  const latest = useSyncExternalStore(subscribeToasts, latestToast);

  useEffect(() => {
    const toast = activeToast();
    if (!toast || toast !== latest) {
      ref.current?.clear();
      return;
    }
    // A toast raised on the previous page keeps only what is left of its lifetime.
    const life = Math.max(toast.expiresAt - Date.now(), 1);
    const { action } = toast;
    const detail = action ? (
      <span className="toast-action">
        <span className="toast-action__text">{toast.detail}</span>
        <Button label={action.label} size="small" text className="toast-action__button" onClick={() => { dismissToast(toast.id); action.run(); }} />
      </span>
    ) : toast.detail;
    ref.current?.replace({ id: String(toast.id), severity: toast.severity, summary: toast.summary, detail, life });
  }, [latest]);

  return <Toast ref={ref} position="top-right" onRemove={(message) => dismissToast(Number(message.id))} />;
}
