import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { useState, type FormEvent } from 'react';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import type { PortalFile, ReportTypePaymentHold } from '@ledgerline/contracts/files.contracts.ts';
import { apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { getOptional } from '@ledgerline/ui/optional-query.ts';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { filePath } from './documents.api.ts';

const HOLD_FORM = 'payment-hold';
const fail = (error: unknown) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) });

/** The client's invoices a document can wait for: sent and not paid in full. None when billing is not installed (404). */
function useOpenInvoices(clientId: number) {
  const url = apiQueryPath('invoices', { clientId, limit: 500 });
  return useQuery<Invoice[]>({
    queryKey: [url],
    queryFn: async ({ signal }) => ((await getOptional<Invoice[]>(url, signal)) ?? []).filter((i) => i.status === 'sent' || i.status === 'partially_paid'),
  });
}

function usePaymentHoldMutations() {
  const queryClient = useQueryClient();
  const refresh = () => invalidateApiResources(queryClient, ['files']);
  return {
    hold: useMutation({ mutationFn: ({ fileId, invoiceId }: { fileId: number; invoiceId: number }) => apiJson('PUT', `${filePath(fileId)}/payment-hold`, { invoiceId }), onSuccess: refresh }),
    release: useMutation({ mutationFn: (fileId: number) => apiJson('DELETE', `${filePath(fileId)}/payment-hold`), onSuccess: refresh }),
  };
}

