import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { TabPanel } from 'primereact/tabview';
import { Tag } from 'primereact/tag';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AGEING_BUCKETS, INVOICE_STATUSES, type AgeingBucket, type BillingService, type Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useBillingClients, useBillingMutations, useBillingServices, useBillingSettings, useInvoices, useReceivables, type InvoiceFilters } from './billing.api.ts';
import { InvoiceEditor } from './invoice-editor.tsx';
import { INVOICE_STATUS_LABELS, INVOICE_STATUS_SEVERITY, money, toMinorUnits } from './invoice-view.ts';

const BUCKET_LABELS: Record<AgeingBucket, string> = {
  current: 'Current', days1to30: '1–30 days', days31to60: '31–60 days', days61to90: '61–90 days', over90: 'Over 90 days',
};

function InvoicesTab({ currency }: { currency: string }) {
  const [filters, setFilters] = useState<InvoiceFilters>({});
  const invoices = useInvoices(filters);
  useFailureToast(invoices, 'Failed to fetch invoices');
  const clients = useBillingClients(true).data ?? [];
  const rows = invoices.data ?? [];
  const open = rows.filter((i) => i.status === 'sent' || i.status === 'partially_paid');
  const outstanding = open.reduce((sum, i) => sum + i.balance, 0);
  return (
    <>
      <div className="billing-filters">
        <Dropdown aria-label="Client" placeholder="Client" showClear filter value={filters.clientId ?? null}
          options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setFilters((f) => ({ ...f, clientId: e.value ?? undefined }))} />
        <Dropdown aria-label="Status" placeholder="Status" showClear value={filters.status ?? null}
          options={INVOICE_STATUSES.map((s) => ({ label: INVOICE_STATUS_LABELS[s], value: s }))} onChange={(e) => setFilters((f) => ({ ...f, status: e.value ?? undefined }))} />
        <span className="billing-filters__total" data-testid="invoices-outstanding">Outstanding: <strong>{money(outstanding, currency)}</strong> on {open.length} open</span>
      </div>
      <DataTable value={rows} dataKey="id" loading={invoices.isLoading} emptyMessage="No invoices found" size="small" className="invoice-table"
        rowClassName={(i: Invoice) => `invoice-row-${i.id}`}>
        <Column header="Invoice" body={(i: Invoice) => (
          <div><Link to={inCurrentFirm(`/invoices/${i.id}`)}>{i.number ?? 'Draft'}</Link><small className="invoice-table__client">{i.clientName}</small></div>
        )} />
        <Column header="Due" body={(i: Invoice) => (i.dueDate ? formatDate(i.dueDate) : '—')} />
        <Column header="Total" body={(i: Invoice) => money(i.total, i.currency)} className="billing-amount" />
        <Column header="Balance" body={(i: Invoice) => money(i.balance, i.currency)} className="billing-amount" />
        <Column header="Status" body={(i: Invoice) => <Tag value={INVOICE_STATUS_LABELS[i.status]} severity={INVOICE_STATUS_SEVERITY[i.status]} />} />
      </DataTable>
    </>
  );
}

function ReceivablesTab() {
  const receivables = useReceivables(true);
  useFailureToast(receivables, 'Failed to fetch receivables');
  const r = receivables.data;
  const currency = r?.currency ?? 'USD';
  return (
    <DataTable value={r?.clients ?? []} dataKey="clientId" loading={receivables.isLoading} emptyMessage="Nobody owes anything" size="small" className="receivables-table">
      <Column header="Client" field="clientName" footer="Total" />
      {AGEING_BUCKETS.map((b) => (
        <Column key={b} header={BUCKET_LABELS[b]} className="billing-amount" body={(row: { buckets: Record<AgeingBucket, number> }) => money(row.buckets[b], currency)}
          footer={r ? money(r.totals[b], currency) : ''} />
      ))}
      <Column header="Total" className="billing-amount" body={(row: { total: number }) => money(row.total, currency)} footer={r ? money(r.totals.total, currency) : ''} />
    </DataTable>
  );
}

function ServicesTab({ currency, admin }: { currency: string; admin: boolean }) {
  const services = useBillingServices(true);
  const { addService, removeService } = useBillingMutations();
  const [name, setName] = useState('');
  const [price, setPrice] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const defaultPrice = toMinorUnits(price);
    if (!name.trim() || defaultPrice === null) { showToast({ severity: 'error', summary: 'Error', detail: 'Enter a name and a price such as 150.00' }); return; }
    addService.mutate({ name: name.trim(), defaultPrice }, {
      onSuccess: () => { setName(''); setPrice(''); },
      onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
    });
  };
  return (
    <>
      {admin && (
        <form className="billing-service-form" onSubmit={submit}>
          <InputText aria-label="Service name" placeholder="Service name" value={name} onChange={(e) => setName(e.target.value)} />
          <InputText aria-label="Default price" placeholder="Price, e.g. 150.00" inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
          <Button type="submit" label="Add Service" icon="pi pi-plus" loading={addService.isPending} />
        </form>
      )}
      <DataTable value={services.data ?? []} dataKey="id" loading={services.isLoading} emptyMessage="No services yet" size="small">
        <Column header="Service" field="name" />
        <Column header="Default price" className="billing-amount" body={(s: BillingService) => money(s.defaultPrice, currency)} />
        <Column header="Tax" body={(s: BillingService) => (s.taxTreatment === 'standard' ? 'Standard' : s.taxTreatment === 'zero_rated' ? 'Zero-rated' : 'Exempt')} />
        {admin && <Column header="Actions" body={(s: BillingService) => (
          <Button text size="small" severity="danger" icon="pi pi-trash" aria-label={`Remove ${s.name}`} onClick={() => removeService.mutate(s.id)} />
        )} />}
      </DataTable>
    </>
  );
}

/** Billing (staff): invoices with filters and what is outstanding, the receivables' ageing, the price list. */
export function BillingPage() {
  const admin = useCanAdministerFirm();
  const settings = useBillingSettings(true);
  const currency = settings.data?.currency ?? 'USD';
  const [creating, setCreating] = useState(false);
  return (
    <div className="billing-page">
      <PageHeading title="Billing" subtitle="Invoices, what clients owe, and your price list"
        actions={admin ? <Button label="New Invoice" icon="pi pi-plus" onClick={() => setCreating(true)} /> : undefined} />
      <PageTabView>
        <TabPanel header="Invoices"><InvoicesTab currency={currency} /></TabPanel>
        <TabPanel header="Receivables"><ReceivablesTab /></TabPanel>
        <TabPanel header="Services"><ServicesTab currency={currency} admin={admin} /></TabPanel>
      </PageTabView>
      {admin && settings.data && <InvoiceEditor visible={creating} onHide={() => setCreating(false)} settings={settings.data} />}
    </div>
  );
}
