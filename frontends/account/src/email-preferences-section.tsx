import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Card } from 'primereact/card';
import { InputSwitch } from 'primereact/inputswitch';
import { Message } from 'primereact/message';
import { EMAIL_KINDS, EMAIL_KIND_LABELS, type EmailKind, type EmailPreferences } from '@ledgerline/contracts/notifications.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';

const mailAddressOf = (u: User): string | null => u.email ?? (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(u.username) ? u.username : null);
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';

/**
 * E-mails (issue 40): each kind of e-mail the portal sends a firm user, on or off. The
 * e-mails go to the address on the user (or a username that is one); the firm sets it.
 */
export function EmailPreferencesSection({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const path = apiPath(`users/${userId}/email-preferences`);
  const userPath = apiPath(`users/${userId}`);
  const user = useQuery({ queryKey: [userPath], queryFn: () => apiJson<User>('GET', userPath) });
  const address = user.data ? mailAddressOf(user.data) : null;
  const prefs = useQuery({ queryKey: [path], queryFn: () => apiJson<EmailPreferences>('GET', path) });
  const save = useMutation({
    mutationFn: (off: EmailKind[]) => apiJson<EmailPreferences>('PUT', path, { off }),
    onSuccess: (saved) => {
      queryClient.setQueryData([path], saved);
      showToast({ severity: 'success', summary: 'Success', detail: 'E-mail preferences saved.' });
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: failureReason(error) }),
  });
  const off = prefs.data?.off ?? [];
  const toggle = (kind: EmailKind, on: boolean) => save.mutate(on ? off.filter((k) => k !== kind) : [...off, kind]);

  return (
    <Card title="E-mails" className="account-settings">
      <p>{user.isPending ? '' : address ? `E-mails go to ${address}.` : 'Your account has no e-mail address: ask your firm administrator to add one.'}</p>
      {prefs.isError && <Message severity="error" text={failureReason(prefs.error)} />}
      <ul style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: '0.75rem' }}>
        {EMAIL_KINDS.map((kind) => (
          <li key={kind} style={{ display: 'flex', alignItems: 'center', gap: '0.75rem' }}>
            <InputSwitch
              inputId={`email-kind-${kind}`}
              checked={!off.includes(kind)}
              disabled={prefs.isPending || save.isPending}
              onChange={(event) => toggle(kind, Boolean(event.value))}
            />
            <label htmlFor={`email-kind-${kind}`}>{EMAIL_KIND_LABELS[kind]}</label>
          </li>
        ))}
      </ul>
    </Card>
  );
}
