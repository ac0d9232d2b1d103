import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { GoogleDriveSetupPanel } from './google-drive-setup-panel.tsx';

export interface DriveClient {
  id: number;
  name: string;
}

/** Google Drive Setup for one client (spec 000 §2); closed with Close, or Done once connected. */
export function GoogleDriveSetupDialog({ client, onClose }: { client: DriveClient | null; onClose(): void }) {
  return (
    <Dialog
      visible={client !== null}
      onHide={onClose}
      header={client ? `Google Drive Setup — ${client.name}` : 'Google Drive Setup'}
      className="drive-dialog"
      footer={<Button label="Close" outlined onClick={onClose} />}
    >
      {client && <GoogleDriveSetupPanel clientId={client.id} onDone={onClose} />}
    </Dialog>
  );
}
