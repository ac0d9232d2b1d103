import { useEffect, useRef, useState } from 'react';
import { apiPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import type { NewInvoice } from './billing.api.ts';

/** How long the editor must rest before the preview is asked for again. */
export const PREVIEW_DELAY_MS = 1000;

type PreviewState = { url: string | null; pending: boolean; error: string | null };

/**
 * The invoice PDF as it would print (POST /invoices/preview: nothing saved, no number taken),
 * asked for once the edits have rested for PREVIEW_DELAY_MS. A newer edit cancels the request
 * in flight; each new PDF gets its own blob URL and the one it replaces is revoked.
 */
function useInvoicePreview(invoice: NewInvoice | null): PreviewState {
  const [state, setState] = useState<PreviewState>({ url: null, pending: false, error: null });
  const current = useRef<string | null>(null);
  const key = invoice ? JSON.stringify(invoice) : null;

  useEffect(() => {
    if (key === null) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, pending: true }));
      void (async () => {
        try {
          const response = await apiRequest('POST', apiPath('invoices/preview'), JSON.parse(key), { signal: controller.signal, accept: 'application/pdf' });
          const url = URL.createObjectURL(await response.blob());
          if (controller.signal.aborted) { URL.revokeObjectURL(url); return; }
          if (current.current) URL.revokeObjectURL(current.current);
          current.current = url;
          setState({ url, pending: false, error: null });
        } catch (error) {
          if (!controller.signal.aborted) setState((s) => ({ ...s, pending: false, error: failureReason(error) }));
        }
      })();
    }, PREVIEW_DELAY_MS);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [key]);

  // The last URL goes with the editor.
  useEffect(() => () => { if (current.current) URL.revokeObjectURL(current.current); }, []);
  return state;
}

/** Beside the invoice editor on wide screens, below it on phones (billing.css). */
export function InvoicePreview({ invoice }: { invoice: NewInvoice | null }) {
  const { url, pending, error } = useInvoicePreview(invoice);
  return (
    <section className="invoice-preview" aria-label="Invoice preview" aria-busy={pending}>
      <div className="invoice-preview__status" role="status">
        {error ? `Preview failed: ${error}` : pending ? 'Updating preview…' : url ? 'Preview of the PDF (draft, not numbered)' : ''}
      </div>
      {url ? (
        <iframe className="invoice-preview__frame" title="Invoice PDF preview" src={url} data-testid="invoice-preview-frame" />
      ) : (
        <p className="invoice-preview__empty">The PDF appears here once the invoice has a client and each line a description and a price.</p>
      )}
    </section>
  );
}
