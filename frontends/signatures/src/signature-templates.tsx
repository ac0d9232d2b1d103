import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { RadioButton } from 'primereact/radiobutton';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import {
  MERGE_FIELDS, SIGNATURE_LIMITS, mergeFieldsOf, unknownMergeFields, type FieldInput, type SignatureTemplate, type SignatureTemplateKind,
} from '@ledgerline/contracts/signatures.contracts.ts';
import { apiJson, apiPath, apiQueryPath } from '@ledgerline/ui/api-client.ts';
import { readStoredAuth } from '@ledgerline/ui/auth-storage.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { SIGNATURE_BLOCK } from './signature-placement.ts';

export const KIND_LABELS: Record<SignatureTemplateKind, string> = { engagement_letter: 'Engagement letter', form_placement: 'Form placement' };
/** What the merge-field buttons say. */
export const MERGE_FIELD_LABELS: Record<(typeof MERGE_FIELDS)[number], string> = {
  'client.name': 'Client name', 'client.address': 'Client address', tax_year: 'Tax year', fee: 'Fee', 'firm.name': 'Firm name', date: 'Date',
};

/** Admin and DTA manage templates (the server says so too); other staff use them. */
export function canManageTemplates(): boolean {
  const role = readStoredAuth()?.user.role.toLowerCase();
  return role === 'admin' || role === 'dta';
}

interface DraftRole { key: number; role: string; page: number; x: number; y: number }
interface TemplateForm {
  name: string;
  kind: SignatureTemplateKind;
  reportTypeId: number | null;
  source: 'body' | 'pdf';
  body: string;
  fileId: number | null;
  roles: DraftRole[];
}

let nextKey = 1;
const draftRole = (index: number, role = ['taxpayer', 'spouse'][index] ?? 'signer'): DraftRole => ({
  key: nextKey++, role, page: 1, x: index % 2 === 0 ? SIGNATURE_BLOCK.x : SIGNATURE_BLOCK.secondX, y: SIGNATURE_BLOCK.firstY + Math.floor(index / 2) * SIGNATURE_BLOCK.step,
});
const LETTER_START = 'Dear {{client.name}},\n\nThis letter confirms that {{firm.name}} will prepare your {{tax_year}} income tax returns. Our fee is {{fee}}.\n\n';

function formOf(t: SignatureTemplate | null): TemplateForm {
  if (!t) return { name: '', kind: 'engagement_letter', reportTypeId: null, source: 'body', body: LETTER_START, fileId: null, roles: [draftRole(0)] };
  return {
    name: t.name, kind: t.kind, reportTypeId: t.reportTypeId, source: t.body ? 'body' : 'pdf', body: t.body ?? '', fileId: t.fileId,
    roles: t.signers.map((s, i) => {
      const field = t.fields.find((f) => f.signerIndex === i && f.type === 'signature');
      return { ...draftRole(i, s.role), ...(field ? { page: field.page, x: field.x, y: field.y } : {}) };
    }),
  };
}

const FORM_ID = 'signature-template-form';

