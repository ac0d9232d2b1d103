import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { useState, type FormEvent } from 'react';
import type { CreatedOrganizerLink } from '@ledgerline/contracts/organizers.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { copyLink } from './copy-link.ts';
import { LinkList } from './link-list.tsx';
import { useOrganizerLinkMutations, useOrganizerLinks } from './organizers.api.ts';
import { linkState } from './request-view.ts';

/**
 * Staff make a link for someone without an account (a spouse, a client who never signed up):
 * with an e-mail it is sent there; either way the URL is shown once (only its hash is kept).
 * The links made so far are listed below, each revocable while it works (shown only while the
 * organizer is open for answers, so an open organizer is what a live link opens).
 */
export function OrganizerLinkButton({ organizerId }: { organizerId: number }) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedOrganizerLink | null>(null);
  const { create, revoke } = useOrganizerLinkMutations(organizerId);
  const links = useOrganizerLinks(organizerId, open);
  const close = () => { setOpen(false); setCreated(null); setEmail(''); };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(email.trim() || null, {
      onSuccess: (link) => {
        setCreated(link);
        showToast({ severity: 'success', summary: 'Link Created', detail: email.trim() ? `Sent to ${email.trim()}` : 'Copy it and send it to the client.' });
      },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to create the link' }),
    });
  };
  return (
    <>
      <Button label="Link for someone without an account" icon="pi pi-link" outlined onClick={() => setOpen(true)} />
      <Dialog header="Link for someone without an account" visible={open} onHide={close} className="organizer-link-dialog" breakpoints={{ '640px': '95vw' }} style={{ width: '32rem' }}>
        <p className="request-panel__hint">Whoever holds the link answers this organizer without signing in, until it expires or the organizer is submitted.</p>
        {created ? (
          <div className="request-links__created">
            <label htmlFor="organizer-link-url">The link (shown only now)</label>
            <span className="request-links__url">
              <InputText id="organizer-link-url" value={created.url} readOnly onFocus={(e) => e.currentTarget.select()} />
              <Button type="button" label="Copy" icon="pi pi-copy" onClick={() => void copyLink(created.url)} />
            </span>
            <small>It works until {formatDate(created.expiresAt)}.</small>
          </div>
        ) : (
          <form className="request-links__form" onSubmit={submit}>
            <span className="request-links__field">
              <label htmlFor="organizer-link-email">E-mail it to (optional)</label>
              <InputText id="organizer-link-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </span>
            <Button type="submit" label="Create Link" icon="pi pi-link" loading={create.isPending} />
          </form>
        )}
        <h4 className="organizer-link-dialog__made">Links made</h4>
        <LinkList links={links.data} stateOf={(link) => linkState(link, 'open')}
          onRevoke={(link) => revoke.mutate(link.id, {
            onSuccess: () => showToast({ severity: 'success', summary: 'Link Revoked', detail: 'It no longer opens the organizer.' }),
            onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to revoke the link' }),
          })} />
      </Dialog>
    </>
  );
}
