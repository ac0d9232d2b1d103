import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import type { MfaStatus, RecoveryCodesResponse, SecurityEvent, TotpSetupResponse } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { CodeForm, RecoveryCodesPanel, TotpEnrolment } from '@ledgerline/ui/totp-enrolment.tsx';
import { PasskeysSection } from './passkeys-section.tsx';

const mfaPath = () => apiPath('auth/mfa');
const sessionsPath = () => apiPath('auth/sessions');

interface SessionView { id: string; device: string; address: string | null; startedAt: string; lastSeenAt: string; current: boolean }
const signInsPath = () => apiPath('auth/sign-ins');

type Action = 'setup' | 'remove' | 'regenerate' | null;

/** Security (issue 26): the signed-in user's authenticator, recovery codes, passkeys, sessions and recent sign-ins. */
export function SecurityPanel() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: [mfaPath()], queryFn: () => apiJson<MfaStatus>('GET', mfaPath()) });
  const signIns = useQuery({ queryKey: [signInsPath()], queryFn: () => apiJson<SecurityEvent[]>('GET', signInsPath()) });
  const [action, setAction] = useState<Action>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = async () => {
    setAction(null);
    setError(null);
    await queryClient.invalidateQueries({ queryKey: [mfaPath()] });
  };
  const withCode = useMutation({
    mutationFn: async ({ kind, code }: { kind: 'remove' | 'regenerate'; code: string }) => (kind === 'remove'
      ? apiJson<unknown>('DELETE', `${mfaPath()}/totp`, { code }).then(() => null)
      : apiJson<RecoveryCodesResponse>('POST', `${mfaPath()}/recovery-codes`, { code }).then((r) => r.recoveryCodes)),
  });

  const s = status.data;
  return (
    <Card title="Security" className="account-security">
      {status.isError && <Message severity="error" text={failureReason(status.error)} className="page-error" />}
      {s?.managedByKeycloak && (
        <section aria-labelledby="security-keycloak">
          <h3 id="security-keycloak">Second factors</h3>
          <p>Your firm signs in through Keycloak: set up an authenticator app or a passkey in your Keycloak account.</p>
          {s.accountConsoleUrl && <a className="p-button p-button-outlined" href={s.accountConsoleUrl} target="_blank" rel="noopener noreferrer"><i className="pi pi-external-link" aria-hidden="true" />&nbsp;Open your Keycloak account</a>}
        </section>
      )}
      {s && !s.managedByKeycloak && (
        <section aria-labelledby="security-authenticator">
          <h3 id="security-authenticator">Authenticator app</h3>
          <p data-testid="totp-status">
            {s.totp ? 'On: sign-in asks for a code from your authenticator app.' : 'Off.'}
            {s.required && !s.totp && ' Your firm requires it: you will be asked to set it up at your next sign-in.'}
          </p>
          {s.totp && <p>Recovery codes left: {s.recoveryCodesLeft}</p>}
          {newCodes && <RecoveryCodesPanel codes={newCodes} doneLabel="Done" onDone={() => { setNewCodes(null); void refresh(); }} />}
          {!newCodes && action === null && (
            <div className="recovery-codes__actions">
              {!s.totp && <Button label="Set up authenticator" icon="pi pi-mobile" onClick={() => setAction('setup')} />}
              {s.totp && <Button label="New recovery codes" icon="pi pi-refresh" outlined onClick={() => setAction('regenerate')} />}
              {s.totp && <Button label="Remove authenticator" icon="pi pi-trash" severity="danger" outlined onClick={() => setAction('remove')} />}
            </div>
          )}
          {action === 'setup' && (
            <TotpEnrolment
              start={() => apiJson<TotpSetupResponse>('POST', `${mfaPath()}/totp/setup`, {})}
              confirm={(code) => apiJson<RecoveryCodesResponse>('POST', `${mfaPath()}/totp/confirm`, { code }).then((r) => r.recoveryCodes)}
              doneLabel="Done"
              onDone={() => { showToast({ severity: 'success', summary: 'Authenticator set up', detail: 'Sign-in now asks for a code.' }); void refresh(); }}
            />
          )}
          {(action === 'remove' || action === 'regenerate') && (
            <>
              <CodeForm
                label="A current code from your app, or a recovery code"
                submitLabel={action === 'remove' ? 'Remove authenticator' : 'Create new codes'}
                error={error}
                onSubmit={async (code) => {
                  try {
                    const codes = await withCode.mutateAsync({ kind: action, code });
                    if (codes) { setNewCodes(codes); setAction(null); setError(null); } else await refresh();
                  } catch (err) {
                    setError(failureReason(err));
                  }
                }}
              />
              <Button label="Cancel" text onClick={() => { setAction(null); setError(null); }} />
            </>
          )}
        </section>
      )}
      {s && !s.managedByKeycloak && <PasskeysSection onChange={() => queryClient.invalidateQueries({ queryKey: [mfaPath()] })} />}
      <SessionsSection />
      <section aria-labelledby="security-sign-ins">
        <h3 id="security-sign-ins">Recent sign-ins</h3>
        {signIns.isError && <Message severity="error" text={failureReason(signIns.error)} className="page-error" />}
        <DataTable value={signIns.data ?? []} loading={signIns.isPending} emptyMessage="No sign-ins yet" size="small" data-testid="sign-ins">
          <Column header="When" body={(e: SecurityEvent) => formatDate(e.at, { withTime: true })} />
          <Column header="Result" body={(e: SecurityEvent) => (e.kind === 'sign-in' ? 'Signed in' : 'Failed')} />
          <Column header="How" field="method" />
          <Column header="Address" field="address" headerClassName="account-security__secondary" className="account-security__secondary" />
          <Column header="Browser" body={(e: SecurityEvent) => e.browser ?? ''} headerClassName="account-security__secondary" className="account-security__browser account-security__secondary" />
        </DataTable>
      </section>
    </Card>
  );
}

