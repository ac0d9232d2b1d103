import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ToggleSwitch } from '@ledgerline/ui/toggle-switch.tsx';
import { PROMPT_CATEGORY_LABELS, type PromptTemplate } from '@ledgerline/contracts/chat.contracts.ts';
import { promptTemplatePath, promptTemplatesPath } from './chat.api.ts';
import { PromptTemplateFormDialog, type TemplateFormTarget } from './prompt-template-form-dialog.tsx';

/**
 * /prompt-templates: the Quick Prompts of the AI Chat dialog. Admins add, edit and
 * (de)activate them; other staff see the active ones.
 */
export function PromptTemplatesPage() {
  const { state } = useAuth();
  const isAdmin = state.status === 'authenticated' && state.user.role === 'Admin';
  const url = promptTemplatesPath();
  const queryClient = useQueryClient();
  const templates = useQuery<PromptTemplate[]>({ queryKey: [url] });
  const [formTarget, setFormTarget] = useState<TemplateFormTarget | null>(null);

  const toggle = useMutation({
    mutationFn: (t: PromptTemplate) => apiJson<PromptTemplate>('PUT', promptTemplatePath(t.id), { isActive: !t.isActive }),
    onSuccess: async (t) => {
      showToast({ severity: 'success', summary: 'Success', detail: t.isActive ? `'${t.title}' is active` : `'${t.title}' is deactivated` });
      await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('prompt-templates') });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: `Failed to save prompt template: ${failureReason(error)}` }),
  });

  return (
    <section className="prompt-templates-page">
      <PageHeading
        title="Prompt Templates"
        subtitle="Quick Prompts offered in the AI Chat of every file"
        actions={isAdmin ? <Button label="Add Prompt Template" icon="pi pi-plus" onClick={() => setFormTarget({ mode: 'create' })} /> : undefined}
      />
      {templates.isError && <Message severity="error" text={failureReason(templates.error)} className="page-error" />}
      <Card>
        <DataTable value={templates.data ?? []} dataKey="id" loading={templates.isPending} emptyMessage="No prompt templates found" stripedRows size="small">
          <Column field="title" header="Title" sortable />
          <Column header="Category" sortable sortField="category" body={(t: PromptTemplate) => PROMPT_CATEGORY_LABELS[t.category]} />
          <Column field="content" header="Prompt" />
          <Column header="Status" body={(t: PromptTemplate) => <Tag value={t.isActive ? 'Active' : 'Inactive'} severity={t.isActive ? 'success' : 'secondary'} />} />
          {isAdmin && (
            <Column
              header="Actions"
              body={(t: PromptTemplate) => (
                <div className="record-actions">
                  <Button icon="pi pi-pencil" rounded text aria-label={`Edit ${t.title}`} tooltip="Edit" tooltipOptions={{ position: 'top' }} onClick={() => setFormTarget({ mode: 'edit', template: t })} />
                  <ToggleSwitch checked={t.isActive} aria-label={`${t.title} active`} disabled={toggle.isPending} onChange={() => toggle.mutate(t)} />
                </div>
              )}
            />
          )}
        </DataTable>
      </Card>
      <PromptTemplateFormDialog target={formTarget} onClose={() => setFormTarget(null)} />
    </section>
  );
}
