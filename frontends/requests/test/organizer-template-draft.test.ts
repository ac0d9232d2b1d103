import { describe, expect, it } from '@jest/globals';
import type { OrganizerTemplate } from '@ledgerline/contracts/organizers.contracts.ts';
import {
  answerOptions, blankDraft, conditionFor, conditionValue, draftOf, draftProblems, earlierConditionQuestions, freeId, moved, newQuestion,
} from '../src/organizer-template-draft.ts';

const template: OrganizerTemplate = {
  id: 3, builtIn: 'us-1040', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
  name: 'US 1040', reportTypeId: 9, jurisdiction: 'US', description: null,
  sections: [
    { id: 'household', title: 'Household', description: null, showIf: null, questions: [
      { id: 'filing_status', title: 'Filing status', type: 'single_choice', choices: ['Single', 'Married'], help: null, required: true, sensitive: false, showIf: null },
      { id: 'name', title: 'Name', type: 'text', help: null, required: false, sensitive: false, showIf: null },
    ] },
    { id: 'income', title: 'Income', description: null, showIf: null, questions: [
      { id: 'had_1099b', title: '1099-B?', type: 'yes_no', help: null, required: true, sensitive: false, showIf: null },
      { id: 'interests', title: 'Interests', type: 'multiple_choice', choices: ['Bank', 'Bonds'], help: null, required: false, sensitive: false, showIf: null },
    ] },
  ],
};

describe('organizer template builder rules', () => {
  it('a copy of a shipped template is named "Copy of …" and shares nothing with the original', () => {
    const copy = draftOf(template, true);
    expect(copy.name).toBe('Copy of US 1040');
    copy.sections[0]!.title = 'Changed';
    expect(template.sections[0]!.title).toBe('Household');
    expect(draftOf(template, false).name).toBe('US 1040');
  });

  it('conditions look only at earlier yes/no and choice questions, and name their answers', () => {
    expect(earlierConditionQuestions(template, 1, 1).map((q) => q.id)).toEqual(['filing_status', 'had_1099b']);
    expect(earlierConditionQuestions(template, 0, 0)).toEqual([]);
    const [status, , yesNo, interests] = [...template.sections[0]!.questions, ...template.sections[1]!.questions];
    expect(answerOptions(yesNo)).toEqual([{ label: 'Yes', value: true }, { label: 'No', value: false }]);
    expect(answerOptions(status).map((o) => o.value)).toEqual(['Single', 'Married']);
    expect(conditionFor(yesNo!, true)).toEqual({ questionId: 'had_1099b', equals: true });
    expect(conditionFor(interests!, 'Bonds')).toEqual({ questionId: 'interests', includes: 'Bonds' });
    expect(conditionValue({ questionId: 'interests', includes: 'Bonds' })).toBe('Bonds');
    expect(conditionValue(null)).toBeNull();
  });

  it("gives each problem the contracts' schema finds at its field's path, and none for a valid template", () => {
    expect(draftProblems(draftOf(template, true)).problems.size).toBe(0);
    const draft = blankDraft();
    const { parsed, problems } = draftProblems(draft);
    expect(parsed).toBeNull();
    expect(problems.get('name')).toBe('name is required');
    expect(problems.get('sections.0.title')).toBe('section title is required');
    expect(problems.get('sections.0.questions.0.title')).toBe('question title is required');
    const duplicate = draftOf(template, true);
    duplicate.sections[1]!.questions.push({ ...newQuestion('name'), title: 'Again' });
    expect(draftProblems(duplicate).problems.get('sections.1.questions.2.id')).toBe('Each question id may appear once in a template');
  });

  it('new ids are free ones; moving stays within the list', () => {
    expect(freeId('q', ['q1', 'q2', 'q4'])).toBe('q3');
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
  });
});
