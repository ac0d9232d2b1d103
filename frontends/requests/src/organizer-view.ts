import type {
  OrganizerAnswers, OrganizerFileAnswer, OrganizerSection, OrganizerStatus,
} from '@ledgerline/contracts/organizers.contracts.ts';

/** How the screens name an organizer's status. */
export const ORGANIZER_STATUS_LABELS: Readonly<Record<OrganizerStatus, string>> = {
  draft: 'Draft', sent: 'Sent', in_progress: 'In progress', submitted: 'Submitted', reviewed: 'Reviewed',
};
export const ORGANIZER_STATUS_SEVERITY = { draft: 'secondary', sent: 'info', in_progress: 'warning', submitted: 'success', reviewed: 'success' } as const;

/** The client answers while the organizer is sent or in progress; a draft is not theirs yet, a submitted one waits for a reopen. */
export const openForAnswers = (status: OrganizerStatus): boolean => status === 'sent' || status === 'in_progress';
export const isSubmitted = (status: OrganizerStatus): boolean => status === 'submitted' || status === 'reviewed';

export const answeredText = (o: { answeredCount: number; questionCount: number }): string => `${o.answeredCount} of ${o.questionCount} answered`;
export const answeredPercent = (o: { answeredCount: number; questionCount: number }): number =>
  (o.questionCount <= 0 ? 100 : Math.min(100, Math.round((o.answeredCount / o.questionCount) * 100)));

/** The ids of the file questions (files are never asked inside a repeating group). */
export const fileQuestionIds = (sections: readonly OrganizerSection[]): Set<string> =>
  new Set(sections.flatMap((s) => s.questions.filter((q) => q.type === 'file').map((q) => q.id)));

/** SurveyJS keeps an uploaded file as { name, type, content }; `content` carries our file id. */
interface SurveyFileValue { name?: unknown; type?: unknown; content?: unknown }

const isFileAnswer = (value: unknown): value is OrganizerFileAnswer =>
  typeof value === 'object' && value !== null && Number.isInteger((value as OrganizerFileAnswer).fileId) && typeof (value as OrganizerFileAnswer).name === 'string';

/** Our answers as SurveyJS's data: file answers ({ fileId, name }) become its file values. */
export function toSurveyData(answers: OrganizerAnswers, fileIds: ReadonlySet<string>): Record<string, unknown> {
  const data: Record<string, unknown> = { ...answers };
  for (const id of fileIds) {
    const value = answers[id];
    if (Array.isArray(value)) data[id] = value.filter(isFileAnswer).map((f) => ({ name: f.name, type: '', content: String(f.fileId) }));
  }
  return data;
}

/** SurveyJS's data as our answers: file values become { fileId, name }; anything else is kept as the survey holds it. */
export function toOrganizerAnswers(data: Record<string, unknown>, fileIds: ReadonlySet<string>): OrganizerAnswers {
  const answers: OrganizerAnswers = {};
  for (const [id, value] of Object.entries(data)) {
    if (fileIds.has(id) && Array.isArray(value)) {
      answers[id] = (value as SurveyFileValue[])
        .map((f) => ({ fileId: Number(f.content), name: typeof f.name === 'string' ? f.name : '' }))
        .filter((f) => Number.isInteger(f.fileId) && f.fileId > 0);
    } else {
      answers[id] = value;
    }
  }
  return answers;
}
