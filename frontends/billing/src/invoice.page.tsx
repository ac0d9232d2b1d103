import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { Tag } from 'primereact/tag';
import { Fragment, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { MANUAL_PAYMENT_METHODS, type Invoice, type InvoiceLine, type Payment } from '@ledgerline/contracts/billing.contracts.ts';
import { taxComponentLabel } from '@ledgerline/contracts/billing-tax.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { openInvoicePdf, payOnline, useBillingMutations, useInvoice } from './billing.api.ts';
import { InvoiceSchedulePanel } from './invoice-schedule.tsx';
import { INVOICE_STATUS_LABELS, INVOICE_STATUS_SEVERITY, money, toMinorUnits } from './invoice-view.ts';

const METHOD_LABELS: Record<string, string> = { cheque: 'Cheque', cash: 'Cash', bank_transfer: 'Bank transfer', card: 'Card', bank_debit: 'Bank debit' };
const PAYMENT_FORM = 'record-payment';

function RecordPayment({ invoice, onHide }: { invoice: Invoice; onHide(): void }) {
  const { pay } = useBillingMutations();
  const [amount, setAmount] = useState((invoice.balance / 100).toFixed(2));
  const [method, setMethod] = useState<string>('cheque');
  const [reference, setReference] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minor = toMinorUnits(amount);
    if (minor === null || minor <= 0) { showToast({ severity: 'error', summary: 'Error', detail: 'Enter an amount such as 150.00' }); return; }
    pay.mutate({ id: invoice.id, payment: { amount: minor, method, reference: reference.trim() || null } }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Success', detail: 'Payment recorded' }); onHide(); },
      onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
    });
  };
  return (
    <Dialog visible onHide={onHide} header="Record Payment" className="form-dialog"
      footer={<FormDialogFooter formId={PAYMENT_FORM} submitLabel="Record Payment" pendingLabel="Saving..." pending={pay.isPending} onCancel={onHide} />}>
      <form id={PAYMENT_FORM} onSubmit={submit} className="invoice-editor__form">
        <label htmlFor="payment-amount">Amount ({invoice.currency})</label>
        <InputText id="payment-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        <label htmlFor="payment-method">Method</label>
        <Dropdown inputId="payment-method" value={method} options={MANUAL_PAYMENT_METHODS.map((m) => ({ label: METHOD_LABELS[m], value: m }))} onChange={(e) => setMethod(e.value)} />
        <label htmlFor="payment-reference">Reference (e.g. cheque number)</label>
        <InputText id="payment-reference" value={reference} onChange={(e) => setReference(e.target.value)} />
      </form>
    </Dialog>
  );
}

/** One invoice: its lines, tax and payments; Admins send, void and record payments; the client pays. */
export function InvoicePage() {
  const id = Number(useParams().id);
  const navigate = useNavigate();
  const admin = useCanAdministerFirm();
  const invoice = useInvoice(id);
  useFailureToast(invoice, 'Failed to fetch the invoice');
  const actions = useBillingMutations();
  const [recording, setRecording] = useState(false);
  const [paying, setPaying] = useState(false);
  const i = invoice.data;
  if (invoice.isError) return <p className="billing-error">This invoice could not be loaded.</p>;
  if (!i) return <p className="billing-loading">Loading…</p>;
  const fail = (error: unknown) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) });
  const open = i.status === 'sent' || i.status === 'partially_paid';

  return (
    <div className="invoice-page">
      <PageHeading title={i.number ? `Invoice ${i.number}` : 'Draft invoice'} subtitle={i.clientName}
        actions={(
          <>
            <Button label="PDF" icon="pi pi-file-pdf" outlined onClick={() => { openInvoicePdf(i.id).catch(fail); }} />
            {i.canPayOnline && <Button label="Pay now" icon="pi pi-credit-card" loading={paying} onClick={() => { setPaying(true); payOnline(i.id).catch((e: unknown) => { setPaying(false); fail(e); }); }} />}
            {admin && i.status === 'draft' && <Button label="Send" icon="pi pi-send" loading={actions.send.isPending}
              onClick={() => actions.send.mutate(i.id, { onSuccess: (sent) => showToast({ severity: 'success', summary: 'Success', detail: `Invoice ${sent.number} sent` }), onError: fail })} />}
            {admin && i.status === 'draft' && <Button label="Delete" icon="pi pi-trash" severity="danger" outlined
              onClick={() => actions.remove.mutate(i.id, { onSuccess: () => navigate(inCurrentFirm('/billing')), onError: fail })} />}
            {admin && open && <Button label="Record Payment" icon="pi pi-money-bill" onClick={() => setRecording(true)} />}
            {admin && open && <Button label="Void" icon="pi pi-ban" severity="danger" outlined
              onClick={() => actions.void.mutate(i.id, { onSuccess: () => showToast({ severity: 'success', summary: 'Success', detail: 'Invoice voided' }), onError: fail })} />}
          </>
        )} />
      <div className="invoice-summary">
        <Tag value={INVOICE_STATUS_LABELS[i.status]} severity={INVOICE_STATUS_SEVERITY[i.status]} />
        <span>Issued: {i.issueDate ? formatDate(i.issueDate) : 'when sent'}</span>
        <span>Due: {i.dueDate ? formatDate(i.dueDate) : 'from the terms'}</span>
        <span className="invoice-summary__balance">Balance due: <strong data-testid="invoice-balance">{money(i.balance, i.currency)}</strong></span>
      </div>
      <InvoiceSchedulePanel invoice={i} admin={admin} />
      {open && !i.canPayOnline && <p className="invoice-bank-note">Pay by bank transfer to the account on the invoice (PDF), quoting {i.number}.</p>}
      <DataTable value={i.lines} size="small" className="invoice-lines">
        <Column header="Description" field="description" />
        <Column header="Qty" field="quantity" className="billing-amount" />
        <Column header="Unit price" className="billing-amount" body={(l: InvoiceLine) => money(l.unitPrice, i.currency)} />
        <Column header="Rate" className="billing-amount" body={(l: InvoiceLine) => `${l.taxRate}%`} />
        <Column header="Amount" className="billing-amount" body={(l: InvoiceLine) => money(l.net, i.currency)} />
      </DataTable>
      <dl className="invoice-totals">
        <dt>Subtotal</dt><dd>{money(i.subtotal, i.currency)}</dd>
        {i.taxSummary.map((s) => <Fragment key={`${s.code}${s.ratePercent}`}><dt>{taxComponentLabel(s)}</dt><dd>{money(s.amount, i.currency)}</dd></Fragment>)}
        <dt>Total</dt><dd><strong>{money(i.total, i.currency)}</strong></dd>
        <dt>Paid</dt><dd>{money(i.amountPaid, i.currency)}</dd>
      </dl>
      {i.payments.length > 0 && (
        <DataTable value={i.payments} size="small" className="invoice-payments" header="Payments">
          <Column header="Received" body={(p: Payment) => formatDate(p.receivedOn)} />
          <Column header="Method" body={(p: Payment) => METHOD_LABELS[p.method] ?? p.method} />
          <Column header="Reference" body={(p: Payment) => p.reference ?? ''} />
          <Column header="Amount" className="billing-amount" body={(p: Payment) => money(p.amount, i.currency)} />
        </DataTable>
      )}
      {recording && <RecordPayment invoice={i} onHide={() => setRecording(false)} />}
    </div>
  );
}
