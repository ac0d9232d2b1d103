import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { Link } from 'react-router-dom';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { useInvoices } from './billing.api.ts';
import { INVOICE_STATUS_LABELS, INVOICE_STATUS_SEVERITY, money } from './invoice-view.ts';

const owed = (i: Invoice) => i.status === 'sent' || i.status === 'partially_paid';

/** A Client user's invoices from the firm: those to pay first, then the rest. */
export function ClientInvoicesPage() {
  const invoices = useInvoices({});
  useFailureToast(invoices, 'Failed to fetch invoices');
  const rows = [...(invoices.data ?? [])].sort((a, b) => Number(owed(b)) - Number(owed(a)));
  const toPay = rows.filter(owed);
  return (
    <div className="billing-page">
      <PageHeading title="Invoices" subtitle={toPay.length ? `Invoices to pay: ${toPay.length}` : 'Nothing to pay'} />
      <DataTable value={rows} dataKey="id" loading={invoices.isLoading} emptyMessage="No invoices yet" size="small" className="invoice-table">
        <Column header="Invoice" body={(i: Invoice) => <Link to={inCurrentFirm(`/invoices/${i.id}`)}>{i.number}</Link>} />
        <Column header="Due" body={(i: Invoice) => (i.dueDate ? formatDate(i.dueDate) : '')} />
        <Column header="Balance" className="billing-amount" body={(i: Invoice) => money(i.balance, i.currency)} />
        <Column header="Status" body={(i: Invoice) => <Tag value={owed(i) ? 'To pay' : INVOICE_STATUS_LABELS[i.status]} severity={owed(i) ? 'warning' : INVOICE_STATUS_SEVERITY[i.status]} />} />
      </DataTable>
    </div>
  );
}
