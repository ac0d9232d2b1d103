import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { Dropdown } from 'primereact/dropdown';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { Link } from 'react-router-dom';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { COMPANIES_QUERY_KEY } from '@ledgerline/ui/companies-query.ts';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ADMIN_OVERVIEW_URL } from './admin-analytics.api.ts';
import { deleteCompany, refreshCompanySchema, schemaRefreshSummary } from './companies.api.ts';
import { FirmExportsDialog } from './firm-exports-dialog.tsx';
import { FirmImportDialog } from './firm-import-dialog.tsx';
import { TenantCard } from './tenant-card.tsx';
import { filterTenants, hasFilters, NO_FILTERS, showingLine, STATUS_FILTER_OPTIONS, type StatusFilter, type TenantFilters } from './tenant-filters.ts';
import { TenantFormDialog, type TenantFormTarget } from './tenant-form-dialog.tsx';

const DELETE_WARNING = 'This action cannot be undone. The tenant data will be preserved but the company record will be removed.';

/** /admin/tenants (spec 000 §2 "Tenant Management"). */
export function TenantManagementPage() {
  const queryClient = useQueryClient();
  const companies = useQuery<Company[] | null>({ queryKey: COMPANIES_QUERY_KEY });
  const [filters, setFilters] = useState<TenantFilters>(NO_FILTERS);
  const [formTarget, setFormTarget] = useState<TenantFormTarget | null>(null);
  const [exporting, setExporting] = useState<Company | null>(null);
  const [importing, setImporting] = useState(false);

  const invalidate = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }), queryClient.invalidateQueries({ queryKey: [ADMIN_OVERVIEW_URL] })]);

  const remove = useMutation({
    mutationFn: (company: Company) => deleteCompany(company.id),
    onSuccess: async (_reply, company) => {
      showToast({ severity: 'success', summary: 'Tenant Deleted Successfully', detail: `${company.name} has been removed.` });
      await invalidate();
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Delete Tenant', detail: failureReason(error) }),
  });

  const refresh = useMutation({
    mutationFn: (company: Company) => refreshCompanySchema(company.id),
    onSuccess: (actions) => showToast({ severity: 'success', summary: 'Schema Refreshed Successfully', detail: schemaRefreshSummary(actions) }),
    onError: (error) => showToast({ severity: 'error', summary: 'Failed to Refresh Schema', detail: failureReason(error) }),
  });

  const all = companies.data ?? [];
  const shown = filterTenants(all, filters);
  const openCreate = () => setFormTarget({ mode: 'create' });

  return (
    <section className="tenant-management">
      <PageHeading
        title="Tenant Management"
        subtitle="Create and manage tax consultant portals"
        actions={
          <>
            <Link to="/admin/dashboard" className="p-button p-button-outlined p-button-secondary tenant-management__back">
              <i className="pi pi-arrow-left" aria-hidden="true" /> Dashboard
            </Link>
            <Button label="Import Firm" icon="pi pi-upload" outlined onClick={() => setImporting(true)} />
            <Button label="Create Tenant" icon="pi pi-plus" onClick={openCreate} />
          </>
        }
      />
      {companies.isError && <Message severity="error" text={failureReason(companies.error)} className="page-error" />}
      <div className="tenant-filters">
        <IconField iconPosition="left" className="tenant-filters__search">
          <InputIcon className="pi pi-search" />
          <InputText
            value={filters.search}
            onChange={(event) => setFilters((current) => ({ ...current, search: event.target.value }))}
            placeholder="Search tenants by name or short name..."
            aria-label="Search tenants"
          />
        </IconField>
        <Dropdown
          value={filters.status}
          options={[...STATUS_FILTER_OPTIONS]}
          onChange={(event) => setFilters((current) => ({ ...current, status: event.value as StatusFilter }))}
          aria-label="Status filter"
          className="tenant-filters__status"
        />
        <span className="tenant-filters__showing">{showingLine(shown.length, all.length)}</span>
        {hasFilters(filters) && <Button label="Clear Filters" icon="pi pi-filter-slash" text size="small" onClick={() => setFilters(NO_FILTERS)} />}
      </div>
      {companies.isPending ? (
        <ProgressSpinner className="tenant-management__spinner" aria-label="Loading" />
      ) : (
        <TenantGrid
          total={all.length}
          shown={shown}
          refreshingId={refresh.isPending ? refresh.variables?.id : undefined}
          onCreate={openCreate}
          onEdit={(company) => setFormTarget({ mode: 'edit', company })}
          onRefreshSchema={(company) => refresh.mutate(company)}
          onExport={setExporting}
          onDelete={(company) => confirmDeletion({ header: `Delete ${company.name}?`, message: DELETE_WARNING, onConfirm: () => remove.mutate(company) })}
        />
      )}
      <TenantFormDialog target={formTarget} onClose={() => setFormTarget(null)} />
      <FirmExportsDialog company={exporting} onClose={() => setExporting(null)} />
      <FirmImportDialog visible={importing} onClose={() => setImporting(false)} />
      <ConfirmDialog />
    </section>
  );
}

interface TenantGridProps {
  total: number;
  shown: readonly Company[];
  refreshingId: number | undefined;
  onCreate(): void;
  onEdit(company: Company): void;
  onRefreshSchema(company: Company): void;
  onExport(company: Company): void;
  onDelete(company: Company): void;
}

/** The tenant cards, or the spec's empty states: none created yet, or none matching the filters. */
function TenantGrid({ total, shown, refreshingId, onCreate, onEdit, onRefreshSchema, onExport, onDelete }: TenantGridProps) {
  if (total === 0) {
    return (
      <EmptyState
        icon="pi pi-building"
        title="No Tenants Yet"
        text="Each tenant is a firm with its own portal, login page and isolated data."
        action={<Button label="Create First Tenant" icon="pi pi-plus" onClick={onCreate} />}
      />
    );
  }
  if (shown.length === 0) return <EmptyState icon="pi pi-search" title="No Tenants Found" text="No tenant matches the search and status filter." />;
  return (
    <div className="tenant-grid">
      {shown.map((company) => (
        <TenantCard
          key={company.id}
          company={company}
          refreshing={refreshingId === company.id}
          onEdit={() => onEdit(company)}
          onRefreshSchema={() => onRefreshSchema(company)}
          onExport={() => onExport(company)}
          onDelete={() => onDelete(company)}
        />
      ))}
    </div>
  );
}
