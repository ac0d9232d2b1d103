import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { ProgressSpinner } from 'primereact/progressspinner';
import { Tag } from 'primereact/tag';
import type { ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { confirmDeletion } from '@ledgerline/ui/confirm-deletion.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { RecordActions } from '@ledgerline/ui/record-actions.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { reportTypesPath } from './directory.api.ts';
import { ReportTypeFormDialog, type ReportTypeFormTarget } from './report-type-form-dialog.tsx';

/** /report-types and /{tenant}/report-types (spec 000 §2 "Report Types page"). */
export function ReportTypesPage() {
  const queryClient = useQueryClient();
  const listUrl = reportTypesPath();
  const reportTypes = useQuery<ReportType[]>({ queryKey: [listUrl] });
  const [formTarget, setFormTarget] = useState<ReportTypeFormTarget | null>(null);
  const canChange = useCanAdministerFirm();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: [listUrl] });

  useFailureToast(reportTypes, 'Failed to fetch report types');

  const remove = useMutation({
    mutationFn: (reportType: ReportType) => apiJson('DELETE', reportTypesPath(`/${reportType.id}`)),
    onSuccess: () => {
      showToast({ severity: 'success', summary: 'Success', detail: 'Report type deleted successfully' });
      refresh();
    },
    // The spec's text, then the server's reason (e.g. how many files still use the type).
    onError: (error) => {
      const reason = serverMessage(error);
      showToast({ severity: 'error', summary: 'Error', detail: reason ? `Failed to delete report type: ${reason}` : 'Failed to delete report type' });
    },
  });

  const askDelete = (reportType: ReportType) =>
    confirmDeletion({
      header: 'Delete Report Type',
      // Warned with the count before the server refuses (files would keep a dead label).
      message: reportType.fileCount
        ? `The report type '${reportType.name}' is used by ${reportType.fileCount} ${reportType.fileCount === 1 ? 'file' : 'files'} and cannot be deleted until they are deleted or uploaded again under another report type.`
        : `Are you sure you want to delete the report type '${reportType.name}'?`,
      onConfirm: () => remove.mutate(reportType),
    });

  const addButton = canChange && <Button label="Add Report Type" icon="pi pi-plus" onClick={() => setFormTarget({ mode: 'create' })} />;
  return (
    <section className="directory-page">
      <PageHeading title="Report Types" subtitle="The kinds of reports your firm prepares for its clients" actions={addButton} />
      {reportTypes.isPending && <ProgressSpinner className="directory-page__spinner" aria-label="Loading" />}
      {reportTypes.data?.length === 0 && (
        <Card>
          <EmptyState icon="pi pi-tags" title="No Report Types Found" text="Add the first report type to start categorising reports." action={addButton} />
        </Card>
      )}
      {reportTypes.data && reportTypes.data.length > 0 && (
        <div className="report-type-grid">
          {reportTypes.data.map((reportType) => (
            <ReportTypeCard
              key={reportType.id}
              reportType={reportType}
              onEdit={canChange ? () => setFormTarget({ mode: 'edit', reportType }) : undefined}
              onDelete={canChange ? () => askDelete(reportType) : undefined}
            />
          ))}
        </div>
      )}
      <ReportTypeFormDialog target={formTarget} onClose={() => setFormTarget(null)} onSaved={refresh} />
      <ConfirmDialog />
    </section>
  );
}

function ReportTypeCard({ reportType, onEdit, onDelete }: { reportType: ReportType; onEdit?: () => void; onDelete?: () => void }) {
  return (
    <Card className="report-type-card">
      <div className="report-type-card__head">
        <h3 className="report-type-card__name">{reportType.name}</h3>
        <Tag value={`ID: ${reportType.id}`} severity="info" rounded />
      </div>
      <p className={reportType.description ? 'report-type-card__text' : 'report-type-card__text report-type-card__text--none'}>
        {reportType.description || 'No description provided'}
      </p>
      <div className="report-type-card__foot">
        <span className="report-type-card__date">
          <i className="pi pi-calendar" aria-hidden="true" /> Created {formatDate(reportType.createdAt)}
          {reportType.fileCount !== undefined && ` · ${reportType.fileCount} ${reportType.fileCount === 1 ? 'file' : 'files'}`}
        </span>
        <RecordActions name={reportType.name} onEdit={onEdit} onDelete={onDelete} />
      </div>
    </Card>
  );
}
