import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { confirmDialog, ConfirmDialog } from 'primereact/confirmdialog';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { RequestTemplate } from '@ledgerline/contracts/requests.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { canSetUpFirmWork } from '@ledgerline/ui/permissions.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ChecklistEditor, useDraftKeys } from './checklist-editor.tsx';
import { checklistProblem, type DraftItem } from './request-view.ts';
import { useReportTypes, useTemplateMutations, useTemplates } from './requests.api.ts';

/** New, or the template being edited. */
type Editing = { template: RequestTemplate | null } | null;

/**
 * The firm's request templates (issue 44): the checklists a new request starts from. Admin
 * and DTA users create, edit and delete them (the server's rule); other staff read them here.
 */
export function TemplatesPage() {
  const { state } = useAuth();
  const manager = state.status === 'authenticated' && canSetUpFirmWork(state.user);
  const templates = useTemplates(true);
  useFailureToast(templates, 'Failed to fetch request templates');
  const reportTypes = useReportTypes(true).data ?? [];
  const reportTypeName = (id: number | null) => (id === null ? 'Any' : reportTypes.find((t) => t.id === id)?.name ?? `Report type ${id}`);
  const [editing, setEditing] = useState<Editing>(null);
  const { remove } = useTemplateMutations();
  const confirmDelete = (template: RequestTemplate) => confirmDialog({
    header: 'Delete Template', icon: 'pi pi-exclamation-triangle', defaultFocus: 'reject',
    message: `Delete "${template.name}"? Requests made from it keep their items.`,
    acceptLabel: 'Delete', rejectLabel: 'Keep It', acceptClassName: 'p-button-danger',
    accept: () => remove.mutate(template.id, {
      onSuccess: () => showToast({ severity: 'success', summary: 'Template Deleted', detail: template.name }),
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to delete the template' }),
    }),
  });

  return (
    <div className="requests-page templates-page">
      <ConfirmDialog />
      <Link to={inCurrentFirm('/requests')} className="request-back"><i className="pi pi-arrow-left" aria-hidden="true" /> All requests</Link>
      <PageHeading title="Request Templates" subtitle="Checklists a new request starts from"
        actions={manager ? <Button label="New Template" icon="pi pi-plus" onClick={() => setEditing({ template: null })} /> : undefined} />
      {templates.isError ? <p className="requests-error">Error loading templates. Please try again.</p> : (
        <DataTable value={templates.data ?? []} dataKey="id" loading={templates.isLoading} size="small" className="template-table table--key-and-actions"
          emptyMessage={manager ? 'No templates yet. Create one to start requests from it.' : 'No templates yet.'}>
          <Column header="Template" body={(t: RequestTemplate) => (
            <div>
              <span className="request-table__title">{t.name}</span>
              <small className="template-table__items">{t.items.map((i) => i.title).join(' · ')}</small>
            </div>
          )} />
          <Column header="Report Type" body={(t: RequestTemplate) => reportTypeName(t.reportTypeId)} />
          <Column header="Items" body={(t: RequestTemplate) => `${t.items.length} (${t.items.filter((i) => i.required).length} required)`} />
          <Column header="Updated" body={(t: RequestTemplate) => formatDate(t.updatedAt)} />
          {manager && (
            <Column header="Actions" body={(t: RequestTemplate) => (
              <span className="template-table__actions">
                <Button icon="pi pi-pencil" text rounded aria-label={`Edit ${t.name}`} onClick={() => setEditing({ template: t })} />
                <Button icon="pi pi-trash" text rounded severity="danger" aria-label={`Delete ${t.name}`} onClick={() => confirmDelete(t)} />
              </span>
            )} />
          )}
        </DataTable>
      )}
      {manager && <TemplateDialog editing={editing} reportTypes={reportTypes} onHide={() => setEditing(null)} />}
    </div>
  );
}

const FORM_ID = 'request-template-form';

function TemplateDialog({ editing, reportTypes, onHide }: { editing: Editing; reportTypes: readonly { id: number; name: string }[]; onHide(): void }) {
  const draft = useDraftKeys();
  const [name, setName] = useState('');
  const [reportTypeId, setReportTypeId] = useState<number | null>(null);
  const [items, setItems] = useState<DraftItem[]>([]);
  const [errors, setErrors] = useState<Partial<Record<'name' | 'items' | 'form', string>>>({});
  const { save } = useTemplateMutations();
  const template = editing?.template ?? null;
  useEffect(() => {
    if (!editing) return;
    setName(template?.name ?? '');
    setReportTypeId(template?.reportTypeId ?? null);
    setItems(template ? template.items.map((i) => draft(i)) : [draft({ title: '', description: null, required: true })]);
    setErrors({});
  }, [editing]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Name is required';
    const checklist = checklistProblem(items);
    if (checklist) found.items = checklist;
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = { name: name.trim(), reportTypeId, items: items.map((i) => ({ title: i.title.trim(), description: i.description?.trim() || null, required: i.required })) };
    save.mutate({ id: template?.id ?? null, template: body }, {
      onSuccess: (saved) => {
        showToast({ severity: 'success', summary: template ? 'Template Updated' : 'Template Created', detail: saved.name });
        onHide();
      },
      onError: (err) => setErrors({ form: serverMessage(err) ?? 'Failed to save the template' }),
    });
  };

  return (
    <CreateEditDialog visible={editing !== null} editing={template !== null} noun="Template" createHeader="New Request Template" formId={FORM_ID} pending={save.isPending} onClose={onHide}>
      <form id={FORM_ID} className="request-form" onSubmit={submit} noValidate>
        {errors.form && <p className="request-form__error" role="alert">{errors.form}</p>}
        <FormField label="Name *" htmlFor="template-name" error={errors.name}>
          <InputText id="template-name" value={name} onChange={(e) => setName(e.target.value)} />
        </FormField>
        <FormField label="Report Type" htmlFor="template-report-type" hint="The tracker's Request documents uses the template of the item's report type.">
          <Dropdown inputId="template-report-type" value={reportTypeId} showClear placeholder="Any report type"
            options={reportTypes.map((t) => ({ label: t.name, value: t.id }))} onChange={(e) => setReportTypeId((e.value as number | null) ?? null)} />
        </FormField>
        <ChecklistEditor items={items} onChange={setItems} draft={draft} error={errors.items} descriptions />
      </form>
    </CreateEditDialog>
  );
}
