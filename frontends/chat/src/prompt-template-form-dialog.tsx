import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { useState, type FormEvent } from 'react';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import {
  PROMPT_CATEGORIES, PROMPT_CATEGORY_LABELS, PROMPT_TEMPLATE_MESSAGES, type PromptCategory, type PromptTemplate,
} from '@ledgerline/contracts/chat.contracts.ts';
import { promptTemplatePath, promptTemplatesPath } from './chat.api.ts';

export type TemplateFormTarget = { mode: 'create' } | { mode: 'edit'; template: PromptTemplate };

const FORM_ID = 'prompt-template-form';
const CATEGORY_OPTIONS = PROMPT_CATEGORIES.map((value) => ({ value, label: PROMPT_CATEGORY_LABELS[value] }));

/** Add or edit a prompt template (Admin); the server checks the same rules. */
export function PromptTemplateFormDialog({ target, onClose }: { target: TemplateFormTarget | null; onClose(): void }) {
  return target ? <TemplateForm key={target.mode === 'edit' ? target.template.id : 'new'} target={target} onClose={onClose} /> : null;
}

function TemplateForm({ target, onClose }: { target: TemplateFormTarget; onClose(): void }) {
  const queryClient = useQueryClient();
  const initial = target.mode === 'edit' ? target.template : null;
  const [title, setTitle] = useState(initial?.title ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [content, setContent] = useState(initial?.content ?? '');
  const [category, setCategory] = useState<PromptCategory>(initial?.category ?? 'document_management');
  const [isActive, setIsActive] = useState(initial?.isActive ?? true);
  const [errors, setErrors] = useState<{ title?: string; content?: string }>({});

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) => (target.mode === 'edit'
      ? apiJson<PromptTemplate>('PUT', promptTemplatePath(target.template.id), body)
      : apiJson<PromptTemplate>('POST', promptTemplatesPath(), body)),
    onSuccess: async () => {
      showToast({ severity: 'success', summary: 'Success', detail: target.mode === 'edit' ? 'Prompt template updated successfully' : 'Prompt template created successfully' });
      await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('prompt-templates') });
      onClose();
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to save prompt template: ${failureReason(error)}` }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...(title.trim() ? {} : { title: PROMPT_TEMPLATE_MESSAGES.titleRequired }),
      ...(content.trim() ? {} : { content: PROMPT_TEMPLATE_MESSAGES.contentRequired }),
    };
    setErrors(found);
    if (Object.keys(found).length) return;
    save.mutate({ title, description: description.trim() || null, content, category, isActive });
  };

  return (
    <CreateEditDialog visible editing={target.mode === 'edit'} noun="Prompt Template" formId={FORM_ID} pending={save.isPending} onClose={onClose}>
      <form id={FORM_ID} onSubmit={submit} noValidate>
        <FormField label="Title" htmlFor="template-title" error={errors.title}>
          <InputText id="template-title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={120} autoFocus />
        </FormField>
        <FormField label="Category" htmlFor="template-category">
          <Dropdown inputId="template-category" value={category} options={CATEGORY_OPTIONS} onChange={(e) => setCategory(e.value as PromptCategory)} />
        </FormField>
        <FormField label="Description" htmlFor="template-description">
          <InputText id="template-description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} />
        </FormField>
        <FormField label="Prompt" htmlFor="template-content" error={errors.content}>
          <InputTextarea id="template-content" value={content} onChange={(e) => setContent(e.target.value)} rows={5} />
        </FormField>
        <div className="template-form__active">
          <Checkbox inputId="template-active" checked={isActive} onChange={(e) => setIsActive(e.checked === true)} />
          <label htmlFor="template-active">Active (offered as a Quick Prompt)</label>
        </div>
      </form>
    </CreateEditDialog>
  );
}
