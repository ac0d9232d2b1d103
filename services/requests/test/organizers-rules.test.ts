import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { organizerTemplateInputSchema, type OrganizerSection } from '@ledgerline/contracts/organizers.contracts.ts';
import {
  answerProgress, checkAnswerShape, mergeSensitive, missingAnswers, prefillFrom, requestItemsCalledFor, splitSensitive, visibleQuestionIds,
} from '../src/organizers/organizer-answers.ts';
import { renderOrganizerPdf } from '../src/organizers/organizer-pdf.ts';

/*
 * The organizer's answer rules as SurveyJS (survey-core, the library the page renders with)
 * reads them on the server: conditions, required questions, request-item rules, sensitive
 * answers kept apart, and the PDF a submission files.
 */

const template = organizerTemplateInputSchema.parse({
  name: 'Test organizer',
  sections: [
    {
      id: 'household', title: 'Household',
      questions: [
        { id: 'filing_status', type: 'single_choice', title: 'Filing status', required: true, choices: ['Single', 'Married'], requestItem: { when: 'Married', title: 'Spouse\'s W-2' } },
        { id: 'spouse_name', type: 'text', title: 'Spouse\'s name', required: true, showIf: { questionId: 'filing_status', equals: 'Married' } },
        { id: 'dependants', type: 'group', title: 'Dependants', fields: [
          { id: 'name', type: 'text', title: 'Name', required: true },
          { id: 'ssn', type: 'text', title: 'SSN', sensitive: true },
        ] },
      ],
    },
    {
      id: 'income', title: 'Income',
      questions: [
        { id: 'sold_shares', type: 'yes_no', title: 'Did you sell shares?', required: true, requestItem: { when: true, title: '1099-B from your broker' } },
        { id: 'income_kinds', type: 'multiple_choice', title: 'Other income', choices: ['Rent', 'Crypto'], requestItem: { when: 'Rent', title: 'Rental statements' } },
        { id: 'refund_account', type: 'text', title: 'Bank account for a refund', sensitive: true },
        { id: 'statements', type: 'file', title: 'Upload statements' },
      ],
    },
    {
      id: 'business', title: 'Business', showIf: { questionId: 'income_kinds', includes: 'Crypto' },
      questions: [{ id: 'wallets', type: 'number', title: 'How many wallets?', required: true }],
    },
  ],
});
const sections: OrganizerSection[] = template.sections;

describe('conditions and required questions (survey-core)', () => {
  it('a required question hidden by its condition is not asked for; shown, it is', () => {
    expect(missingAnswers(sections, { filing_status: 'Single', sold_shares: false })).toEqual([]);
    expect(missingAnswers(sections, { filing_status: 'Married', sold_shares: false })).toEqual(['Spouse\'s name']);
    expect(visibleQuestionIds(sections, { filing_status: 'Single' }).has('spouse_name')).toBe(false);
  });

  it('a section hidden by its condition hides its required questions; "includes" shows it', () => {
    expect(visibleQuestionIds(sections, { income_kinds: ['Rent'] }).has('wallets')).toBe(false);
    expect(missingAnswers(sections, { filing_status: 'Single', sold_shares: true, income_kinds: ['Crypto'] })).toEqual(['How many wallets?']);
  });

  it('a required yes/no answered No counts as answered; unanswered it is missing; a row missing a required field is', () => {
    expect(missingAnswers(sections, { filing_status: 'Single' })).toEqual(['Did you sell shares?']);
    expect(missingAnswers(sections, { filing_status: 'Single', sold_shares: false, dependants: [{ ssn: '123' }] })).toEqual(['Dependants']);
  });

  it('progress counts the questions shown and those answered', () => {
    expect(answerProgress(sections, { filing_status: 'Married', spouse_name: 'Sam' })).toEqual({ answeredCount: 2, questionCount: 7 });
  });
});

describe('request item rules', () => {
  it('yes/no: true adds the item, false does not', () => {
    expect(requestItemsCalledFor(sections, { sold_shares: true }).map((i) => i.title)).toEqual(['1099-B from your broker']);
    expect(requestItemsCalledFor(sections, { sold_shares: false })).toEqual([]);
  });

  it('single choice equals, multiple choice includes', () => {
    expect(requestItemsCalledFor(sections, { filing_status: 'Married', income_kinds: ['Crypto', 'Rent'] }).map((i) => i.title)).toEqual(['Spouse\'s W-2', 'Rental statements']);
    expect(requestItemsCalledFor(sections, { filing_status: 'Single', income_kinds: ['Crypto'] })).toEqual([]);
  });
});

describe('answer shape', () => {
  it('refuses unknown questions, unknown group fields and wrong types; accepts partial answers', () => {
    expect(() => checkAnswerShape(sections, { nope: 1 })).toThrow('answers.nope is not a question of this organizer');
    expect(() => checkAnswerShape(sections, { dependants: [{ name: 'A', age: 3 }] })).toThrow('answers.dependants.age is not a field of this group');
    expect(() => checkAnswerShape(sections, { sold_shares: 'yes' })).toThrow('answers.sold_shares must be true or false');
    expect(() => checkAnswerShape(sections, { statements: ['x'] })).toThrow('uploaded files');
    expect(() => checkAnswerShape(sections, { filing_status: 'Single' })).not.toThrow();
  });
});

describe('sensitive answers', () => {
  const answers = { filing_status: 'Single', refund_account: '000123456789', dependants: [{ name: 'Ann', ssn: '123-45-6789' }, { name: 'Bo' }] };

  it('are kept apart, including inside group rows, and merge back as they were', () => {
    const { plain, sensitive } = splitSensitive(sections, answers);
    expect(JSON.stringify(plain)).not.toContain('6789');
    expect(plain).toEqual({ filing_status: 'Single', dependants: [{ name: 'Ann' }, { name: 'Bo' }] });
    expect(mergeSensitive(plain, sensitive)).toEqual(answers);
  });

  it('last year\'s answers come along without uploads', () => {
    expect(prefillFrom(sections, { ...answers, statements: [{ fileId: 1, name: 'a.pdf' }] })).toEqual(answers);
  });
});

describe('the answers\' PDF', () => {
  it('shows only the questions shown, with sensitive values masked', async () => {
    const pdf = await renderOrganizerPdf({
      firmName: 'Acme CPAs', clientName: 'Own Client', title: 'Organizer 2026', year: 2026, submittedOn: '1/15/2027', currency: 'USD', sections,
      answers: { filing_status: 'Single', sold_shares: true, refund_account: '000123456789', dependants: [{ name: 'Ann', ssn: '123-45-6789' }] },
    });
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: Buffer.from(pdf), encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('Filing status Single');
    expect(text).toContain('Did you sell shares? Yes');
    expect(text).toContain('Name: Ann; SSN: •••• 6789');
    expect(text).toContain('Bank account for a refund •••• 6789');
    expect(text).not.toContain('123-45-6789');
    expect(text).not.toContain('000123456789');
    expect(text).not.toContain('Spouse');
    expect(text).not.toContain('wallets');
  });
});
