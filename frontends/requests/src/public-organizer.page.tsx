import { Message } from 'primereact/message';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { ORGANIZER_MESSAGES, type OrganizerDetail } from '@ledgerline/contracts/organizers.contracts.ts';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { AnswerForm, AnswersView } from './organizer-answer-form.tsx';
import { openForAnswers } from './organizer-view.ts';
import { linkOrganizerSource, usePublicOrganizer } from './organizers.api.ts';

/**
 * PUBLIC_BASE_URL/organizer/{token}: the organizer a link opens, for someone without an
 * account. Outside the signed-in frame (a public route of this app), with the same answering
 * form as the client's page (organizer-answer-form.tsx) on the link's calls: saved as they
 * type, kept on the device until saved, uploads, Submit; then a thank-you and the answers.
 */
export function PublicOrganizerPage() {
  const token = useParams().token ?? '';
  const organizer = usePublicOrganizer(token);
  const source = useMemo(() => linkOrganizerSource(token), [token]);
  // After Submit the link answers 410: the page keeps what the submission returned.
  const [submitted, setSubmitted] = useState<OrganizerDetail | null>(null);

  if (submitted) {
    return (
      <main className="public-organizer">
        <h1 className="public-organizer__title">{submitted.title}</h1>
        <Message className="organizer-thanks" severity="success" text={`${ORGANIZER_MESSAGES.submitted} Your answers are below; ask the firm if one needs to change.`} />
        <AnswersView organizer={submitted} />
      </main>
    );
  }
  if (organizer.isError) {
    const status = organizer.error instanceof ApiError ? organizer.error.status : 0;
    return (
      <main className="public-organizer">
        <h1 className="public-organizer__title">{status === 410 ? 'This link no longer opens the organizer' : 'This link does not open an organizer'}</h1>
        <Message severity={status === 410 ? 'info' : 'error'} text={serverMessage(organizer.error) ?? 'Please check the link, or ask the firm for a new one.'} />
      </main>
    );
  }
  const o = organizer.data;
  if (!o) return <main className="public-organizer"><p role="status">Loading...</p></main>;
  return (
    <main className="public-organizer">
      <header className="public-organizer__head">
        <p className="public-organizer__firm">{o.firmName}</p>
        <h1 className="public-organizer__title">{o.title}</h1>
        <p className="request-summary__meta">
          <span>{o.clientName}</span>
          <span>{o.year}</span>
          <span>Due {formatDate(o.dueDate)}</span>
        </p>
        {o.message && <p className="request-summary__message">{o.message}</p>}
        {o.prefilledFromId && <small className="organizer-prefilled">Last year's answers are filled in: check them and change what is different this year.</small>}
      </header>
      {openForAnswers(o.status)
        ? <AnswerForm key={o.id} organizer={o} source={source} onSubmitted={setSubmitted} />
        : <AnswersView key={o.id} organizer={o} />}
    </main>
  );
}
