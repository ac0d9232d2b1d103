import { Button } from 'primereact/button';
import { useNavigate } from 'react-router-dom';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { newSignatureRequestPath } from '@ledgerline/ui/signature-requests.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';

/**
 * "Request signature" on a tracker item (issue 41), for staff: opens the Signatures page's
 * create dialog with the item's client, report type and the item itself filled in; sending the
 * request moves the item to "Ready to sign".
 */
export function RequestSignatureButton({ item, compact = false }: { item: ComplianceItem; compact?: boolean }) {
  const navigate = useNavigate();
  const subject = `${item.reportTypeName} ${item.period}`;
  const onClick = () => navigate(inCurrentFirm(newSignatureRequestPath({
    clientId: item.clientId, reportTypeId: item.reportTypeId, trackerItemId: item.id, title: `${subject}: signature`,
  })));
  return compact
    ? <Button icon="pi pi-pen-to-square" size="small" text aria-label={`Request signature: ${subject}`} title="Request signature" onClick={onClick} />
    : <Button label="Request signature" icon="pi pi-pen-to-square" outlined onClick={onClick} />;
}
