import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import { useNavigate } from 'react-router-dom';
import type { ComplianceItem, TrackerDocumentRequest } from '@ledgerline/contracts/compliance.contracts.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useComplianceMutations } from './compliance.api.ts';

export const DOCUMENTS_IN = 'Documents in';

export const documentRequestLabel = (r: TrackerDocumentRequest): string =>
  (r.status === 'completed' ? DOCUMENTS_IN : `Documents ${r.done}/${r.required}`);

/** The item's document request at a glance: its progress while open, "Documents in" once complete. */
export function DocumentRequestChip({ request }: { request: TrackerDocumentRequest | null }) {
  if (!request) return null;
  return <Tag className="compliance-documents" severity={request.status === 'completed' ? 'success' : 'info'} icon="pi pi-file"
    value={documentRequestLabel(request)} aria-label={`Document request: ${documentRequestLabel(request)}`} />;
}

/**
 * "Request documents" on a tracker item (issue 27), for staff: asks the item's client for
 * what its filing needs and opens the request; an item that already has one opens that one.
 */
export function RequestDocumentsButton({ item, compact = false }: { item: ComplianceItem; compact?: boolean }) {
  const navigate = useNavigate();
  const { requestDocuments } = useComplianceMutations();
  const existing = item.documentRequest;
  const subject = `${item.reportTypeName} ${item.period}`;
  const label = existing ? 'Open document request' : 'Request documents';
  const onClick = () => {
    if (existing) {
      navigate(inCurrentFirm(`/requests/${existing.id}`));
      return;
    }
    requestDocuments.mutate(item.id, {
      onSuccess: (r) => navigate(inCurrentFirm(`/requests/${r.id}`)),
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to request documents' }),
    });
  };
  return compact
    ? <Button icon={existing ? 'pi pi-folder-open' : 'pi pi-file-import'} size="small" text aria-label={`${label}: ${subject}`} title={label} loading={requestDocuments.isPending} onClick={onClick} />
    : <Button label={label} icon={existing ? 'pi pi-folder-open' : 'pi pi-file-import'} outlined loading={requestDocuments.isPending} onClick={onClick} />;
}
