import {
  GROUP_FIELD_TYPES, organizerTemplateInputSchema, type OrganizerCondition, type OrganizerGroupField, type OrganizerQuestion, type OrganizerSection,
  type OrganizerTemplate, type OrganizerTemplateInput, type QuestionType,
} from '@ledgerline/contracts/organizers.contracts.ts';

/** The builder's working copy: the template's input, edited in place until it is saved. */
export type TemplateDraft = OrganizerTemplateInput;

export const QUESTION_TYPE_LABELS: Readonly<Record<QuestionType, string>> = {
  yes_no: 'Yes / no', text: 'Text', number: 'Number', money: 'Money', date: 'Date',
  single_choice: 'Single choice', multiple_choice: 'Multiple choice', group: 'Repeating group', file: 'File upload',
};
export const GROUP_FIELD_TYPE_OPTIONS = GROUP_FIELD_TYPES.map((type) => ({ label: QUESTION_TYPE_LABELS[type], value: type }));

/** An id not used yet in `taken`: q1, q2, … (ids are the answers' keys, so they stay once chosen). */
export function freeId(prefix: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n += 1) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
}

export const allQuestionIds = (draft: TemplateDraft): string[] => draft.sections.flatMap((s) => s.questions.map((q) => q.id));

export const newQuestion = (id: string): OrganizerQuestion => ({ id, title: '', type: 'text', help: null, required: false, sensitive: false, showIf: null, requestItem: null });
export const newField = (id: string): OrganizerGroupField => ({ id, title: '', type: 'text', help: null, required: false, sensitive: false, showIf: null });
export const newSection = (draft: TemplateDraft): OrganizerSection => ({
  id: freeId('section', draft.sections.map((s) => s.id)), title: '', description: null, showIf: null, questions: [newQuestion(freeId('q', allQuestionIds(draft)))],
});
export const blankDraft = (): TemplateDraft => {
  const draft: TemplateDraft = { name: '', reportTypeId: null, jurisdiction: null, description: null, sections: [] };
  return { ...draft, sections: [newSection(draft)] };
};

/** A template as the builder edits it: a copy of a shipped one is named "Copy of …" and is the firm's own. */
export function draftOf(template: OrganizerTemplate, copy: boolean): TemplateDraft {
  const { name, reportTypeId, jurisdiction, description, sections } = template;
  return structuredClone({ name: copy ? `Copy of ${name}` : name, reportTypeId: reportTypeId ?? null, jurisdiction: jurisdiction ?? null, description: description ?? null, sections });
}

/** The questions a condition may look at: asked before `position` (section s, question q) and answered yes/no or by a choice. */
export function earlierConditionQuestions(draft: TemplateDraft, s: number, q: number): OrganizerQuestion[] {
  const before = draft.sections.slice(0, s).flatMap((section) => section.questions).concat(draft.sections[s]?.questions.slice(0, q) ?? []);
  return before.filter((question) => question.type === 'yes_no' || question.type === 'single_choice' || question.type === 'multiple_choice');
}

/** The answers a condition or a request-item rule can name for a question: Yes/No, or its choices. */
export function answerOptions(question: Pick<OrganizerQuestion, 'type' | 'choices'> | undefined): { label: string; value: boolean | string }[] {
  if (!question) return [];
  if (question.type === 'yes_no') return [{ label: 'Yes', value: true }, { label: 'No', value: false }];
  return (question.choices ?? []).map((choice) => ({ label: choice, value: choice }));
}

/** A condition on `question` answered `value`: `includes` for a multiple choice, `equals` otherwise. */
export function conditionFor(question: OrganizerQuestion, value: boolean | string): OrganizerCondition {
  return question.type === 'multiple_choice' ? { questionId: question.id, includes: String(value) } : { questionId: question.id, equals: value };
}
export const conditionValue = (condition: OrganizerCondition | null | undefined): boolean | string | null =>
  (!condition ? null : 'equals' in condition ? condition.equals : condition.includes);

/**
 * What the contracts' schema says is wrong, by field path ("sections.0.questions.2.title"): the
 * builder shows each message at its field before the server is asked (it checks the same schema).
 */
export function draftProblems(draft: TemplateDraft): { parsed: OrganizerTemplateInput | null; problems: Map<string, string> } {
  const result = organizerTemplateInputSchema.safeParse(draft);
  if (result.success) return { parsed: result.data, problems: new Map() };
  const problems = new Map<string, string>();
  for (const issue of result.error.issues) {
    const key = issue.path.join('.');
    if (!problems.has(key)) problems.set(key, issue.message);
  }
  return { parsed: null, problems };
}

/** Moves item `from` one place up (-1) or down (+1); out of range leaves the list as it is. */
export function moved<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (to < 0 || to >= list.length) return [...list];
  const copy = [...list];
  [copy[from], copy[to]] = [copy[to]!, copy[from]!];
  return copy;
}
