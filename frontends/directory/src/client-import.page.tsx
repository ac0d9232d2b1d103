import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import type { ClientImportProgress, ClientImportResult, ImportColumn, ImportError, ImportField } from '@ledgerline/contracts/client-import.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { saveBlob } from '@ledgerline/ui/file-access.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { canSetUpFirmWork } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { FIELD_OPTIONS, fieldLabel, previewImport, runImport, skippedRows, templateCsv } from './client-import.model.ts';
import { clientsPath } from './directory.api.ts';

/** /clients/import (issue 40): Admins and DTAs bring a firm's clients and their contacts in from CSV or Excel. */
export function ClientImportPage() {
  const { state } = useAuth();
  if (state.status !== 'authenticated' || !canSetUpFirmWork(state.user)) {
    return (
      <Card className="directory-page">
        <EmptyState icon="pi pi-lock" text="Access denied. Only Admin and DTA users can import clients." />
      </Card>
    );
  }
  return <ClientImport />;
}

type Step = { kind: 'choose' } | { kind: 'preview'; preview: ClientImportResult } | { kind: 'importing'; progress: ClientImportProgress | null } | { kind: 'done'; result: ClientImportResult };

function ClientImport() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<ImportColumn[] | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const check = async (chosen: File, mapping: ImportColumn[] | null) => {
    setBusy(true);
    setFailure(null);
    try {
      const preview = await previewImport(chosen, mapping);
      setColumns(preview.columns);
      setStep({ kind: 'preview', preview });
    } catch (error) {
      setFailure(failureReason(error));
    } finally {
      setBusy(false);
    }
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    setFile(chosen);
    setColumns(null);
    void check(chosen, null);
  };

  const remap = (header: string, field: ImportField | '') =>
    setColumns((current) => current?.map((c) => (c.header === header ? { ...c, field: field || null } : c)) ?? null);

  const start = async () => {
    if (!file || !columns) return;
    setFailure(null);
    setStep({ kind: 'importing', progress: null });
    try {
      const result = await runImport(file, columns, (progress) => setStep({ kind: 'importing', progress }));
      setStep({ kind: 'done', result });
      await queryClient.invalidateQueries({ queryKey: [clientsPath()] });
    } catch (error) {
      setFailure(failureReason(error));
      setStep({ kind: 'choose' });
    }
  };

  return (
    <section className="directory-page client-import">
      <PageHeading
        title="Import clients"
        subtitle="Bring your clients and their contacts in from a CSV or Excel file. Nothing is written until you import."
        actions={<Button label="Download template" icon="pi pi-download" outlined onClick={() => saveBlob(new Blob([templateCsv()], { type: 'text/csv' }), 'clients-template.csv')} />}
      />
      {failure && <Message severity="error" text={failure} className="page-error" />}
      <Card title="1. Choose a file">
        <label className="client-import__file">
          <span>CSV or Excel (.xlsx) file, one client per row, up to two contacts each</span>
          <input type="file" accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-label="Client file"
            disabled={busy || step.kind === 'importing'} onChange={(event) => choose(event.target.files?.[0])} />
        </label>
        {busy && <ProgressBar mode="indeterminate" className="client-import__checking" aria-label="Checking the file" />}
      </Card>
      {columns && file && step.kind === 'preview' && (
        <>
          <Card title="2. Match the columns">
            <p className="client-import__hint">Columns were matched by their headers. Change any that are wrong, then check again.</p>
            <div className="client-import__mapper">
              {columns.map((c) => (
                <label key={c.header} className="client-import__mapping">
                  <span className="client-import__header">{c.header || '(no header)'}</span>
                  <Dropdown value={c.field ?? ''} options={FIELD_OPTIONS} onChange={(e) => remap(c.header, e.value as ImportField | '')} aria-label={`Field for ${c.header}`} filter />
                </label>
              ))}
            </div>
            <Button label="Check again" icon="pi pi-refresh" outlined disabled={busy} onClick={() => void check(file, columns)} />
          </Card>
          <ImportPreview preview={step.preview} onImport={() => void start()} busy={busy} />
        </>
      )}
      {step.kind === 'importing' && (
        <Card title="Importing">
          <ProgressBar value={step.progress ? Math.round((100 * step.progress.done) / Math.max(1, step.progress.total)) : 0} aria-label="Import progress" />
          <p>{step.progress ? `${step.progress.done.toLocaleString()} of ${step.progress.total.toLocaleString()} rows` : 'Reading the file…'}</p>
        </Card>
      )}
      {step.kind === 'done' && (
        <Card title="Import finished">
          <Message severity={step.result.errors.length ? 'warn' : 'success'} text={summary(step.result, false)} />
          {step.result.errors.length > 0 && <ErrorTable errors={step.result.errors} />}
        </Card>
      )}
    </section>
  );
}

function summary(r: ClientImportResult, preview: boolean): string {
  const skipped = skippedRows(r);
  const verb = preview ? 'will be' : 'were';
  return `${r.rows} rows: ${r.created} new clients ${verb} created, ${r.updated} ${verb} updated, ${r.contactsCreated} contacts ${verb} made Client users`
    + `${skipped ? `; ${skipped} ${skipped === 1 ? 'row has problems and is' : 'rows have problems and are'} skipped` : ''}.`;
}

function ImportPreview({ preview, onImport, busy }: { preview: ClientImportResult; onImport: () => void; busy: boolean }) {
  const nothing = preview.created + preview.updated === 0;
  return (
    <Card title="3. Preview">
      <Message severity={preview.errors.length ? 'warn' : 'info'} text={summary(preview, true)} />
      {preview.errors.length > 0 && <ErrorTable errors={preview.errors} />}
      <Button label={`Import ${preview.created + preview.updated} clients`} icon="pi pi-upload" disabled={busy || nothing} onClick={onImport} className="client-import__go" />
    </Card>
  );
}

function ErrorTable({ errors }: { errors: ImportError[] }) {
  return (
    <DataTable value={errors} size="small" stripedRows className="client-import__errors" paginator={errors.length > 20} rows={20} aria-label="Problems by row">
      <Column field="row" header="Row" className="clients-table__number" />
      <Column header="Column" body={(e: ImportError) => fieldLabel(e.field)} />
      <Column field="message" header="Problem" />
    </DataTable>
  );
}
