import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import {
  SECURITY_EVENT_KINDS, SECURITY_EVENT_LABELS, type SecurityEvent, type SecurityEventKind, type SecuritySettings,
} from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { apiJson, apiPath, apiQueryPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';

interface UserFactors { userId: number; username: string; fullName: string; role: string; totp: boolean; recoveryCodesLeft: number; passkeys: number }

const POLICY_FIELDS: { key: keyof SecuritySettings; label: string }[] = [
  { key: 'requireMfaForStaff', label: 'Require a second factor for staff (Admin, DTA, CPA and custom roles)' },
  { key: 'requireMfaForClients', label: 'Require a second factor for Client users' },
  { key: 'allowEmailCodeForStaff', label: 'Staff may use an e-mailed code as their second factor' },
  { key: 'allowEmailCodeForClients', label: 'Client users may use an e-mailed code as their second factor' },
  { key: 'clientEmailSignIn', label: 'Client users may sign in with a code e-mailed to them' },
];

/** Settings → Security (Admins): the firm's sign-in policy, each user's factors with a reset, the security events. */
export function SecuritySettingsTab() {
  return (
    <div className="security-tab">
      <PolicyForm />
      <UserFactorsTable />
      <SecurityEventsTable />
    </div>
  );
}

function PolicyForm() {
  const queryClient = useQueryClient();
  const path = apiPath('security-settings');
  const saved = useQuery({ queryKey: [path], queryFn: () => apiJson<SecuritySettings>('GET', path) });
  const [draft, setDraft] = useState<SecuritySettings | null>(null);
  const save = useMutation({
    mutationFn: (s: SecuritySettings) => apiJson<SecuritySettings>('PUT', path, s),
    onSuccess: async (s) => {
      queryClient.setQueryData([path], s);
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: [apiPath('security-events')] });
      showToast({ severity: 'success', summary: 'Saved', detail: 'Sign-in policy updated.' });
    },
    onError: (err) => showToast({ severity: 'error', summary: 'Not saved', detail: failureReason(err) }),
  });
  if (saved.isError) return <Message severity="error" text={failureReason(saved.error)} className="page-error" />;
  const current = draft ?? saved.data;
  if (!current) return <p role="status">Loading...</p>;
  return (
    <section aria-labelledby="security-policy">
      <h3 id="security-policy">Sign-in policy</h3>
      <div className="security-tab__policy">
        {POLICY_FIELDS.map((f) => (
          <label key={f.key} htmlFor={`policy-${f.key}`}>
            <Checkbox inputId={`policy-${f.key}`} checked={current[f.key]} onChange={(e) => setDraft({ ...current, [f.key]: Boolean(e.checked) })} />
            {f.label}
          </label>
        ))}
      </div>
      <Button label="Save policy" icon="pi pi-save" disabled={!draft} loading={save.isPending} onClick={() => draft && save.mutate(draft)} />
    </section>
  );
}

function UserFactorsTable() {
  const queryClient = useQueryClient();
  const path = apiPath('security-settings/factors');
  const factors = useQuery({ queryKey: [path], queryFn: () => apiJson<UserFactors[]>('GET', path) });
  const reset = useMutation({
    mutationFn: (u: UserFactors) => apiJson('DELETE', apiPath(`users/${u.userId}/mfa`)),
    onSuccess: async (_r, u) => {
      showToast({ severity: 'success', summary: 'Reset', detail: `${u.fullName || u.username} sets up a second factor again at next sign-in where required.` });
      await queryClient.invalidateQueries({ queryKey: [path] });
    },
    onError: (err) => showToast({ severity: 'error', summary: 'Not reset', detail: failureReason(err) }),
  });
  return (
    <section aria-labelledby="security-factors">
      <h3 id="security-factors">Users' second factors</h3>
      {factors.isError && <Message severity="error" text={failureReason(factors.error)} className="page-error" />}
      <DataTable value={factors.data ?? []} loading={factors.isPending} size="small" dataKey="userId" data-testid="user-factors">
        <Column header="User" body={(u: UserFactors) => `${u.fullName} (${u.username})`} />
        <Column header="Role" field="role" />
        <Column header="Authenticator" body={(u: UserFactors) => (u.totp ? 'On' : 'Off')} />
        <Column header="Recovery codes" field="recoveryCodesLeft" />
        <Column header="Passkeys" field="passkeys" />
        <Column
          header=""
          body={(u: UserFactors) => (u.totp || u.recoveryCodesLeft > 0 || u.passkeys > 0
            ? <Button label="Reset" size="small" severity="danger" outlined aria-label={`Reset second factors of ${u.username}`} onClick={() => reset.mutate(u)} />
            : null)}
        />
      </DataTable>
    </section>
  );
}

function SecurityEventsTable() {
  const [kind, setKind] = useState<SecurityEventKind | null>(null);
  const filters = { kind: kind ?? undefined };
  const path = apiQueryPath('security-events', filters);
  const events = useQuery({ queryKey: [apiPath('security-events'), kind], queryFn: () => apiJson<SecurityEvent[]>('GET', path) });
  const exportCsv = async () => {
    try {
      const r = await apiRequest('GET', apiQueryPath('security-events', { ...filters, format: 'csv' }));
      const url = URL.createObjectURL(await r.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = 'security-events.csv';
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      showToast({ severity: 'error', summary: 'Export failed', detail: failureReason(err) });
    }
  };
  return (
    <section aria-labelledby="security-events">
      <h3 id="security-events">Security events</h3>
      <div className="security-tab__filters">
        <Dropdown value={kind} options={SECURITY_EVENT_KINDS.map((k) => ({ label: SECURITY_EVENT_LABELS[k], value: k }))} onChange={(e) => setKind((e.value as SecurityEventKind | null) ?? null)} placeholder="All kinds" showClear aria-label="Kind" />
        <Button label="Export CSV" icon="pi pi-download" outlined onClick={() => void exportCsv()} />
      </div>
      {events.isError && <Message severity="error" text={failureReason(events.error)} className="page-error" />}
      <DataTable value={events.data ?? []} loading={events.isPending} size="small" paginator rows={20} dataKey="id" emptyMessage="No events" data-testid="security-events">
        <Column header="When" body={(e: SecurityEvent) => formatDate(e.at, { withTime: true })} />
        <Column header="Kind" body={(e: SecurityEvent) => SECURITY_EVENT_LABELS[e.kind] ?? e.kind} />
        <Column header="User" body={(e: SecurityEvent) => e.username ?? ''} />
        <Column header="How" field="method" />
        <Column header="Address" field="address" />
      </DataTable>
    </section>
  );
}
