import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { confirmDialog, ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { OrganizerTemplate } from '@ledgerline/contracts/organizers.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { canSetUpFirmWork } from '@ledgerline/ui/permissions.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { OrganizerTemplateEditor } from './organizer-template-editor.tsx';
import { blankDraft, draftOf, type TemplateDraft } from './organizer-template-draft.ts';
import { useOrganizerTemplateMutations, useOrganizerTemplates } from './organizers.api.ts';
import { useReportTypes } from './requests.api.ts';

type Editing = { id: number | null; draft: TemplateDraft; heading: string } | null;

/**
 * The firm's organizer templates (issue 42): the shipped ones (read only: "Copy" makes the
 * firm's own) and the firm's, edited in the builder. Admin and DTA users change them (the
 * server's rule); other staff read the list.
 */
export function OrganizerTemplatesPage() {
  const { state } = useAuth();
  const manager = state.status === 'authenticated' && canSetUpFirmWork(state.user);
  const templates = useOrganizerTemplates(true);
  useFailureToast(templates, 'Failed to fetch organizer templates');
  const reportTypes = useReportTypes(true).data ?? [];
  const reportTypeName = (id: number | null | undefined) => (id == null ? 'Any' : reportTypes.find((t) => t.id === id)?.name ?? `Report type ${id}`);
  const [editing, setEditing] = useState<Editing>(null);
  const { remove } = useOrganizerTemplateMutations();
  const confirmDelete = (template: OrganizerTemplate) => confirmDialog({
    header: 'Delete Template', icon: 'pi pi-exclamation-triangle', defaultFocus: 'reject',
    message: `Delete "${template.name}"?`, acceptLabel: 'Delete', rejectLabel: 'Keep It', acceptClassName: 'p-button-danger',
    accept: () => remove.mutate(template.id, {
      onSuccess: () => showToast({ severity: 'success', summary: 'Template Deleted', detail: template.name }),
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to delete the template' }),
    }),
  });

  if (editing) {
    return (
      <div className="requests-page">
        <PageHeading title={editing.heading} subtitle="Sections and questions; the preview shows what the client sees" />
        <OrganizerTemplateEditor id={editing.id} initial={editing.draft} reportTypes={reportTypes} onDone={() => setEditing(null)} />
      </div>
    );
  }
  return (
    <div className="requests-page">
      <ConfirmDialog />
      <Link to={inCurrentFirm('/requests/organizers')} className="request-back"><i className="pi pi-arrow-left" aria-hidden="true" /> Organizers</Link>
      <PageHeading title="Organizer Templates" subtitle="The questionnaires your organizers are sent from"
        actions={manager ? <Button label="New Template" icon="pi pi-plus" onClick={() => setEditing({ id: null, draft: blankDraft(), heading: 'New Organizer Template' })} /> : undefined} />
      <DataTable value={templates.data ?? []} dataKey="id" loading={templates.isLoading} emptyMessage="No organizer templates yet" size="small"
        className="request-table table--key-and-actions" rowClassName={(t: OrganizerTemplate) => `organizer-template-row-${t.id}`}>
        <Column header="Template" body={(t: OrganizerTemplate) => (
          <div><span className="request-table__title">{t.name}</span>{t.builtIn && <Tag className="organizer-shipped" severity="info" value="Shipped" />}</div>
        )} />
        <Column header="Report Type" body={(t: OrganizerTemplate) => reportTypeName(t.reportTypeId)} />
        <Column header="Jurisdiction" body={(t: OrganizerTemplate) => t.jurisdiction ?? 'Any'} />
        <Column header="Questions" body={(t: OrganizerTemplate) => t.sections.reduce((n, s) => n + s.questions.length, 0)} />
        {manager && <Column header="Actions" body={(t: OrganizerTemplate) => (
          <div className="organizer-template-actions">
            <Button label="Copy" icon="pi pi-copy" text size="small" aria-label={`Copy ${t.name}`}
              onClick={() => setEditing({ id: null, draft: draftOf(t, true), heading: 'New Organizer Template' })} />
            {!t.builtIn && (
              <>
                <Button icon="pi pi-pencil" text size="small" aria-label={`Edit ${t.name}`} onClick={() => setEditing({ id: t.id, draft: draftOf(t, false), heading: 'Edit Organizer Template' })} />
                <Button icon="pi pi-trash" text size="small" severity="danger" aria-label={`Delete ${t.name}`} onClick={() => confirmDelete(t)} />
              </>
            )}
          </div>
        )} />}
      </DataTable>
    </div>
  );
}
