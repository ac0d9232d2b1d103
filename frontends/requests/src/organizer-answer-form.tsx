import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { SurveyModel } from 'survey-core';
import { ORGANIZER_MESSAGES, organizerSurveyJson, type OrganizerDetail } from '@ledgerline/contracts/organizers.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { SAVE_STATE_TEXT } from './answer-saver.ts';
import { OrganizerForm } from './organizer-form.tsx';
import { fileQuestionIds, toOrganizerAnswers, toSurveyData } from './organizer-view.ts';
import type { OrganizerSource } from './organizers.api.ts';
import { useAnswerSaving } from './use-answer-saving.ts';

/*
 * Answering an organizer, the same for a signed-in client and for the holder of a link: the
 * questions drawn by SurveyJS, the answers saved as they type (and kept on the device until
 * saved), file questions' uploads, and Submit. Only the calls differ (OrganizerSource).
 */

/** The questions with the answers saved as they type, and Submit. */
export function AnswerForm({ organizer, source, onSubmitted }: { organizer: OrganizerDetail; source: OrganizerSource; onSubmitted(detail: OrganizerDetail): void }) {
  const saving = useAnswerSaving(organizer, source, true);
  const submit = useMutation({ mutationFn: () => source.submit() });
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
    submit.mutate(undefined, {
      onSuccess: (detail) => {
        saving.forget();
        showToast({ severity: 'success', summary: 'Submitted', detail: ORGANIZER_MESSAGES.submitted });
        onSubmitted(detail);
      },
      onError: (err) => setProblem(serverMessage(err) ?? 'The answers could not be submitted. Please try again.'),
    });
  };
  return (
    <>
      {saving.restored && <Message severity="info" text="Answers you typed on this device before were restored." />}
      <OrganizerForm json={json} initialData={initialData} readOnly={false} onModel={onModel}
        onChange={(data) => saving.change(toOrganizerAnswers(data, fileIds))}
        upload={(questionId, file) => source.upload(questionId, file)} />
      <div className="organizer-submit">
        <span className={`organizer-save organizer-save--${saving.state}`} role="status" aria-live="polite">{SAVE_STATE_TEXT[saving.state]}</span>
        {problem && <Message className="organizer-problem" severity="error" text={problem} />}
        <Button label="Submit" icon="pi pi-check" loading={submit.isPending} onClick={() => void send()} />
      </div>
    </>
  );
}

/** The answers as sent, read only (staff, and the client after Submit). */
export function AnswersView({ organizer }: { organizer: OrganizerDetail }) {
  const fileIds = useMemo(() => fileQuestionIds(organizer.sections), [organizer.sections]);
  const [json] = useState(() => organizerSurveyJson(organizer.sections, { currency: organizer.currency }));
  const [initialData] = useState(() => toSurveyData(organizer.answers, fileIds));
  return <OrganizerForm json={json} initialData={initialData} readOnly />;
}
