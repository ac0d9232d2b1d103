import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ORGANIZER_MESSAGES, type OrganizerDetail } from '@ledgerline/contracts/organizers.contracts.ts';
import { ORGANIZER_PUSH } from '@ledgerline/contracts/organizers.constants.ts';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useClientDateCountry } from '@ledgerline/ui/client-date-country.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { usePushRefresh } from '@ledgerline/ui/realtime-connection.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { FileAccessButton } from '@ledgerline/ui/file-access-button.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { AnswerForm, AnswersView } from './organizer-answer-form.tsx';
import { OrganizerLinkButton } from './organizer-link-dialog.tsx';
import { answeredText, isSubmitted, openForAnswers, ORGANIZER_STATUS_LABELS, ORGANIZER_STATUS_SEVERITY } from './organizer-view.ts';
import { organizerSource, useOrganizer, useOrganizerMutations, useRefreshOrganizers } from './organizers.api.ts';

/** Send (a draft), Mark reviewed and Reopen (a submitted one): staff only. */
function StaffActions({ organizer }: { organizer: OrganizerDetail }) {
  const { update, reopen } = useOrganizerMutations();
  const failed = (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to update the organizer' });
  return (
    <>
      {organizer.status === 'draft' && (
        <Button label="Send" icon="pi pi-send" loading={update.isPending} onClick={() => update.mutate({ id: organizer.id, change: { status: 'sent' } }, {
          onSuccess: () => showToast({ severity: 'success', summary: 'Organizer Sent', detail: ORGANIZER_MESSAGES.sent }), onError: failed,
        })} />
      )}
      {organizer.status === 'submitted' && (
        <Button label="Mark reviewed" icon="pi pi-check" loading={update.isPending} onClick={() => update.mutate({ id: organizer.id, change: { status: 'reviewed' } }, {
          onSuccess: () => showToast({ severity: 'success', summary: 'Marked Reviewed', detail: organizer.title }), onError: failed,
        })} />
      )}
      {openForAnswers(organizer.status) && <OrganizerLinkButton organizerId={organizer.id} />}
      {isSubmitted(organizer.status) && (
        <Button label="Reopen" icon="pi pi-replay" outlined loading={reopen.isPending} onClick={() => reopen.mutate(organizer.id, {
          onSuccess: () => showToast({ severity: 'success', summary: 'Organizer Reopened', detail: 'The client can change their answers again.' }), onError: failed,
        })} />
      )}
    </>
  );
}

/** What the submitted answers became: the PDF filed as a report of the client, and the document request they called for. */
function SubmittedLinks({ organizer }: { organizer: OrganizerDetail }) {
  if (!organizer.reportFileId && !organizer.requestId) return null;
  return (
    <div className="organizer-outcome">
      {organizer.reportFileId && (
        <span className="organizer-outcome__file">
          Answers (PDF)
          <FileAccessButton file={{ id: organizer.reportFileId, originalName: `${organizer.title}.pdf` }} kind="view" />
          <FileAccessButton file={{ id: organizer.reportFileId, originalName: `${organizer.title}.pdf` }} kind="download" />
        </span>
      )}
      {organizer.requestId && <Link to={inCurrentFirm(`/requests/${organizer.requestId}`)}><i className="pi pi-file-import" aria-hidden="true" /> Document request</Link>}
    </div>
  );
}

/**
 * An organizer: the client answers it (saved as they type, Submit, then a thank-you and the
 * answers read only); staff read it, send a draft, mark a submitted one reviewed or reopen it,
 * and open the answers' PDF and the document request they called for.
 */
export function OrganizerPage() {
  const id = Number(useParams().id) || 0;
  const { state } = useAuth();
  const user = state.status === 'authenticated' ? state.user : null;
  const staff = !!user && (user.platformAdmin === true || !isClientRole(user.role));
  const organizer = useOrganizer(id);
  // Submitted, reopened or reviewed by the other side: shown without a reload (the answer form
  // keeps the questions and answers it opened with, so a refetch does not redraw them mid-answer).
  usePushRefresh(true, ORGANIZER_PUSH, ['organizers']);
  const source = useMemo(() => organizerSource(id), [id]);
  const refresh = useRefreshOrganizers();
  const country = useClientDateCountry();
  const back = staff
    ? <Link to={inCurrentFirm('/requests/organizers')} className="request-back"><i className="pi pi-arrow-left" aria-hidden="true" /> All organizers</Link>
    : <Link to={inCurrentFirm('/dashboard')} className="request-back"><i className="pi pi-arrow-left" aria-hidden="true" /> Home</Link>;

  if (organizer.isError || id === 0) {
    const missing = id === 0 || (organizer.error instanceof ApiError && organizer.error.status === 404);
    return (
      <div className="organizer-page">{back}
        <EmptyState icon="pi pi-list-check" title={missing ? ORGANIZER_MESSAGES.organizerNotFound : 'Error loading the organizer'}
          text={missing ? 'It does not exist or is not yours to see.' : serverMessage(organizer.error) ?? 'Please try again.'} />
      </div>
    );
  }
  const o = organizer.data;
  if (!o) return <div className="organizer-page">{back}<p>Loading...</p></div>;
  const answering = !staff && openForAnswers(o.status);
  return (
    <div className="organizer-page">
      {back}
      <header className="request-summary">
        <div className="request-summary__head">
          <div>
            <h2 className="request-summary__title">{o.title}</h2>
            <p className="request-summary__meta">
              {staff && <span>{o.clientName}</span>}
              <span>{o.year}</span>
              <span>Due {formatDate(o.dueDate, { country })}</span>
              {staff && <span>{answeredText(o)}</span>}
            </p>
          </div>
          <Tag value={ORGANIZER_STATUS_LABELS[o.status]} severity={ORGANIZER_STATUS_SEVERITY[o.status]} />
        </div>
        {o.message && <p className="request-summary__message">{o.message}</p>}
        {o.prefilledFromId && openForAnswers(o.status) && <small className="organizer-prefilled">Last year's answers are filled in: check them and change what is different this year.</small>}
        {staff && <div className="request-summary__actions"><StaffActions organizer={o} /></div>}
        {staff && isSubmitted(o.status) && <SubmittedLinks organizer={o} />}
      </header>
      {!staff && isSubmitted(o.status) && (
        <Message className="organizer-thanks" severity="success" text={`${ORGANIZER_MESSAGES.submitted} Your answers are below; ask the firm if one needs to change.`} />
      )}
      {answering
        ? <AnswerForm key={o.id} organizer={o} source={source} onSubmitted={() => void refresh()} />
        : <AnswersView key={`${o.id}:${o.status}:${o.updatedAt}`} organizer={o} />}
    </div>
  );
}
