import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { useDiscardGuard } from '@ledgerline/ui/discard-guard.tsx';
import { GoogleDriveSetupPanel } from './google-drive-setup-panel.tsx';

export interface DriveClient {
  id: number;
  name: string;
}

/**
 * Google Drive Setup for one client (spec 000 §2); closed with Close, or Done once connected.
 * Closing it with a Client ID or Secret typed but not saved asks first.
 */
export function GoogleDriveSetupDialog({ client, onClose }: { client: DriveClient | null; onClose(): void }) {
  const guard = useDiscardGuard(client !== null, onClose);
  return (
    <Dialog
      visible={client !== null}
      onHide={guard.requestClose}
      header={client ? `Google Drive Setup — ${client.name}` : 'Google Drive Setup'}
      className="drive-dialog"
      footer={<Button label="Close" outlined onClick={guard.requestClose} />}
    >
      <div {...guard.trackInput}>
        {client && <GoogleDriveSetupPanel clientId={client.id} onDone={onClose} onCredentialsSaved={() => guard.setChanged(false)} />}
      </div>
      {guard.question}
    </Dialog>
  );
}
