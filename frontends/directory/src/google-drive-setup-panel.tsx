import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { confirmDialog } from 'primereact/confirmdialog';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { Tag } from 'primereact/tag';
import type { GoogleDriveStatus } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { clientsPath, googleDrivePath } from './directory.api.ts';
import { GoogleDriveCredentialsStep } from './google-drive-credentials-step.tsx';
import { useGoogleDriveConnect } from './use-google-drive-connect.ts';

export interface GoogleDriveSetupPanelProps {
  clientId: number;
  /** The connected card's Done button. */
  onDone(): void;
  /** The OAuth credentials were saved (what was typed into them is no longer unsaved). */
  onCredentialsSaved?(): void;
}

/**
 * Status card and the step the integration is at (spec 000 §4): credentials while none are
 * saved, connect until setup is complete, then the connected card.
 */
export function GoogleDriveSetupPanel({ clientId, onDone, onCredentialsSaved }: GoogleDriveSetupPanelProps) {
  const queryClient = useQueryClient();
  const statusUrl = googleDrivePath(clientId, '/status');
  const status = useQuery<GoogleDriveStatus>({ queryKey: [statusUrl], staleTime: 0 });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: [statusUrl] });
    // The clients list shows whether each client's Drive is configured.
    void queryClient.invalidateQueries({ queryKey: [clientsPath()] });
  };
  const connect = useGoogleDriveConnect(clientId, refresh);

  if (status.isPending) return <ProgressSpinner className="drive-panel__spinner" aria-label="Loading" />;
  if (status.isError) {
    return <Message severity="info" className="drive-panel__message" text="Google Drive is set up by your firm's administrator. Please contact your tax consultant to connect or change it." />;
  }
  const { hasCredentials, isSetup } = status.data;
  return (
    <div className="drive-panel">
      <StatusCard status={status.data} />
      {!hasCredentials && (
        <GoogleDriveCredentialsStep
          clientId={clientId}
          onSaved={() => {
            onCredentialsSaved?.();
            refresh();
          }}
        />
      )}
      {hasCredentials && !isSetup && (
        <section className="drive-step">
          <h4 className="drive-step__title">
            <span className="drive-step__number">2</span> Connect Google Drive
          </h4>
          <p className="drive-step__text">
            Sign in with the Google account whose Drive should receive this client's files and allow access. A folder for the client
            is created there.
          </p>
          <Button
            label={connect.connecting ? 'Connecting...' : 'Connect Google Drive'}
            icon="pi pi-google"
            loading={connect.connecting}
            onClick={() => void connect.start()}
          />
        </section>
      )}
      {isSetup && <ConnectedCard clientId={clientId} onDone={onDone} onRemoved={refresh} />}
    </div>
  );
}

function StatusCard({ status }: { status: GoogleDriveStatus }) {
  const rows: [string, boolean][] = [
    ['OAuth credentials', status.hasCredentials],
    ['Google account connected', status.hasTokens],
    ['Drive folder ready', status.isSetup],
  ];
  return (
    <section className="drive-status" aria-label="Integration status">
      <h4 className="drive-status__title">Integration Status</h4>
      {rows.map(([label, done]) => (
        <div key={label} className="drive-status__row">
          <span>{label}</span>
          <Tag value={done ? 'Complete' : 'Pending'} severity={done ? 'success' : 'warning'} icon={done ? 'pi pi-check' : 'pi pi-clock'} />
        </div>
      ))}
    </section>
  );
}

function ConnectedCard({ clientId, onDone, onRemoved }: { clientId: number; onDone(): void; onRemoved(): void }) {
  const remove = useMutation({
    mutationFn: () => apiJson('DELETE', googleDrivePath(clientId)),
    onSuccess: () => {
      showToast({ severity: 'success', summary: 'Integration Removed', detail: 'Google Drive integration has been removed for this client.' });
      onRemoved();
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(error) ?? 'Failed to remove integration' }),
  });
  const askRemove = () =>
    confirmDialog({
      header: 'Remove Integration',
      message: 'Are you sure you want to remove Google Drive integration for this client?',
      icon: 'pi pi-exclamation-triangle',
      acceptLabel: 'Remove',
      rejectLabel: 'Cancel',
      acceptClassName: 'p-button-danger',
      defaultFocus: 'reject',
      accept: () => remove.mutate(),
    });

  return (
    <section className="drive-connected">
      <i className="pi pi-check-circle drive-connected__icon" aria-hidden="true" />
      <div className="drive-connected__body">
        <h4 className="drive-connected__title">Google Drive Connected</h4>
        <p className="drive-step__text">Files uploaded for this client are saved to its folder in Google Drive.</p>
        <div className="drive-connected__actions">
          <Button label="Done" icon="pi pi-check" onClick={onDone} />
          <Button
            label="Remove Integration"
            icon="pi pi-trash"
            severity="danger"
            outlined
            loading={remove.isPending}
            onClick={askRemove}
          />
        </div>
      </div>
    </section>
  );
}