/** Picks one of the client's open invoices for a hold; `hold` makes it, and the dialog closes once it is made. */
function HoldDialog({ clientId, explain, pending, hold, onHide }: {
  clientId: number; explain: string; pending: boolean; hold(invoiceId: number, done: () => void): void; onHide(): void;
}) {
  const invoices = useOpenInvoices(clientId);
  const [invoiceId, setInvoiceId] = useState<number | null>(null);
  const options = (invoices.data ?? []).map((i) => ({ label: `${i.number} — ${formatMinorUnits(i.balance, i.currency)} due`, value: i.id }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (invoiceId === null) { showToast({ severity: 'error', summary: 'Error', detail: 'Pick the invoice to wait for' }); return; }
    hold(invoiceId, onHide);
  };
  return (
    <Dialog visible onHide={onHide} header="Release on Payment" className="form-dialog"
      footer={<FormDialogFooter formId={HOLD_FORM} submitLabel="Hold Until Paid" pendingLabel="Saving..." pending={pending} onCancel={onHide} />}>
      <form id={HOLD_FORM} onSubmit={submit} className="payment-hold__form">
        <p className="payment-hold__explain">{explain}</p>
        <label htmlFor="payment-hold-invoice">Invoice</label>
        <Dropdown inputId="payment-hold-invoice" value={invoiceId} options={options} onChange={(e) => setInvoiceId(e.value as number)}
          placeholder={invoices.isPending ? 'Loading…' : 'Select an invoice'} emptyMessage="No sent, unpaid invoice for this client" />
      </form>
    </Dialog>
  );
}

function FileHoldDialog({ file, clientId, onHide }: { file: PortalFile; clientId: number; onHide(): void }) {
  const { hold } = usePaymentHoldMutations();
  return (
    <HoldDialog clientId={clientId} onHide={onHide} pending={hold.isPending}
      explain={`${file.originalName} stays listed to the client as waiting for payment, and cannot be opened, until this invoice is paid.`}
      hold={(invoiceId, done) => hold.mutate({ fileId: file.id, invoiceId }, {
        onSuccess: () => { showToast({ severity: 'success', summary: 'Success', detail: `${file.originalName} is released on payment` }); done(); },
        onError: fail,
      })} />
  );
}

/** GET/PUT/DELETE of a client's report types released on payment (the files service's). */
const clientHoldsPath = (clientId: number) => apiPath(`files/clients/${clientId}/payment-holds`);
const reportTypeHoldPath = (clientId: number, reportTypeId: number) => apiPath(`files/clients/${clientId}/report-types/${reportTypeId}/payment-hold`);

/**
 * A report type of a client released on payment (issue 43), above the staff's list of that
 * client's reports of that type: what it waits for, and for Admins "Hold until paid…" (every
 * file of the type, those there and those uploaded until the invoice is paid) or "Release".
 */
export function ReportTypeHoldControl({ clientId, reportTypeId, reportTypeName }: { clientId: number; reportTypeId: number; reportTypeName: string }) {
  const admin = useCanAdministerFirm();
  const queryClient = useQueryClient();
  const url = clientHoldsPath(clientId);
  const holds = useQuery<ReportTypePaymentHold[]>({ queryKey: [url], queryFn: async ({ signal }) => (await getOptional<ReportTypePaymentHold[]>(url, signal)) ?? [] });
  const refresh = () => invalidateApiResources(queryClient, ['files']);
  const hold = useMutation({ mutationFn: (invoiceId: number) => apiJson('PUT', reportTypeHoldPath(clientId, reportTypeId), { invoiceId }), onSuccess: refresh });
  const release = useMutation({ mutationFn: () => apiJson('DELETE', reportTypeHoldPath(clientId, reportTypeId)), onSuccess: refresh });
  const [holding, setHolding] = useState(false);
  const waiting = holds.data?.find((h) => h.reportTypeId === reportTypeId);
  if (!waiting && !admin) return null;
  return (
    <div className="report-type-hold" role="group" aria-label={`${reportTypeName}: release on payment`}>
      {waiting && (
        <span className="report-type-hold__waiting"><i className="pi pi-lock" aria-hidden="true" /> {reportTypeName}: waiting for payment of {waiting.invoiceNumber}</span>
      )}
      {admin && waiting && (
        <Button label="Release" icon="pi pi-lock-open" size="small" outlined loading={release.isPending}
          onClick={() => release.mutate(undefined, { onSuccess: () => showToast({ severity: 'success', summary: 'Success', detail: `${reportTypeName} released` }), onError: fail })} />
      )}
      {admin && !waiting && (
        <Button label="Hold until paid…" icon="pi pi-lock" size="small" outlined onClick={() => setHolding(true)} />
      )}
      {holding && (
        <HoldDialog clientId={clientId} onHide={() => setHolding(false)} pending={hold.isPending}
          explain={`Every ${reportTypeName} document of this client, and each one uploaded until this invoice is paid, stays listed to the client as waiting for payment and cannot be opened.`}
          hold={(invoiceId, done) => hold.mutate(invoiceId, {
            onSuccess: () => { showToast({ severity: 'success', summary: 'Success', detail: `${reportTypeName} is released on payment` }); done(); },
            onError: fail,
          })} />
      )}
    </div>
  );
}

/**
 * Documents released on payment (issue 43), in a file's row actions: Admins hold a client's
 * file until one of the client's sent invoices is paid, or release it by hand (the API refuses
 * anyone else). That a file waits is shown under its name (file-cells.tsx).
 */
export function PaymentHoldControl({ file }: { file: PortalFile }) {
  const admin = useCanAdministerFirm();
  const { release } = usePaymentHoldMutations();
  const [holding, setHolding] = useState(false);
  const waiting = file.waitingForPayment;
  return (
    <>
      {admin && waiting && (
        <Button icon="pi pi-lock-open" rounded text aria-label={`Release ${file.originalName} now`} tooltip="Release now" tooltipOptions={{ position: 'top' }}
          loading={release.isPending} onClick={() => release.mutate(file.id, { onSuccess: () => showToast({ severity: 'success', summary: 'Success', detail: `${file.originalName} released` }), onError: fail })} />
      )}
      {admin && !waiting && file.clientId !== null && (
        <Button icon="pi pi-lock" rounded text aria-label={`Release ${file.originalName} on payment`} tooltip="Release on payment" tooltipOptions={{ position: 'top' }} onClick={() => setHolding(true)} />
      )}
      {holding && file.clientId !== null && <FileHoldDialog file={file} clientId={file.clientId} onHide={() => setHolding(false)} />}
    </>
  );
}
