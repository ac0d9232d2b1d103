import { useState } from 'react';
import { Button } from 'primereact/button';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { useNavigate } from 'react-router-dom';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useComplianceMutations } from './compliance.api.ts';
import { trackerDate } from './compliance-view.ts';

/**
 * "Send organizer" on a tracker item (issue 42), for staff: sends the item's client the
 * organizer of the item's report type for its year, due with the item, and opens it. The
 * requests service picks the firm's template for the report type (its copy of a shipped one
 * first) and moves the item to "Waiting on client". Asked first: the client is e-mailed at
 * once, and an organizer sent by a stray click cannot be unsent.
 */
export function SendOrganizerButton({ item, compact = false }: { item: ComplianceItem; compact?: boolean }) {
  const navigate = useNavigate();
  const { sendOrganizer } = useComplianceMutations();
  const [asking, setAsking] = useState(false);
  const subject = `${item.reportTypeName} ${item.period}`;
  const send = () => sendOrganizer.mutate(item.id, {
    onSuccess: (organizer) => {
      showToast({ severity: 'success', summary: 'Organizer Sent', detail: `${subject}: the client has been notified.` });
      navigate(inCurrentFirm(`/requests/organizers/${organizer.id}`));
    },
    onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to send the organizer' }),
  });
  const ask = () => setAsking(true);
  return (
    <>
      {compact
        ? <Button icon="pi pi-list-check" size="small" text aria-label={`Send organizer: ${subject}`} title="Send organizer" loading={sendOrganizer.isPending} onClick={ask} />
        : <Button label="Send organizer" icon="pi pi-list-check" outlined loading={sendOrganizer.isPending} onClick={ask} />}
      {/* Mounted only while asked: the tracker draws this button on every row. */}
      {asking && <ConfirmDialog
        visible
        onHide={() => setAsking(false)}
        header="Send organizer"
        message={`Send ${item.clientName} the organizer for ${subject}, due ${trackerDate(item.dueDate)}? They are e-mailed a link to answer it now.`}
        icon="pi pi-list-check"
        acceptLabel="Send"
        rejectLabel="Cancel"
        defaultFocus="accept"
        accept={send}
        style={{ width: 'min(28rem, 95vw)' }}
      />}
    </>
  );
}
