import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { Passkey } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { createPasskey, passkeysSupported } from '@ledgerline/ui/passkeys.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { TextFormField } from '@ledgerline/ui/text-form-field.tsx';
import { showToast } from '@ledgerline/ui/toast-store.ts';

const passkeysPath = () => apiPath('auth/passkeys');

/**
 * The signed-in user's passkeys: each is a second step at sign-in, and signs in without a
 * password on the sign-in pages. Adding one runs the browser's prompt; `onChange` lets the
 * panel refresh the factor status.
 */
export function PasskeysSection({ onChange }: { onChange(): Promise<void> }) {
  const queryClient = useQueryClient();
  const passkeys = useQuery({ queryKey: [passkeysPath()], queryFn: () => apiJson<Passkey[]>('GET', passkeysPath()) });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: [passkeysPath()] });
    await onChange();
  };
  const add = useMutation({
    mutationFn: async (label: string) => {
      const options = await apiJson<PublicKeyCredentialCreationOptionsJSON>('POST', `${passkeysPath()}/options`);
      return apiJson<Passkey>('POST', passkeysPath(), { name: label, response: await createPasskey(options) });
    },
    onSuccess: async (added) => {
      setName('');
      setError(null);
      showToast({ severity: 'success', summary: 'Passkey added', detail: `"${added.name}" can now sign you in.` });
      await changed();
    },
    onError: (err) => setError(failureReason(err)),
  });
  const remove = useMutation({
    mutationFn: (p: Passkey) => apiJson('DELETE', `${passkeysPath()}/${p.id}`),
    onSuccess: changed,
    onError: (err) => showToast({ severity: 'error', summary: 'Not removed', detail: failureReason(err) }),
  });

  return (
    <section aria-labelledby="security-passkeys">
      <h3 id="security-passkeys">Passkeys</h3>
      <p>A passkey signs you in with this device's screen lock, your phone or a security key, without a password, and counts as the second step.</p>
      {passkeys.isError && <Message severity="error" text={failureReason(passkeys.error)} className="page-error" />}
      <DataTable value={passkeys.data ?? []} loading={passkeys.isPending} emptyMessage="No passkeys yet" size="small" dataKey="id" data-testid="passkeys">
        <Column header="Name" field="name" />
        <Column header="Added" body={(p: Passkey) => formatDate(p.createdAt, { withTime: true })} />
        <Column header="Last used" body={(p: Passkey) => (p.lastUsedAt ? formatDate(p.lastUsedAt, { withTime: true }) : 'Never')} />
        <Column header="" body={(p: Passkey) => <Button label="Remove" size="small" severity="danger" outlined aria-label={`Remove passkey ${p.name}`} onClick={() => remove.mutate(p)} />} />
      </DataTable>
      {passkeysSupported() ? (
        <form className="account-security__passkey-form" onSubmit={(e) => { e.preventDefault(); add.mutate(name.trim() || 'Passkey'); }}>
          {error && <Message severity="error" text={error} className="page-error" />}
          <TextFormField id="passkey-name" label="Name of the new passkey" value={name} onChange={setName} placeholder="e.g. Work laptop" />
          <Button type="submit" label="Add a passkey" icon="pi pi-key" loading={add.isPending} />
        </form>
      ) : (
        <p>This browser cannot create passkeys.</p>
      )}
    </section>
  );
}
