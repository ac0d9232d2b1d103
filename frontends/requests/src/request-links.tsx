import { Button } from 'primereact/button';
import { InputNumber } from 'primereact/inputnumber';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import { REQUEST_DEFAULTS, type CreatedRequestLink, type DocumentRequest } from '@ledgerline/contracts/requests.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { copyLink } from './copy-link.ts';
import { LinkList } from './link-list.tsx';
import { linkState } from './request-view.ts';
import { useRequestLinks, useRequestMutations } from './requests.api.ts';

/**
 * Upload links that need no account: made here (the URL is shown once, since the portal keeps
 * only its hash), copied, listed and revoked.
 */
export function RequestLinks({ request }: { request: DocumentRequest }) {
  const [email, setEmail] = useState('');
  // Empty: the link lives until linkDaysPastDue days after the due date (the server's default).
  const [days, setDays] = useState<number | null>(null);
  const [created, setCreated] = useState<CreatedRequestLink | null>(null);
  const links = useRequestLinks(request.id, true);
  const { createLink, revokeLink } = useRequestMutations();
  const failed = (fallback: string) => (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? fallback });
  const create = (event: FormEvent) => {
    event.preventDefault();
    createLink.mutate({ id: request.id, email: email.trim() || null, ...(days ? { expiresInDays: days } : {}) }, {
      onSuccess: (link) => { setCreated(link); setEmail(''); showToast({ severity: 'success', summary: 'Link Created', detail: email.trim() ? `Sent to ${email.trim()}` : 'Copy it and send it to the client.' }); },
      onError: failed('Failed to create the link'),
    });
  };
  return (
    <section className="request-panel" aria-labelledby="request-links-title">
      <h3 id="request-links-title">Upload Links</h3>
      <p className="request-panel__hint">Anyone holding a link can upload to this request without an account, until it expires or you revoke it.</p>
      {request.status === 'open' && (
        <form className="request-links__form" onSubmit={create}>
          <span className="request-links__field">
            <label htmlFor="link-email">E-mail it to (optional)</label>
            <InputText id="link-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </span>
          <span className="request-links__field request-links__field--days">
            <label htmlFor="link-days">Expires in (days)</label>
            <InputNumber inputId="link-days" value={days} min={1} placeholder={`${REQUEST_DEFAULTS.linkDaysPastDue} days after due`}
              onValueChange={(e) => setDays(e.value ?? null)} />
          </span>
          <Button type="submit" label="Create Link" icon="pi pi-link" loading={createLink.isPending} />
        </form>
      )}
      {created && (
        <div className="request-links__created">
          <label htmlFor="link-url">New link (shown only now)</label>
          <span className="request-links__url">
            <InputText id="link-url" value={created.url} readOnly onFocus={(e) => e.currentTarget.select()} />
            <Button type="button" label="Copy" icon="pi pi-copy" onClick={() => void copyLink(created.url)} />
          </span>
        </div>
      )}
      <LinkList links={links.data} stateOf={(link) => linkState(link, request.status)}
        onRevoke={(link) => revokeLink.mutate({ id: request.id, linkId: link.id }, {
          onSuccess: () => showToast({ severity: 'success', summary: 'Link Revoked', detail: 'It no longer opens the request.' }),
          onError: failed('Failed to revoke the link'),
        })} />
    </section>
  );
}
