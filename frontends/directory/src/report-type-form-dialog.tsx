import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { InputTextarea } from 'primereact/inputtextarea';
import { reportTypeInputSchema, type ReportType, type ReportTypeInput } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { validateForm, type FieldErrors } from '@ledgerline/ui/form-validation.ts';
import { TextFormField } from '@ledgerline/ui/text-form-field.tsx';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { reportTypesPath } from './directory.api.ts';

export type ReportTypeFormTarget = { mode: 'create' } | { mode: 'edit'; reportType: ReportType };

const FORM_ID = 'report-type-form';

export interface ReportTypeFormDialogProps {
  target: ReportTypeFormTarget | null;
  onClose(): void;
  onSaved(): void;
}

export function ReportTypeFormDialog({ target, onClose, onSaved }: ReportTypeFormDialogProps) {
  const editing = target?.mode === 'edit' ? target.reportType : null;
  const save = useMutation({
    mutationFn: (body: ReportTypeInput) =>
      editing ? apiJson<ReportType>('PUT', reportTypesPath(`/${editing.id}`), body) : apiJson<ReportType>('POST', reportTypesPath(), body),
    onSuccess: () => {
      showToast({ severity: 'success', summary: 'Success', detail: `Report type ${editing ? 'updated' : 'created'} successfully` });
      onSaved();
      onClose();
    },
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: 'Failed to save report type' }),
  });

  return (
    <CreateEditDialog visible={target !== null} editing={editing !== null} noun="Report Type" formId={FORM_ID} pending={save.isPending} className="report-type-dialog" onClose={onClose}>
      {target && <ReportTypeForm key={editing?.id ?? 'new'} initial={editing} onSubmit={(body) => save.mutate(body)} />}
    </CreateEditDialog>
  );
}

function ReportTypeForm({ initial, onSubmit }: { initial: ReportType | null; onSubmit(body: ReportTypeInput): void }) {
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm(reportTypeInputSchema, { name, description });
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) onSubmit(checked.data);
  };

  return (
    <form id={FORM_ID} onSubmit={submit} noValidate>
      <TextFormField id="report-type-name" label="Name" value={name} onChange={setName} error={errors.name} placeholder="e.g. Quarterly VAT Return" autoFocus />
      <FormField label="Description" htmlFor="report-type-description" error={errors.description} hint="Optional">
        <InputTextarea id="report-type-description" value={description} onChange={(event) => setDescription(event.target.value)} rows={4} autoResize />
      </FormField>
    </form>
  );
}
