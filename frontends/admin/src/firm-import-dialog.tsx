import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { ProgressBar } from 'primereact/progressbar';
import { COMPANIES_QUERY_KEY } from '@ledgerline/ui/companies-query.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { ADMIN_OVERVIEW_URL } from './admin-analytics.api.ts';
import { importStatus, originText, originToConfirm, startImport } from './firm-moves.api.ts';

/**
 * Import a firm archive as a new firm, with the job's progress until the firm exists. An
 * archive this installation (or one it trusts) did not sign is imported only after the
 * platform admin has read what the server says of it and confirmed.
 */
export function FirmImportDialog({ visible, onClose }: { visible: boolean; onClose(): void }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [shortName, setShortName] = useState('');
  const [jobId, setJobId] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (confirm: boolean) => startImport(file!, name, shortName, confirm),
    onSuccess: (job) => setJobId(job.id),
  });
  const job = useQuery({
    queryKey: ['/api/companies/imports', jobId],
    queryFn: async () => {
      const status = await importStatus(jobId!);
      if (status.status === 'ready') {
        showToast({ severity: 'success', summary: 'Firm Imported Successfully', detail: `${status.company!.name} is available at /${status.company!.shortName}/login` });
        await Promise.all([queryClient.invalidateQueries({ queryKey: COMPANIES_QUERY_KEY }), queryClient.invalidateQueries({ queryKey: [ADMIN_OVERVIEW_URL] })]);
      }
      return status;
    },
    enabled: Boolean(jobId),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'running' ? false : 1000),
  });
  const close = () => {
    setFile(null);
    setName('');
    setShortName('');
    setJobId(null);
    upload.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    upload.mutate(false);
  };
  const status = job.data?.status;
  const toConfirm = upload.isError ? originToConfirm(upload.error) : null;

  return (
    <Dialog header="Import Firm" visible={visible} onHide={close} className="firm-moves-dialog" breakpoints={{ '640px': '95vw' }}>
      {!jobId ? (
        <form onSubmit={submit} className="firm-import-form">
          <FormField label="Firm archive (.tar)" htmlFor="import-file">
            <input id="import-file" type="file" accept=".tar,application/x-tar" onChange={(e) => { setFile(e.target.files?.[0] ?? null); upload.reset(); }} />
          </FormField>
          <FormField label="Company Name" htmlFor="import-name">
            <InputText id="import-name" value={name} onChange={(e) => setName(e.target.value)} />
          </FormField>
          <FormField label="Short Name" htmlFor="import-short-name">
            <InputText id="import-short-name" value={shortName} onChange={(e) => setShortName(e.target.value.toLowerCase().replace(/[^a-z0-9]/g, ''))} />
          </FormField>
          {upload.isError && <Message severity={toConfirm ? 'warn' : 'error'} text={failureReason(upload.error)} />}
          {toConfirm ? (
            <div className="firm-import-confirm">
              <Button type="button" label="Import Anyway" icon="pi pi-exclamation-triangle" severity="warning" loading={upload.isPending} onClick={() => upload.mutate(true)} />
              <Button type="button" label="Cancel" outlined onClick={close} />
            </div>
          ) : (
            <Button type="submit" label={upload.isPending ? 'Checking archive…' : 'Import'} icon="pi pi-upload" loading={upload.isPending} disabled={!file || !name || !shortName} />
          )}
        </form>
      ) : (
        <div className="firm-import-progress">
          {status !== 'failed' && <ProgressBar value={job.data?.progress ?? 0} aria-label="Import progress" />}
          {status === 'running' && <p>Importing into /{shortName}…</p>}
          {status === 'ready' && <Message severity="success" text={`${job.data!.company!.name} is ready at /${job.data!.company!.shortName}/login`} />}
          {status === 'ready' && job.data!.message && <Message severity="warn" text={job.data!.message} />}
          {job.data?.origin && <p className="firm-import-origin">{originText(job.data.origin)}</p>}
          {status === 'failed' && <Message severity="error" text={job.data!.message ?? 'The import failed; nothing was created.'} />}
          {status !== 'running' && <Button label="Done" onClick={close} />}
        </div>
      )}
    </Dialog>
  );
}