/** Save or change a template: a letter body with merge-field buttons, or a PDF (a firm document) or an uploaded form with a signature block per signer role. */
function TemplateDialog({ template, visible, onHide }: { template: SignatureTemplate | null; visible: boolean; onHide(): void }) {
  const [form, setForm] = useState<TemplateForm>(() => formOf(template));
  const [error, setError] = useState<string | null>(null);
  const body = useRef<HTMLTextAreaElement>(null);
  const queryClient = useQueryClient();
  useEffect(() => { if (visible) { setForm(formOf(template)); setError(null); } }, [visible, template]);
  const set = <K extends keyof TemplateForm>(key: K, value: TemplateForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setRole = (key: number, change: Partial<DraftRole>) => setForm((f) => ({ ...f, roles: f.roles.map((r) => (r.key === key ? { ...r, ...change } : r)) }));
  const reportTypes = useQuery<ReportType[]>({ queryKey: [apiPath('report-types')], enabled: visible, staleTime: 30_000 }).data ?? [];
  const firmPdfs = (useQuery<PortalFile[]>({ queryKey: [apiQueryPath('files', { fileType: 'firm_document', limit: 200 })], enabled: visible }).data ?? [])
    .filter((f) => f.mimeType === 'application/pdf' || f.originalName.toLowerCase().endsWith('.pdf'));
  const letter = form.kind === 'engagement_letter' && form.source === 'body';

  /** Puts a merge field where the cursor is in the letter body. */
  const insert = (field: string) => {
    const el = body.current;
    const at = el ? [el.selectionStart, el.selectionEnd] : [form.body.length, form.body.length];
    const text = `{{${field}}}`;
    set('body', `${form.body.slice(0, at[0])}${text}${form.body.slice(at[1])}`);
    requestAnimationFrame(() => { el?.focus(); el?.setSelectionRange(at[0]! + text.length, at[0]! + text.length); });
  };

  const save = useMutation({
    mutationFn: (f: TemplateForm) => {
      const fields: FieldInput[] = letter ? [] : f.roles.map((r, signerIndex) => ({
        documentIndex: 0, page: r.page, x: r.x, y: r.y, width: SIGNATURE_BLOCK.width, height: SIGNATURE_BLOCK.height, type: 'signature', signerIndex, required: true, label: null,
      }));
      const payload = {
        name: f.name.trim(), kind: f.kind, reportTypeId: f.reportTypeId, body: letter ? f.body : null,
        fileId: f.kind === 'engagement_letter' && f.source === 'pdf' ? f.fileId : (f.kind === 'form_placement' ? f.fileId : null),
        signers: f.roles.map((r) => ({ role: r.role.trim(), order: 1 })), fields,
      };
      return template ? apiJson<SignatureTemplate>('PUT', apiPath(`signature-templates/${template.id}`), payload) : apiJson<SignatureTemplate>('POST', apiPath('signature-templates'), payload);
    },
    onSuccess: (saved) => {
      showToast({ severity: 'success', summary: 'Success', detail: `Template "${saved.name}" saved.` });
      void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('signature-templates') });
      onHide();
    },
    onError: (err) => setError(serverMessage(err) ?? 'Failed to save the template'),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const unknown = letter ? unknownMergeFields(mergeFieldsOf(form.body)) : [];
    const problem = !form.name.trim() ? 'Name is required'
      : form.roles.some((r) => !r.role.trim()) ? 'Every signer needs a role'
        : letter && !form.body.trim() ? 'Write the letter'
          : unknown.length ? `Unknown merge fields: ${unknown.join(', ')}`
            : form.kind === 'engagement_letter' && form.source === 'pdf' && form.fileId === null ? 'Choose the firm document (PDF)' : null;
    setError(problem);
    if (!problem) save.mutate(form);
  };

  return (
    <CreateEditDialog visible={visible} editing={template !== null} noun="Signature Template" createHeader="New Signature Template" formId={FORM_ID} pending={save.isPending}
      className="form-dialog signature-dialog" onClose={onHide}>
      <form id={FORM_ID} className="signature-form" onSubmit={submit} noValidate>
        {error && <p className="signature-form__error" role="alert">{error}</p>}
        <div className="signature-form__row">
          <FormField label="Name *" htmlFor="template-name">
            <InputText id="template-name" value={form.name} onChange={(e) => set('name', e.target.value)} />
          </FormField>
          <FormField label="Kind" htmlFor="template-kind">
            <Dropdown inputId="template-kind" value={form.kind} options={Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label }))}
              onChange={(e) => set('kind', e.value as SignatureTemplateKind)} />
          </FormField>
        </div>
        <FormField label="Report type" htmlFor="template-report-type" hint="Optional: CPAs see the templates of their report types.">
          <Dropdown inputId="template-report-type" value={form.reportTypeId} showClear placeholder="Any report type" options={reportTypes.map((r) => ({ label: r.name, value: r.id }))}
            onChange={(e) => set('reportTypeId', e.value ?? null)} />
        </FormField>
        {form.kind === 'engagement_letter' && (
          <fieldset className="signature-form__placement">
            <legend>The letter</legend>
            <span className="signature-form__check">
              <RadioButton inputId="template-source-body" name="template-source" checked={form.source === 'body'} onChange={() => set('source', 'body')} />
              <label htmlFor="template-source-body">Letter text with merge fields</label>
            </span>
            <span className="signature-form__check">
              <RadioButton inputId="template-source-pdf" name="template-source" checked={form.source === 'pdf'} onChange={() => set('source', 'pdf')} />
              <label htmlFor="template-source-pdf">A PDF of the firm&apos;s documents</label>
            </span>
          </fieldset>
        )}
        {letter ? (
          <FormField label="Letter text *" htmlFor="template-body" hint="A signature and date line per signer is added at the end.">
            <div className="signature-merge-buttons" role="group" aria-label="Merge fields">
              {MERGE_FIELDS.map((f) => <Button key={f} type="button" size="small" outlined label={MERGE_FIELD_LABELS[f]} aria-label={`Insert ${MERGE_FIELD_LABELS[f]}`} onClick={() => insert(f)} />)}
            </div>
            <InputTextarea id="template-body" ref={body} rows={10} value={form.body} onChange={(e) => set('body', e.target.value)} />
          </FormField>
        ) : (
          <FormField label={form.kind === 'form_placement' ? 'PDF (optional)' : 'Firm document (PDF) *'} htmlFor="template-file"
            hint={form.kind === 'form_placement' ? 'Leave empty to place the fields on each new upload of the form.' : (firmPdfs.length ? undefined : 'Upload the PDF under Firm documents first.')}>
            <Dropdown inputId="template-file" value={form.fileId} showClear placeholder="Select a firm document" options={firmPdfs.map((f) => ({ label: f.originalName, value: f.id }))}
              onChange={(e) => set('fileId', e.value ?? null)} />
          </FormField>
        )}
        <fieldset className="signature-form__signers">
          <legend>Signer roles{letter ? '' : ' and where each signs (points from the page\'s top-left corner)'}</legend>
          {form.roles.map((r, i) => (
            <div key={r.key} className="signature-form__signer" role="group" aria-label={`Signer role ${i + 1}`}>
              <div className="signature-form__row">
                <FormField label="Role *" htmlFor={`template-role-${i}`}>
                  <InputText id={`template-role-${i}`} value={r.role} onChange={(e) => setRole(r.key, { role: e.target.value })} />
                </FormField>
                {form.roles.length > 1 && <Button type="button" icon="pi pi-times" text size="small" aria-label={`Remove signer role ${i + 1}`}
                  onClick={() => set('roles', form.roles.filter((o) => o.key !== r.key))} />}
              </div>
              {!letter && (
                <div className="signature-form__position">
                  <FormField label="Page" htmlFor={`template-page-${i}`}>
                    <InputNumber inputId={`template-page-${i}`} value={r.page} min={1} max={10_000} onValueChange={(e) => setRole(r.key, { page: e.value ?? 1 })} />
                  </FormField>
                  <FormField label="x" htmlFor={`template-x-${i}`}>
                    <InputNumber inputId={`template-x-${i}`} value={r.x} min={0} max={14_400} onValueChange={(e) => setRole(r.key, { x: e.value ?? 0 })} />
                  </FormField>
                  <FormField label="y" htmlFor={`template-y-${i}`}>
                    <InputNumber inputId={`template-y-${i}`} value={r.y} min={0} max={14_400} onValueChange={(e) => setRole(r.key, { y: e.value ?? 0 })} />
                  </FormField>
                </div>
              )}
            </div>
          ))}
          {form.roles.length < SIGNATURE_LIMITS.signers && (
            <Button type="button" label="Add signer role" icon="pi pi-plus" outlined size="small" onClick={() => set('roles', [...form.roles, draftRole(form.roles.length)])} />
          )}
        </fieldset>
      </form>
    </CreateEditDialog>
  );
}

