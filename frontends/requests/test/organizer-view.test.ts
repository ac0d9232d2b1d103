import { describe, expect, it, beforeEach } from '@jest/globals';
import type { OrganizerSection } from '@ledgerline/contracts/organizers.contracts.ts';
import { installLocalStorage } from '../../ui/test/browser-globals.ts';
import { readDraft, removeDraft, startingAnswers, writeDraft } from '../src/organizer-draft.ts';
import { answeredPercent, answeredText, fileQuestionIds, isSubmitted, openForAnswers, toOrganizerAnswers, toSurveyData } from '../src/organizer-view.ts';

const sections = [{
  id: 'income', title: 'Income', description: null, showIf: null,
  questions: [
    { id: 'had_1099b', title: 'Did you receive a 1099-B?', type: 'yes_no', help: null, required: true, sensitive: false, showIf: null },
    { id: 'w2_forms', title: 'Your W-2 forms', type: 'file', help: null, required: false, sensitive: false, showIf: null },
  ],
}] as OrganizerSection[];

describe('organizer view rules', () => {
  it('the client answers a sent or started organizer only; submitted and reviewed ones are done', () => {
    expect(['draft', 'sent', 'in_progress', 'submitted', 'reviewed'].filter((s) => openForAnswers(s as never))).toEqual(['sent', 'in_progress']);
    expect(['draft', 'sent', 'in_progress', 'submitted', 'reviewed'].filter((s) => isSubmitted(s as never))).toEqual(['submitted', 'reviewed']);
  });

  it('counts answered questions in words and whole percent; an organizer without questions is done', () => {
    expect(answeredText({ answeredCount: 3, questionCount: 12 })).toBe('3 of 12 answered');
    expect(answeredPercent({ answeredCount: 3, questionCount: 12 })).toBe(25);
    expect(answeredPercent({ answeredCount: 0, questionCount: 0 })).toBe(100);
  });

  it('file answers travel as { fileId, name } and as SurveyJS file values, both ways; other answers are untouched', () => {
    const ids = fileQuestionIds(sections);
    expect([...ids]).toEqual(['w2_forms']);
    const answers = { had_1099b: true, w2_forms: [{ fileId: 7, name: 'w2.pdf' }] };
    const data = toSurveyData(answers, ids);
    expect(data).toEqual({ had_1099b: true, w2_forms: [{ name: 'w2.pdf', type: '', content: '7' }] });
    expect(toOrganizerAnswers(data, ids)).toEqual(answers);
    // A file still uploading (no id yet) is not an answer.
    expect(toOrganizerAnswers({ w2_forms: [{ name: 'x.pdf', content: 'blob:x' }] }, ids)).toEqual({ w2_forms: [] });
  });
});

describe('organizer draft (local copy)', () => {
  beforeEach(() => { installLocalStorage(); });

  it('is kept per firm and organizer, read back, and removed', () => {
    writeDraft('acme', 5, { name: 'Ann' }, new Date('2026-03-01T10:00:00Z'));
    expect(readDraft('acme', 5)).toEqual({ answers: { name: 'Ann' }, changedAt: '2026-03-01T10:00:00.000Z' });
    expect(readDraft('other', 5)).toBeNull();
    expect(readDraft('acme', 6)).toBeNull();
    removeDraft('acme', 5);
    expect(readDraft('acme', 5)).toBeNull();
  });

  it('ignores a damaged entry', () => {
    localStorage.setItem('organizerDraft:acme:5', '{"answers": [1]');
    expect(readDraft('acme', 5)).toBeNull();
    localStorage.setItem('organizerDraft:acme:5', '{"answers": [1], "changedAt": "x"}');
    expect(readDraft('acme', 5)).toBeNull();
  });

  it('a local copy newer than the server\'s last change wins; an older one is dropped', () => {
    const server = { answers: { name: 'Server' }, updatedAt: '2026-03-01T10:00:00.000Z' };
    expect(startingAnswers(server, { answers: { name: 'Local' }, changedAt: '2026-03-01T10:00:05.000Z' })).toEqual({ answers: { name: 'Local' }, restored: true });
    expect(startingAnswers(server, { answers: { name: 'Local' }, changedAt: '2026-03-01T09:59:00.000Z' })).toEqual({ answers: { name: 'Server' }, restored: false });
    expect(startingAnswers(server, null)).toEqual({ answers: { name: 'Server' }, restored: false });
  });
});
