import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { Message } from 'primereact/message';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import type { SurveyModel } from 'survey-core';
import {
  FIRM_COUNTRIES,
} from '@ledgerline/contracts/firm-country.ts';
import {
  organizerSurveyJson, QUESTION_TYPES, type OrganizerCondition, type OrganizerGroupField, type OrganizerQuestion, type OrganizerSection,
} from '@ledgerline/contracts/organizers.contracts.ts';
import type { ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { OrganizerForm } from './organizer-form.tsx';
import {
  allQuestionIds, answerOptions, conditionFor, conditionValue, draftProblems, earlierConditionQuestions, freeId, GROUP_FIELD_TYPE_OPTIONS, moved,
  newField, newQuestion, newSection, QUESTION_TYPE_LABELS, type TemplateDraft,
} from './organizer-template-draft.ts';
import { useOrganizerTemplateMutations } from './organizers.api.ts';

type Problems = ReadonlyMap<string, string>;
const linesOf = (text: string): string[] => text.split('\n').map((l) => l.trim()).filter(Boolean);
const textOrNull = (text: string): string | null => (text.trim() ? text : null);

/** "Show only when": an earlier question (yes/no or a choice) and the answer that shows this one. */
function ConditionPicker({ id, condition, candidates, onChange, error }: {
  id: string; condition: OrganizerCondition | null | undefined; candidates: OrganizerQuestion[]; onChange(c: OrganizerCondition | null): void; error?: string | undefined;
}) {
  const question = candidates.find((q) => q.id === condition?.questionId);
  return (
    <FormField label="Show only when" htmlFor={`${id}-when`} error={error} hint={candidates.length ? undefined : 'No earlier yes/no or choice question to look at'}>
      <div className="organizer-builder__pair">
        <Dropdown inputId={`${id}-when`} value={condition?.questionId ?? null} showClear placeholder="Always shown" disabled={!candidates.length}
          options={candidates.map((q) => ({ label: q.title || q.id, value: q.id }))}
          onChange={(e) => {
            const picked = candidates.find((q) => q.id === e.value);
            const first = answerOptions(picked)[0];
            onChange(picked && first ? conditionFor(picked, first.value) : null);
          }} />
        {question && (
          <Dropdown aria-label="is answered" value={conditionValue(condition)} options={answerOptions(question)}
            onChange={(e) => onChange(conditionFor(question, e.value as boolean | string))} />
        )}
      </div>
    </FormField>
  );
}

/** The fields of one question or group field (type, title, help, required, sensitive, choices). */
function CommonFields({ path, value, types, onChange, problems }: {
  path: string; value: OrganizerQuestion | OrganizerGroupField; types: { label: string; value: string }[];
  onChange(change: Partial<OrganizerQuestion>): void; problems: Problems;
}) {
  const id = path.replaceAll('.', '-');
  const choiceType = value.type === 'single_choice' || value.type === 'multiple_choice';
  return (
    <>
      <div className="organizer-builder__pair">
        <FormField label="Question *" htmlFor={`${id}-title`} error={problems.get(`${path}.title`)}>
          <InputText id={`${id}-title`} value={value.title} onChange={(e) => onChange({ title: e.target.value })} />
        </FormField>
        <FormField label="Type" htmlFor={`${id}-type`} error={problems.get(`${path}.type`)}>
          <Dropdown inputId={`${id}-type`} value={value.type} options={types} onChange={(e) => onChange({ type: e.value })} />
        </FormField>
      </div>
      <div className="organizer-builder__pair">
        <FormField label="Key" htmlFor={`${id}-id`} error={problems.get(`${path}.id`)} hint="Names the answer; keep it once clients have answered">
          <InputText id={`${id}-id`} value={value.id} onChange={(e) => onChange({ id: e.target.value })} />
        </FormField>
        <FormField label="Help" htmlFor={`${id}-help`}>
          <InputText id={`${id}-help`} value={value.help ?? ''} onChange={(e) => onChange({ help: textOrNull(e.target.value) })} />
        </FormField>
      </div>
      {choiceType && (
        <FormField label="Choices (one a line) *" htmlFor={`${id}-choices`} error={problems.get(`${path}.choices`)}>
          <InputTextarea id={`${id}-choices`} rows={3} value={(value.choices ?? []).join('\n')}
            onChange={(e) => onChange({ choices: e.target.value.split('\n') })} onBlur={(e) => onChange({ choices: linesOf(e.target.value) })} />
        </FormField>
      )}
      <div className="organizer-builder__checks">
        <span className="request-form__check">
          <Checkbox inputId={`${id}-required`} checked={value.required} onChange={(e) => onChange({ required: !!e.checked })} />
          <label htmlFor={`${id}-required`}>Required</label>
        </span>
        <span className="request-form__check">
          <Checkbox inputId={`${id}-sensitive`} checked={value.sensitive} onChange={(e) => onChange({ sensitive: !!e.checked })} />
          <label htmlFor={`${id}-sensitive`}>Sensitive (stored encrypted, masked outside the organizer)</label>
        </span>
      </div>
    </>
  );
}

/** One question: its fields, a repeating group's fields, its condition and its request-item rule. */
function QuestionEditor({ draft, s, q, onChange, onRemove, onMove, problems }: {
  draft: TemplateDraft; s: number; q: number; onChange(question: OrganizerQuestion): void; onRemove(): void; onMove(by: -1 | 1): void; problems: Problems;
}) {
  const question = draft.sections[s]!.questions[q]!;
  const path = `sections.${s}.questions.${q}`;
  const id = path.replaceAll('.', '-');
  const set = (change: Partial<OrganizerQuestion>) => onChange({ ...question, ...change });
  const fields = question.fields ?? [];
  const ruleAnswers = answerOptions(question);
  return (
    <li className="organizer-builder__question" aria-label={`Question ${q + 1}: ${question.title || question.id}`}>
      <div className="organizer-builder__bar">
        <strong>Question {q + 1}</strong>
        <span>
          <Button icon="pi pi-arrow-up" text size="small" aria-label="Move up" onClick={() => onMove(-1)} />
          <Button icon="pi pi-arrow-down" text size="small" aria-label="Move down" onClick={() => onMove(1)} />
          <Button icon="pi pi-trash" text size="small" severity="danger" aria-label={`Remove question ${q + 1}`} onClick={onRemove} />
        </span>
      </div>
      <CommonFields path={path} value={question} types={QUESTION_TYPES.map((t) => ({ label: QUESTION_TYPE_LABELS[t], value: t }))} onChange={set} problems={problems} />
      {question.type === 'group' && (
        <fieldset className="organizer-builder__fields">
          <legend>Fields of each row</legend>
          {problems.get(`${path}.fields`) && <small className="form-field__error" role="alert">{problems.get(`${path}.fields`)}</small>}
          {fields.map((field, f) => (
            <div key={f} className="organizer-builder__field">
              <CommonFields path={`${path}.fields.${f}`} value={field} types={GROUP_FIELD_TYPE_OPTIONS}
                onChange={(change) => set({ fields: fields.map((x, i) => (i === f ? { ...x, ...change } as OrganizerGroupField : x)) })} problems={problems} />
              <Button label="Remove field" icon="pi pi-times" text size="small" severity="danger" onClick={() => set({ fields: fields.filter((_, i) => i !== f) })} />
            </div>
          ))}
          <Button label="Add field" icon="pi pi-plus" text size="small" onClick={() => set({ fields: [...fields, newField(freeId('field', fields.map((x) => x.id)))] })} />
        </fieldset>
      )}
      <ConditionPicker id={`${id}-show`} condition={question.showIf} candidates={earlierConditionQuestions(draft, s, q)}
        onChange={(showIf) => set({ showIf })} error={problems.get(`${path}.showIf`)} />
      {ruleAnswers.length > 0 && (
        <div className="organizer-builder__rule">
          <span className="request-form__check">
            <Checkbox inputId={`${id}-rule`} checked={!!question.requestItem}
              onChange={(e) => set({ requestItem: e.checked ? { when: ruleAnswers[0]!.value, title: '', description: null } : null })} />
            <label htmlFor={`${id}-rule`}>Adds a document request item when answered…</label>
          </span>
          {question.requestItem && (
            <div className="organizer-builder__pair">
              <Dropdown aria-label="Answer that adds the item" value={question.requestItem.when} options={ruleAnswers}
                onChange={(e) => set({ requestItem: { ...question.requestItem!, when: e.value as boolean | string } })} />
              <FormField label="Item to ask for *" htmlFor={`${id}-rule-title`} error={problems.get(`${path}.requestItem.title`)}>
                <InputText id={`${id}-rule-title`} value={question.requestItem.title} placeholder="1099-B from your broker"
                  onChange={(e) => set({ requestItem: { ...question.requestItem!, title: e.target.value } })} />
              </FormField>
            </div>
          )}
        </div>
      )}
    </li>
  );
}

function SectionEditor({ draft, s, onChange, onRemove, onMove, problems }: {
  draft: TemplateDraft; s: number; onChange(section: OrganizerSection): void; onRemove(): void; onMove(by: -1 | 1): void; problems: Problems;
}) {
  const section = draft.sections[s]!;
  const path = `sections.${s}`;
  const id = path.replace('.', '-');
  const set = (change: Partial<OrganizerSection>) => onChange({ ...section, ...change });
  const setQuestions = (questions: OrganizerQuestion[]) => set({ questions });
  return (
    <section className="organizer-builder__section" aria-label={`Section ${s + 1}: ${section.title || section.id}`}>
      <div className="organizer-builder__bar">
        <h3>Section {s + 1}</h3>
        <span>
          <Button icon="pi pi-arrow-up" text size="small" aria-label={`Move section ${s + 1} up`} onClick={() => onMove(-1)} />
          <Button icon="pi pi-arrow-down" text size="small" aria-label={`Move section ${s + 1} down`} onClick={() => onMove(1)} />
          <Button icon="pi pi-trash" text size="small" severity="danger" aria-label={`Remove section ${s + 1}`} onClick={onRemove} />
        </span>
      </div>
      <div className="organizer-builder__pair">
        <FormField label="Section title *" htmlFor={`${id}-title`} error={problems.get(`${path}.title`)}>
          <InputText id={`${id}-title`} value={section.title} onChange={(e) => set({ title: e.target.value })} />
        </FormField>
        <FormField label="Key" htmlFor={`${id}-id`} error={problems.get(`${path}.id`)}>
          <InputText id={`${id}-id`} value={section.id} onChange={(e) => set({ id: e.target.value })} />
        </FormField>
      </div>
      <FormField label="Description" htmlFor={`${id}-description`}>
        <InputText id={`${id}-description`} value={section.description ?? ''} onChange={(e) => set({ description: textOrNull(e.target.value) })} />
      </FormField>
      <ConditionPicker id={`${id}-show`} condition={section.showIf} candidates={earlierConditionQuestions(draft, s, 0)}
        onChange={(showIf) => set({ showIf })} error={problems.get(`${path}.showIf`)} />
      {problems.get(`${path}.questions`) && <small className="form-field__error" role="alert">{problems.get(`${path}.questions`)}</small>}
      <ol className="organizer-builder__questions">
        {section.questions.map((_, q) => (
          <QuestionEditor key={q} draft={draft} s={s} q={q} problems={problems}
            onChange={(question) => setQuestions(section.questions.map((x, i) => (i === q ? question : x)))}
            onRemove={() => setQuestions(section.questions.filter((_, i) => i !== q))}
            onMove={(by) => setQuestions(moved(section.questions, q, by))} />
        ))}
      </ol>
      <Button label="Add question" icon="pi pi-plus" outlined size="small" onClick={() => setQuestions([...section.questions, newQuestion(freeId('q', allQuestionIds(draft)))])} />
    </section>
  );
}

/**
 * The organizer template builder (ours; SurveyJS only draws the preview, from the same
 * converter the client's page uses): name, report type, jurisdiction, sections and questions.
 */
export function OrganizerTemplateEditor({ id, initial, reportTypes, onDone }: { id: number | null; initial: TemplateDraft; reportTypes: ReportType[]; onDone(): void }) {
  const [draft, setDraft] = useState<TemplateDraft>(initial);
  const [tried, setTried] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { save } = useOrganizerTemplateMutations();
  const { parsed, problems } = useMemo(() => draftProblems(draft), [draft]);
  // Messages show once Save was tried: a new question is not "wrong" while it is being typed.
  const shown: Problems = tried ? problems : new Map();
  const preview = useDeferredValue(draft);
  const previewJson = useMemo(() => organizerSurveyJson(preview.sections), [preview]);
  // The preview is drawn again on each edit; it keeps what was answered in it and its page.
  const previewAnswers = useRef<Record<string, unknown>>({});
  const previewPage = useRef(0);
  const keepPreviewPage = useCallback((model: SurveyModel | null) => {
    if (!model) return;
    model.currentPageNo = Math.max(0, Math.min(previewPage.current, model.visiblePageCount - 1));
    model.onCurrentPageChanged.add((sender) => { previewPage.current = sender.currentPageNo; });
  }, []);
  const set = (change: Partial<TemplateDraft>) => setDraft((d) => ({ ...d, ...change }));
  const setSections = (sections: OrganizerSection[]) => set({ sections });
  const submit = () => {
    setTried(true);
    setFailure(null);
    if (!parsed) {
      setFailure('Some fields need your attention (marked below).');
      return;
    }
    save.mutate({ id, template: parsed }, {
      onSuccess: (saved) => { showToast({ severity: 'success', summary: 'Template Saved', detail: saved.name }); onDone(); },
      onError: (err) => setFailure(serverMessage(err) ?? 'Failed to save the template'),
    });
  };
  return (
    <div className="organizer-builder">
      <div className="organizer-builder__form">
        {failure && <Message severity="error" text={failure} />}
        <FormField label="Name *" htmlFor="organizer-template-name" error={shown.get('name')}>
          <InputText id="organizer-template-name" value={draft.name} onChange={(e) => set({ name: e.target.value })} />
        </FormField>
        <div className="organizer-builder__pair">
          <FormField label="Report type" htmlFor="organizer-template-report-type" error={shown.get('reportTypeId')}>
            <Dropdown inputId="organizer-template-report-type" value={draft.reportTypeId ?? null} showClear placeholder="Any"
              options={reportTypes.map((t) => ({ label: t.name, value: t.id }))} onChange={(e) => set({ reportTypeId: e.value ?? null })} />
          </FormField>
          <FormField label="Jurisdiction" htmlFor="organizer-template-jurisdiction" error={shown.get('jurisdiction')}>
            <Dropdown inputId="organizer-template-jurisdiction" value={draft.jurisdiction ?? null} showClear placeholder="Any"
              options={FIRM_COUNTRIES.map((c) => ({ label: c, value: c }))} onChange={(e) => set({ jurisdiction: e.value ?? null })} />
          </FormField>
        </div>
        <FormField label="Description" htmlFor="organizer-template-description">
          <InputTextarea id="organizer-template-description" rows={2} value={draft.description ?? ''} onChange={(e) => set({ description: textOrNull(e.target.value) })} />
        </FormField>
        {shown.get('sections') && <small className="form-field__error" role="alert">{shown.get('sections')}</small>}
        {draft.sections.map((_, s) => (
          <SectionEditor key={s} draft={draft} s={s} problems={shown}
            onChange={(section) => setSections(draft.sections.map((x, i) => (i === s ? section : x)))}
            onRemove={() => setSections(draft.sections.filter((_, i) => i !== s))}
            onMove={(by) => setSections(moved(draft.sections, s, by))} />
        ))}
        <Button label="Add section" icon="pi pi-plus" outlined onClick={() => setSections([...draft.sections, newSection(draft)])} />
        <div className="organizer-builder__actions">
          <Button label="Cancel" outlined onClick={onDone} />
          <Button label="Save template" icon="pi pi-check" loading={save.isPending} onClick={submit} />
        </div>
      </div>
      <aside className="organizer-builder__preview" aria-label="Preview">
        <h3>Preview</h3>
        <OrganizerForm key={JSON.stringify(previewJson)} json={previewJson} initialData={previewAnswers.current} readOnly={false}
          onChange={(data) => { previewAnswers.current = data; }} onModel={keepPreviewPage} />
      </aside>
    </div>
  );
}
