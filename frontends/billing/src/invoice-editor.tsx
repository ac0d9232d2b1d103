import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { TAX_JURISDICTIONS } from '@ledgerline/contracts/billing-tax.ts';
import type { BillingSettings } from '@ledgerline/contracts/billing.contracts.ts';
import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { invoiceTotals } from '@ledgerline/contracts/invoice-totals.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useBillingClients, useBillingMutations, useBillingServices, type NewInvoice, type NewInvoiceLine } from './billing.api.ts';
import { InvoicePreview } from './invoice-preview.tsx';
import { money, toMinorUnits } from './invoice-view.ts';

const FORM_ID = 'invoice-editor';

interface LineDraft { description: string; serviceId: number | null; quantity: string; price: string; rate: string }
const emptyLine = (): LineDraft => ({ description: '', serviceId: null, quantity: '1', price: '', rate: '' });

/**
 * A new draft invoice (Admin): the client, lines from the price list or typed, the due date.
 * The totals preview runs the same computation the server stores (contracts/invoice-totals.ts);
 * a blank rate is the jurisdiction's for the client, as the server fills it. Beside it (below
 * on phones) the PDF as it would print, from the server, about a second after edits stop.
 */
export function InvoiceEditor({ visible, onHide, settings }: { visible: boolean; onHide(): void; settings: BillingSettings }) {
  const navigate = useNavigate();
  const clients = useBillingClients(visible).data ?? [];
  const services = useBillingServices(visible).data ?? [];
  const { create } = useBillingMutations();
  const [clientId, setClientId] = useState<number | null>(null);
  const [dueDate, setDueDate] = useState('');
  const [lines, setLines] = useState<LineDraft[]>([emptyLine()]);
  const country = settings.country as FirmCountry;
  const client = clients.find((c) => c.id === clientId);
  const registered = !TAX_JURISDICTIONS[country].registration || !!settings.taxRegistration;
  const defaultRate = country === 'US' ? settings.salesTaxRatePercent : registered ? TAX_JURISDICTIONS[country].standardRatePercent(client?.state ?? null, settings.state) : 0;

  const change = (index: number, patch: Partial<LineDraft>) => setLines((all) => all.map((l, i) => (i === index ? { ...l, ...patch } : l)));
  const pickService = (index: number, id: number | null) => {
    const service = services.find((s) => s.id === id);
    change(index, { serviceId: id, ...(service ? { description: service.name, price: (service.defaultPrice / 100).toFixed(2), rate: service.taxTreatment === 'standard' ? '' : '0' } : {}) });
  };

  const parsed: NewInvoiceLine[] | null = (() => {
    const out: NewInvoiceLine[] = [];
    for (const l of lines) {
      const unitPrice = toMinorUnits(l.price);
      const quantity = Number(l.quantity);
      if (!l.description.trim() || unitPrice === null || !(quantity >= 0)) return null;
      out.push({ description: l.description.trim(), serviceId: l.serviceId, quantity, unitPrice, ...(l.rate.trim() ? { taxRate: Number(l.rate) } : {}) });
    }
    return out;
  })();
  let preview: { subtotal: number; tax: number; total: number } | null = null;
  try {
    preview = parsed ? invoiceTotals(parsed.map((l) => ({ ...l, taxRate: l.taxRate ?? defaultRate })),
      { country, firmState: settings.state, clientState: client?.state ?? null }) : null;
  } catch {
    preview = null;
  }

  const close = () => { setClientId(null); setDueDate(''); setLines([emptyLine()]); onHide(); };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!clientId || !parsed) { showToast({ severity: 'error', summary: 'Error', detail: 'Choose a client and give every line a description and a price such as 150.00' }); return; }
    create.mutate({ clientId, dueDate: dueDate || null, notes: null, lines: parsed }, {
      onSuccess: (invoice) => { showToast({ severity: 'success', summary: 'Success', detail: 'Draft invoice created' }); close(); navigate(inCurrentFirm(`/invoices/${invoice.id}`)); },
      onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
    });
  };

  const previewed: NewInvoice | null = visible && clientId && parsed && parsed.length > 0 ? { clientId, dueDate: dueDate || null, notes: null, lines: parsed } : null;

  return (
    <CreateEditDialog visible={visible} editing={false} noun="Invoice" createHeader="New Invoice" formId={FORM_ID} pending={create.isPending} onClose={close} className="form-dialog invoice-editor">
      <div className="invoice-editor__layout">
      <form id={FORM_ID} onSubmit={submit} className="invoice-editor__form">
        <label htmlFor="invoice-client">Client</label>
        <Dropdown inputId="invoice-client" placeholder="Select a client" filter value={clientId} options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setClientId(e.value)} />
        <label htmlFor="invoice-due">Due date (blank: {settings.paymentTermsDays} days after sending)</label>
        <InputText id="invoice-due" type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
        <fieldset className="invoice-editor__lines">
          <legend>Lines</legend>
          {lines.map((l, i) => (
            <div className="invoice-line" key={i}>
              <Dropdown inputId={`invoice-line-${i + 1}-service`} aria-label={`Service of line ${i + 1}`} placeholder="From price list" showClear value={l.serviceId}
                options={services.map((s) => ({ label: s.name, value: s.id }))} onChange={(e) => pickService(i, e.value ?? null)} />
              <InputText aria-label={`Description of line ${i + 1}`} placeholder="Description" value={l.description} onChange={(e) => change(i, { description: e.target.value })} />
              <InputText aria-label={`Quantity of line ${i + 1}`} inputMode="decimal" value={l.quantity} onChange={(e) => change(i, { quantity: e.target.value })} />
              <InputText aria-label={`Unit price of line ${i + 1}`} placeholder="Price" inputMode="decimal" value={l.price} onChange={(e) => change(i, { price: e.target.value })} />
              <InputText aria-label={`Tax rate of line ${i + 1}`} placeholder={`${defaultRate}%`} inputMode="decimal" value={l.rate} onChange={(e) => change(i, { rate: e.target.value })} />
              {lines.length > 1 && <Button type="button" text icon="pi pi-times" aria-label={`Remove line ${i + 1}`} onClick={() => setLines((all) => all.filter((_, n) => n !== i))} />}
            </div>
          ))}
          <Button type="button" text label="Add line" icon="pi pi-plus" onClick={() => setLines((all) => [...all, emptyLine()])} />
        </fieldset>
        <dl className="invoice-editor__totals" aria-live="polite">
          <dt>Subtotal</dt><dd>{preview ? money(preview.subtotal, settings.currency) : '—'}</dd>
          <dt>{settings.taxName}</dt><dd>{preview ? money(preview.tax, settings.currency) : '—'}</dd>
          <dt>Total</dt><dd data-testid="invoice-editor-total">{preview ? money(preview.total, settings.currency) : '—'}</dd>
        </dl>
      </form>
      <InvoicePreview invoice={previewed} />
      </div>
    </CreateEditDialog>
  );
}
