import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable, type DataTableExpandedRows } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { TabPanel, TabView } from 'primereact/tabview';
import { Tag } from 'primereact/tag';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { SIGNATURE_STATUSES, type SignatureRequest, type SignatureRequestSummary, type SignatureStatus } from '@ledgerline/contracts/signatures.contracts.ts';
import { apiJson, apiPath, apiQueryPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { readSignaturePrefill, type SignaturePrefill } from '@ledgerline/ui/signature-requests.ts';
import { usePushRefresh } from '@ledgerline/ui/realtime-connection.ts';
import { SIGNATURE_PUSH } from '@ledgerline/contracts/signatures.constants.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { CreateSignatureDialog } from './create-signature-dialog.tsx';
import { SignatureTemplatesTab } from './signature-templates.tsx';

const STATUS_LABELS: Record<SignatureStatus, string> = { draft: 'Draft', sent: 'Waiting', completed: 'Completed', declined: 'Declined', voided: 'Voided', expired: 'Expired' };
const STATUS_SEVERITY: Record<SignatureStatus, 'success' | 'info' | 'warning' | 'danger' | undefined> = {
  draft: undefined, sent: 'info', completed: 'success', declined: 'danger', voided: 'warning', expired: 'warning',
};
const SIGNER_LABELS = { pending: 'waiting', signed: 'signed', declined: 'declined' } as const;

/** Opens a PDF the API serves to a bearer (a plain link carries no token). */
async function openPdf(path: string): Promise<void> {
  try {
    const r = await apiRequest('GET', apiPath(path));
    if (!r.ok) throw new Error(((await r.json().catch(() => ({}))) as { message?: string }).message ?? 'The file could not be opened.');
    window.open(URL.createObjectURL(await r.blob()), '_blank', 'noopener');
  } catch (err) {
    showToast({ severity: 'error', summary: 'Error', detail: (err as Error).message });
  }
}

function AuditTrail({ id }: { id: number }) {
  const detail = useQuery<SignatureRequest>({ queryKey: [apiPath(`signature-requests/${id}`)] });
  if (!detail.data) return <p>Loading…</p>;
  return (
    <ol className="signature-trail" aria-label="Audit trail">
      {detail.data.events.map((e, i) => (
        <li key={i}>{formatDate(e.at, { withTime: true })}: {e.action}{e.actor ? ` (${e.actor})` : ''}{e.detail ? ` · ${e.detail}` : ''}{e.address ? ` · ${e.address}` : ''}</li>
      ))}
    </ol>
  );
}

/**
 * The Signatures page (staff): every signature request within reach with its status and each
 * signer's progress, filters by status, the audit trail per request, remind and void, and the
 * sealed PDF and certificate once completed; "New signature request" (or "Request signature"
 * on a tracker item, which opens /signatures?new=1 with the item filled in) makes one.
 */
export function SignaturesPage() {
  const [status, setStatus] = useState<SignatureStatus | undefined>();
  const [expanded, setExpanded] = useState<DataTableExpandedRows>({});
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  const linked = useMemo(() => readSignaturePrefill(location.search), [location.search]);
  const [opened, setOpened] = useState<Partial<SignaturePrefill> | null>(null);
  const prefill = opened ?? linked;
  const closeDialog = () => {
    setOpened(null);
    // The tracker's prefill is in the address: drop it, so a reload does not open the dialog again.
    if (linked) navigate({ pathname: location.pathname, search: '' }, { replace: true });
  };
  usePushRefresh(true, SIGNATURE_PUSH, ['signature-requests']);
  const list = useQuery<SignatureRequestSummary[]>({ queryKey: [apiQueryPath('signature-requests', { status })] });
  useFailureToast(list, 'Failed to fetch signature requests');
  const refresh = () => queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).includes('signature-requests') });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'remind' | 'void' }): Promise<unknown> => (action === 'remind'
      ? apiJson<{ message: string }>('POST', apiPath(`signature-requests/${id}/remind`))
      : apiJson<SignatureRequest>('PATCH', apiPath(`signature-requests/${id}`), { status: 'voided' })),
    onSuccess: (_r, { action }) => { showToast({ severity: 'success', summary: 'Success', detail: action === 'remind' ? 'The signers have been reminded.' : 'The request was voided.' }); void refresh(); },
    onError: (err: Error) => showToast({ severity: 'error', summary: 'Error', detail: err.message }),
  });

  return (
    <div className="signatures-page">
      <PageHeading title="Signatures" subtitle="Engagement letters and e-file authorizations out for signature"
        actions={<Button label="New signature request" icon="pi pi-plus" onClick={() => setOpened({})} />} />
      <CreateSignatureDialog visible={prefill !== null} prefill={prefill ?? {}} onHide={closeDialog} />
      <TabView className="signatures-tabs">
        <TabPanel header="Requests">
          <div className="signatures-filters">
            <Dropdown aria-label="Status" placeholder="Status" showClear value={status ?? null}
              options={SIGNATURE_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: s }))} onChange={(e) => setStatus(e.value ?? undefined)} />
          </div>
          {list.isError ? <p>Error loading signature requests. Please try again.</p> : (
            <DataTable value={list.data ?? []} dataKey="id" loading={list.isLoading} emptyMessage="No signature requests found" size="small"
              expandedRows={expanded} onRowToggle={(e) => setExpanded(e.data as DataTableExpandedRows)} rowExpansionTemplate={(r: SignatureRequestSummary) => <AuditTrail id={r.id} />}
              rowClassName={(r: SignatureRequestSummary) => `signature-row-${r.id}`}>
              <Column expander style={{ width: '3rem' }} />
              <Column header="Request" body={(r: SignatureRequestSummary) => <div><strong>{r.title}</strong><small className="signature-table__client">{r.clientName}</small></div>} />
              <Column header="Signers" body={(r: SignatureRequestSummary) => (
                <ul className="signature-signers">
                  {r.signers.map((s) => (
                    <li key={s.index}>{s.name} <small className="signature-signers__role">({s.role})</small>: {SIGNER_LABELS[s.status]}{s.lockedOut ? ', locked out' : ''}</li>
                  ))}
                </ul>
              )} />
              <Column header="Status" body={(r: SignatureRequestSummary) => <Tag value={STATUS_LABELS[r.status]} severity={STATUS_SEVERITY[r.status]} />} />
              <Column header="Sent" headerClassName="signature-table__secondary" className="signature-table__secondary" body={(r: SignatureRequestSummary) => (r.sentAt ? formatDate(r.sentAt) : '—')} />
              <Column header="Actions" body={(r: SignatureRequestSummary) => (
                <div className="signature-actions">
                  {r.status === 'sent' && <Button size="small" text label="Remind" onClick={() => act.mutate({ id: r.id, action: 'remind' })} />}
                  {(r.status === 'sent' || r.status === 'draft') && <Button size="small" text severity="danger" label="Void" onClick={() => act.mutate({ id: r.id, action: 'void' })} />}
                  {r.status === 'completed' && <Button size="small" text label="Signed PDF" onClick={() => void openPdf(`signature-requests/${r.id}/document`)} />}
                  {r.status === 'completed' && <Button size="small" text label="Certificate" onClick={() => void openPdf(`signature-requests/${r.id}/certificate`)} />}
                </div>
              )} />
            </DataTable>
          )}
        </TabPanel>
        <TabPanel header="Templates">
          <SignatureTemplatesTab />
        </TabPanel>
      </TabView>
    </div>
  );
}
