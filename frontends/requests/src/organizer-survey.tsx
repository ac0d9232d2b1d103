// Loaded only by import() (organizer-form.tsx): SurveyJS and its style sheet (~1 MB of script,
// 330 KB of CSS) are fetched by the pages that show a questionnaire and by no other page.
// survey-react-ui imports 'react' and 'react-dom', which module federation shares as
// singletons (federated-app.config.mjs): it renders with the shell's one React.
import { useEffect, useMemo, useRef } from 'react';
import { Model, type SurveyModel } from 'survey-core';
import { Survey } from 'survey-react-ui';
// The default theme without its web fonts (they would be fetched from a font host): the
// questions take the portal's own font.
import 'survey-core/survey-core.fontless.min.css';
import type { OrganizerFileAnswer } from '@ledgerline/contracts/organizers.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';

export interface OrganizerSurveyProps {
  /** organizerSurveyJson(...) of the sections. */
  json: Record<string, unknown>;
  /** The answers to start from, as SurveyJS data (toSurveyData). */
  initialData: Record<string, unknown>;
  readOnly: boolean;
  onChange?(data: Record<string, unknown>): void;
  /** A file question's upload (the question's id, the file); the answer keeps { fileId, name }. */
  upload?(questionId: string, file: File): Promise<OrganizerFileAnswer>;
  /** The model, for the page's Submit (validate) and tests. */
  onModel?(model: SurveyModel | null): void;
}

/** One organizer's questions, one page per section, drawn by SurveyJS from the one converter. */
export default function OrganizerSurvey({ json, initialData, readOnly, onChange, upload, onModel }: OrganizerSurveyProps) {
  const callbacks = useRef({ onChange, upload });
  callbacks.current = { onChange, upload };
  // A new model only when the questions change: re-creating it on each answer would lose the page and focus.
  const model = useMemo(() => {
    const survey = new Model(json);
    survey.data = initialData;
    // Every key typed is an answer (saved after a pause), not only a finished field: a phone
    // that locks mid-answer never leaves the field, so "on blur" would lose what was typed.
    survey.textUpdateMode = 'onTyping';
    // Read, not answered (staff; the client after Submit): every section on one page.
    if (readOnly) survey.questionsOnPageMode = 'singlePage';
    // Our own Submit button sends the answers; SurveyJS's Complete would only end its form.
    survey.showCompleteButton = false;
    survey.onValueChanged.add((sender) => callbacks.current.onChange?.({ ...sender.data }));
    survey.onUploadFiles.add((_sender, options) => {
      const send = callbacks.current.upload;
      if (!send) {
        options.callback([], ['Files cannot be uploaded here.']);
        return;
      }
      void Promise.all(options.files.map(async (file) => ({ file, content: String((await send(options.name, file)).fileId) })))
        .then((uploaded) => options.callback(uploaded))
        .catch((error: unknown) => options.callback([], [serverMessage(error) ?? 'The file could not be uploaded.']));
    });
    // A stored file is our id, not a data URL: there is nothing for SurveyJS to preview.
    survey.onDownloadFile.add((_sender, options) => options.callback('success', ''));
    return survey;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the starting data is read once per model
  }, [json]);
  useEffect(() => { model.readOnly = readOnly; }, [model, readOnly]);
  useEffect(() => {
    onModel?.(model);
    return () => onModel?.(null);
  }, [model, onModel]);
  return <div className="organizer-survey"><Survey model={model} /></div>;
}
