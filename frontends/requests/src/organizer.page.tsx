import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { SurveyModel } from 'survey-core';
import { ORGANIZER_MESSAGES, organizerSurveyJson, type OrganizerDetail } from '@ledgerline/contracts/organizers.contracts.ts';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useClientDateCountry } from '@ledgerline/ui/client-date-country.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { FileAccessButton } from '@ledgerline/ui/file-access-button.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { SAVE_STATE_TEXT } from './answer-saver.ts';
import { OrganizerForm } from './organizer-form.tsx';
import {
  answeredText, fileQuestionIds, isSubmitted, openForAnswers, ORGANIZER_STATUS_LABELS, ORGANIZER_STATUS_SEVERITY, toOrganizerAnswers, toSurveyData,
} from './organizer-view.ts';
import { uploadOrganizerFile, useOrganizer, useOrganizerMutations } from './organizers.api.ts';
import { useAnswerSaving } from './use-answer-saving.ts';

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

/** The questions with the client's answers saved as they type, and Submit. */
function AnswerForm({ organizer }: { organizer: OrganizerDetail }) {
  const saving = useAnswerSaving(organizer, true);
  const { submit } = useOrganizerMutations();
  const [problem, setProblem] = useState<string | null>(null);
  const model = useRef<SurveyModel | null>(null);
  const fileIds = useMemo(() => fileQuestionIds(organizer.sections), [organizer.sections]);
  // Once per organizer (the form is keyed by id and status): a refetch must not redraw the questions.
  const [json] = useState(() => organizerSurveyJson(organizer.sections, { currency: organizer.currency }));
  const [initialData] = useState(() => toSurveyData(saving.startAnswers, fileIds));
  const onModel = useCallback((m: SurveyModel | null) => { model.current = m; }, []);
  const send = async () => {
    setProblem(null);
    await saving.flush();
    // SurveyJS checks what shows and is required (the server checks the same JSON again).
    if (model.current && !model.current.validate(true, true)) {
      setProblem(ORGANIZER_MESSAGES.incomplete);
      return;
    }
    submit.mutate(organizer.id, {
      onSuccess: () => {
        saving.forget();
        showToast({ severity: 'success', summary: 'Submitted', detail: ORGANIZER_MESSAGES.submitted });
      },
      onError: (err) => setProblem(serverMessage(err) ?? 'The answers could not be submitted. Please try again.'),
    });
  };
  return (
    <>
      {saving.restored && <Message severity="info" text="Answers you typed on this device before were restored." />}
      <OrganizerForm json={json} initialData={initialData} readOnly={false} onModel={onModel}
        onChange={(data) => saving.change(toOrganizerAnswers(data, fileIds))}
        upload={(file) => uploadOrganizerFile(organizer.clientId, file)} />
      <div className="organizer-submit">
        <span className={`organizer-save organizer-save--${saving.state}`} role="status" aria-live="polite">{SAVE_STATE_TEXT[saving.state]}</span>
        {problem && <Message className="organizer-problem" severity="error" text={problem} />}
        <Button label="Submit" icon="pi pi-check" loading={submit.isPending} onClick={() => void send()} />
      </div>
    </>
  );
}

/** The answers as sent, read only (staff, and the client after Submit). */
function AnswersView({ organizer }: { organizer: OrganizerDetail }) {
  const fileIds = useMemo(() => fileQuestionIds(organizer.sections), [organizer.sections]);
  const [json] = useState(() => organizerSurveyJson(organizer.sections, { currency: organizer.currency }));
  const [initialData] = useState(() => toSurveyData(organizer.answers, fileIds));
  return <OrganizerForm json={json} initialData={initialData} readOnly />;
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
        ? <AnswerForm key={o.id} organizer={o} />
        : <AnswersView key={`${o.id}:${o.status}:${o.updatedAt}`} organizer={o} />}
    </div>
  );
}