/** The Templates tab: the firm's signature templates; Admin and DTA create, edit and delete them. */
export function SignatureTemplatesTab() {
  const templates = useQuery<SignatureTemplate[]>({ queryKey: [apiPath('signature-templates')] });
  const [editing, setEditing] = useState<SignatureTemplate | null | undefined>(undefined);
  const queryClient = useQueryClient();
  const manage = canManageTemplates();
  const remove = useMutation({
    mutationFn: (t: SignatureTemplate) => apiJson<{ message: string }>('DELETE', apiPath(`signature-templates/${t.id}`)),
    onSuccess: (r) => { showToast({ severity: 'success', summary: 'Success', detail: r.message }); void queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('signature-templates') }); },
    onError: (err: Error) => showToast({ severity: 'error', summary: 'Error', detail: err.message }),
  });
  return (
    <div className="signature-templates">
      {manage && <div className="signatures-filters"><Button label="New template" icon="pi pi-plus" onClick={() => setEditing(null)} /></div>}
      <TemplateDialog template={editing ?? null} visible={editing !== undefined} onHide={() => setEditing(undefined)} />
      {templates.isError ? <p>Error loading signature templates. Please try again.</p> : (
        <DataTable value={templates.data ?? []} dataKey="id" loading={templates.isLoading} emptyMessage="No signature templates yet" size="small"
          rowClassName={(t: SignatureTemplate) => `signature-template-row-${t.id}`}>
          <Column header="Template" body={(t: SignatureTemplate) => <div><strong>{t.name}</strong><small className="signature-table__client">{KIND_LABELS[t.kind]}</small></div>} />
          <Column header="Document" body={(t: SignatureTemplate) => (t.body ? `Letter text${t.mergeFields.length ? ` (${t.mergeFields.join(', ')})` : ''}` : t.fileName ?? 'Each new upload')} />
          <Column header="Signers" body={(t: SignatureTemplate) => t.signers.map((s) => s.role).join(', ')} />
          {manage && <Column header="Actions" body={(t: SignatureTemplate) => (
            <div className="signature-actions">
              <Button size="small" text label="Edit" aria-label={`Edit ${t.name}`} onClick={() => setEditing(t)} />
              <Button size="small" text severity="danger" label="Delete" aria-label={`Delete ${t.name}`} onClick={() => remove.mutate(t)} />
            </div>
          )} />}
        </DataTable>
      )}
    </div>
  );
}
