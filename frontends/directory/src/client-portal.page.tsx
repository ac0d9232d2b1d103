import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { Dialog } from 'primereact/dialog';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { Tag } from 'primereact/tag';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { ClientPortalData } from '@ledgerline/contracts/directory.contracts.ts';
import { possessive } from '@ledgerline/contracts/possessive.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { useDiscardGuard } from '@ledgerline/ui/discard-guard.tsx';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { ToastOutlet } from '@ledgerline/ui/toast-outlet.tsx';
import { clientPortalPath } from './directory.api.ts';
import { GoogleDriveSetupPanel } from './google-drive-setup-panel.tsx';

/**
 * /{tenantName}/client/{clientId}/portal (spec 000 §2 "Client portal page"): public, opened
 * from the signed link the firm sends its client.
 */
export function ClientPortalPage() {
  const { tenantName = '', clientId = '' } = useParams();
  const [search] = useSearchParams();
  const token = search.get('token');
  const url = clientPortalPath(tenantName, clientId, token);
  // Without the link's signed token the server can only refuse: do not ask it.
  const portal = useQuery({ queryKey: [url], queryFn: ({ signal }) => apiJson<ClientPortalData>('GET', url, undefined, { signal }), enabled: token !== null });
  const unusable = token === null || portal.isError;

  return (
    <div className="client-portal">
      <main className="client-portal__main">
        {portal.isPending && !unusable && <ProgressSpinner className="directory-page__spinner" aria-label="Loading" />}
        {unusable && <UnusableLink tenant={tenantName} />}
        {portal.data && <PortalSettings clientId={Number(clientId)} data={portal.data} />}
      </main>
      <ToastOutlet />
      <ConfirmDialog />
    </div>
  );
}

/**
 * A link that is incomplete, expired or revoked: the firm's name (its public info) and the
 * way forward, its sign-in page, rather than a dead end.
 */
function UnusableLink({ tenant }: { tenant: string }) {
  const navigate = useNavigate();
  const firm = useQuery<{ name: string }>({ queryKey: [`/api/${encodeURIComponent(tenant)}/info`], retry: false });
  const name = firm.data?.name;
  return (
    <Card>
      <EmptyState
        icon="pi pi-exclamation-circle"
        title={name}
        text="Unable to load client information. Please check the link and try again."
        action={<Button label={name ? `Sign in to ${possessive(name)} portal` : "Sign in to your firm's portal"} icon="pi pi-sign-in" onClick={() => navigate(`/${tenant}/login`)} />}
      />
    </Card>
  );
}

function PortalSettings({ clientId, data }: { clientId: number; data: ClientPortalData }) {
  const [setupOpen, setSetupOpen] = useState(false);
  // Credentials typed into the setup but not saved: closing asks first.
  const guard = useDiscardGuard(setupOpen, () => setSetupOpen(false));
  const drive = data.uploadDestination === 'google_drive';
  return (
    <>
      <header className="client-portal__header">
        <span className="client-portal__mark" aria-hidden="true">
          <i className="pi pi-folder-open" />
        </span>
        <div>
          <h1 className="client-portal__title">Document Settings for {data.name}</h1>
          <p className="client-portal__subtitle">Where the documents you share with your tax consultant are stored</p>
        </div>
      </header>
      <Card title="Upload Destination" className="client-portal__card">
        <div className="destination">
          <i className={drive ? 'pi pi-google destination__icon destination__icon--drive' : 'pi pi-server destination__icon'} aria-hidden="true" />
          <div className="destination__body">
            <div className="destination__name">
              {drive ? 'Google Drive' : 'Secure portal server'}
              {drive && <Tag value={data.googleDriveConfigured ? 'Connected' : 'Not configured'} severity={data.googleDriveConfigured ? 'success' : 'warning'} />}
            </div>
            <p className="destination__text">
              {drive
                ? 'Uploaded documents are saved to a dedicated folder in Google Drive.'
                : 'Uploaded documents are stored on the portal’s own secure server.'}
            </p>
          </div>
          {drive && (
            <Button label={data.googleDriveConfigured ? 'Manage' : 'Setup'} icon="pi pi-cog" outlined onClick={() => setSetupOpen(true)} />
          )}
        </div>
        {drive && !data.googleDriveConfigured && (
          <Message
            severity="warn"
            className="client-portal__warning"
            text="Google Drive is selected but not yet configured. Please complete the setup to enable file uploads."
          />
        )}
      </Card>
      <Card className="client-portal__help">
        <div className="client-portal__help-body">
          <i className="pi pi-question-circle" aria-hidden="true" />
          <div>
            <h3 className="client-portal__help-title">Need help?</h3>
            <p>Contact your tax consultant if you have questions about your documents or want to change where they are stored.</p>
          </div>
        </div>
      </Card>
      <Dialog visible={setupOpen} onHide={guard.requestClose} header="Google Drive Setup" className="drive-dialog">
        <div {...guard.trackInput}>
          {setupOpen && (
            <GoogleDriveSetupPanel clientId={clientId} onDone={() => setSetupOpen(false)} onCredentialsSaved={() => guard.setChanged(false)} />
          )}
        </div>
        {guard.question}
      </Dialog>
    </>
  );
}