/** Where the user is signed in, with sign-out per session and everywhere. */
function SessionsSection() {
  const queryClient = useQueryClient();
  const { logout } = useAuth();
  const sessions = useQuery({ queryKey: [sessionsPath()], queryFn: () => apiJson<SessionView[]>('GET', sessionsPath()) });
  const end = useMutation({
    mutationFn: (id: string | 'all') => (id === 'all' ? apiJson('POST', `${sessionsPath()}/revoke-all`) : apiJson('DELETE', `${sessionsPath()}/${id}`)),
    onSuccess: async (_r, id) => {
      // Signing out everywhere ends this session too.
      if (id === 'all') { logout(); return; }
      await queryClient.invalidateQueries({ queryKey: [sessionsPath()] });
    },
    onError: (err) => showToast({ severity: 'error', summary: 'Not signed out', detail: failureReason(err) }),
  });
  return (
    <section aria-labelledby="security-sessions">
      <h3 id="security-sessions">Where you are signed in</h3>
      {sessions.isError && <Message severity="error" text={failureReason(sessions.error)} className="page-error" />}
      <DataTable value={sessions.data ?? []} loading={sessions.isPending} emptyMessage="No sessions" size="small" dataKey="id" className="table--key-and-actions" data-testid="sessions">
        <Column header="Device" body={(x: SessionView) => (x.current ? `${x.device} (this one)` : x.device)} />
        <Column header="Address" field="address" />
        <Column header="Started" body={(x: SessionView) => formatDate(x.startedAt, { withTime: true })} />
        <Column header="Last seen" body={(x: SessionView) => formatDate(x.lastSeenAt, { withTime: true })} />
        <Column header="" body={(x: SessionView) => (x.current ? null : <Button label="Sign out" size="small" outlined onClick={() => end.mutate(x.id)} />)} />
      </DataTable>
      <Button label="Sign out everywhere" icon="pi pi-sign-out" severity="danger" outlined className="account-security__everywhere" onClick={() => end.mutate('all')} />
    </section>
  );
}
