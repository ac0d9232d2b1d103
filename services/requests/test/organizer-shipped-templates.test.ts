import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { Model } from 'survey-core';
import {
  organizerSurveyJson, organizerTemplateInputSchema, templateProblems,
  type OrganizerAnswers, type OrganizerTemplateInput,
} from '@ledgerline/contracts/organizers.contracts.ts';
import { SHIPPED_ORGANIZER_TEMPLATES, type ShippedOrganizerTemplate } from '../src/organizers/shipped/index.ts';

/*
 * The shipped organizer templates (issue 42): each parses as a template, renders in
 * SurveyJS, names the official source it was reviewed against, fits the report type of the
 * same name in the compliance presets, and marks every identifying number sensitive.
 */

const SHIPPED_DIR = new URL('../src/organizers/shipped/', import.meta.url);
const PRESET_CALENDARS_DIR = new URL('../../compliance/src/presets/calendars/', import.meta.url);

/** Each template's file and the official source its header comment names (and these titles repeat). */
const SOURCES: Record<string, { file: string; source: string; mentions: string[] }> = {
  'us-1040': { file: 'us-1040.ts', source: 'IRS Form 1040 and Schedules 1–3 instructions', mentions: ['Form 1040', 'Schedules 1–3', 'instructions'] },
  'uk-self-assessment': { file: 'uk-self-assessment.ts', source: 'HMRC SA100 and its supplementary pages', mentions: ['HMRC', 'SA100', 'supplementary pages', 'SA102', 'SA103', 'SA105', 'SA106', 'SA108'] },
  'india-itr': { file: 'india-itr.ts', source: 'Income Tax Department ITR-1/ITR-2 forms and instructions', mentions: ['Income Tax Department', 'ITR-1', 'ITR-2', 'instructions'] },
  'au-individual': { file: 'au-individual.ts', source: 'ATO individual tax return instructions', mentions: ['ATO', 'Individual tax return instructions'] },
};

const templateCases = SHIPPED_ORGANIZER_TEMPLATES.map((shipped) => [`${shipped.builtIn}, reviewed against ${SOURCES[shipped.builtIn]?.source ?? 'an unnamed source'}`, shipped] as const);
const parse = (shipped: ShippedOrganizerTemplate): OrganizerTemplateInput => organizerTemplateInputSchema.parse(shipped.template);

/** Every question and group field, a field named `group.field`. */
function everyQuestion(template: OrganizerTemplateInput) {
  return template.sections.flatMap((section) => section.questions.flatMap((question) => [
    { id: question.id, type: question.type, title: question.title, sensitive: question.sensitive },
    ...(question.fields ?? []).map((field) => ({ id: `${question.id}.${field.id}`, type: field.type, title: field.title, sensitive: field.sensitive })),
  ]));
}
/** Only a typed answer can hold a number; a yes/no about a bank account ("use_bank_account") cannot. */
const TYPED_ANSWER = new Set(['text', 'number']);

/** Words in an id that mark an identifying number: SSN/ITIN/TIN, bank routing and account numbers, UTR, PAN, TFN, NI number, IP PIN. */
const SENSITIVE_ID_WORDS = ['ssn', 'itin', 'tin', 'routing', 'account', 'utr', 'pan', 'tfn', 'nino', 'ifsc', 'bsb'];
const looksSensitive = (id: string): boolean => {
  const name = id.split('.').at(-1) ?? id;
  return name.split('_').some((word) => SENSITIVE_ID_WORDS.includes(word)) || /(^|_)ip_pins?($|_)/.test(name) || /(^|_)sort_code($|_)/.test(name);
};
/** Titles that ask for such a number, whatever the id says. */
const SENSITIVE_TITLE = /social security number|\bSSN\b|\bITIN\b|routing number|account number|\bUTR\b|Unique Taxpayer Reference|\bPAN\b|tax file number|National Insurance number|Identity Protection PIN|\bIFSC\b|\bBSB\b|sort code|EIN or SSN/i;

/** The request items a submit would add: each visible question answered as its rule says (SurveyJS decides what is visible). */
function requestItemsFor(template: OrganizerTemplateInput, answers: OrganizerAnswers): string[] {
  const model = new Model(organizerSurveyJson(template.sections));
  model.data = answers;
  return template.sections.flatMap((section) => section.questions)
    .filter((question) => question.requestItem && model.getQuestionByName(question.id).isVisible && answers[question.id] === question.requestItem.when)
    .map((question) => question.requestItem!.title);
}

describe('shipped organizer templates', () => {
  it('ships the US 1040 organizer and the UK, India and Australia checklists, each once, each for its own jurisdiction', () => {
    expect(SHIPPED_ORGANIZER_TEMPLATES.map((shipped) => shipped.builtIn)).toEqual(['us-1040', 'uk-self-assessment', 'india-itr', 'au-individual']);
    expect(SHIPPED_ORGANIZER_TEMPLATES.map((shipped) => shipped.template.jurisdiction)).toEqual(['US', 'GB', 'IN', 'AU']);
  });

  it.each(templateCases)('%s: parses with organizerTemplateInputSchema, with no template problems', (_title, shipped) => {
    const result = organizerTemplateInputSchema.safeParse(shipped.template);
    expect(result.error?.issues ?? []).toEqual([]);
    expect(templateProblems(parse(shipped).sections)).toEqual([]);
  });

  it.each(templateCases)('%s: its file\'s header names that source', (_title, shipped) => {
    const { file, mentions } = SOURCES[shipped.builtIn]!;
    const header = readFileSync(new URL(file, SHIPPED_DIR), 'utf8').split('*/')[0]!;
    for (const mention of mentions) expect(header).toContain(mention);
  });

  it.each(templateCases)('%s: converts with organizerSurveyJson and loads in survey-core with every question', (_title, shipped) => {
    const template = parse(shipped);
    const model = new Model(organizerSurveyJson(template.sections, { currency: 'USD' }));
    expect(model.pages.map((page) => page.name)).toEqual(template.sections.map((section) => section.id));
    const topLevel = template.sections.flatMap((section) => section.questions.map((question) => question.id));
    expect(model.getAllQuestions().map((question) => question.name)).toEqual(topLevel);
    // Nothing answered: only the questions required from the start can fail.
    expect(model.hasErrors(false, false)).toBe(template.sections.some((section) => !section.showIf && section.questions.some((q) => q.required && !q.showIf)));
  });

  it.each(templateCases)('%s: its report type name is one of the compliance presets\' report types', (_title, shipped) => {
    const presetNames = readdirSync(PRESET_CALENDARS_DIR).filter((file) => file.endsWith('.json'))
      .flatMap((file) => (JSON.parse(readFileSync(new URL(file, PRESET_CALENDARS_DIR), 'utf8')) as { entries?: { reportTypeName: string }[] }).entries ?? [])
      .map((entry) => entry.reportTypeName);
    expect(presetNames.length).toBeGreaterThan(0);
    expect(presetNames).toContain(shipped.reportTypeName);
  });

  it.each(templateCases)('%s: every identifying number (SSN, TIN, routing, account, UTR, PAN, TFN, NI number, IP PIN) is flagged sensitive', (_title, shipped) => {
    const questions = everyQuestion(parse(shipped));
    const unflagged = questions.filter((q) => TYPED_ANSWER.has(q.type) && (looksSensitive(q.id) || SENSITIVE_TITLE.test(q.title)) && !q.sensitive).map((q) => q.id);
    expect(unflagged).toEqual([]);
    expect(questions.some((q) => q.sensitive)).toBe(true);
  });

  it.each(templateCases)('%s: every request rule can be met (yes/no on a boolean, a choice on one of its choices)', (_title, shipped) => {
    const questions = parse(shipped).sections.flatMap((section) => section.questions).filter((q) => q.requestItem);
    expect(questions.length).toBeGreaterThan(3);
    for (const question of questions) {
      if (question.type === 'yes_no') expect(typeof question.requestItem!.when).toBe('boolean');
      else expect(question.choices).toContain(question.requestItem!.when);
    }
  });

  it.each(templateCases)('%s: names no particular year, so it serves every year', (_title, shipped) => {
    expect(JSON.stringify(shipped.template)).not.toMatch(/\b(19|20)\d\d\b/);
  });
});

describe('US 1040 organizer (IRS Form 1040 and Schedules 1–3 instructions)', () => {
  const us = parse(SHIPPED_ORGANIZER_TEMPLATES.find((shipped) => shipped.builtIn === 'us-1040')!);
  const question = (id: string) => us.sections.flatMap((section) => section.questions).find((q) => q.id === id);
  const spouseQuestions = ['spouse_full_name', 'spouse_ssn', 'spouse_date_of_birth', 'spouse_occupation'];
  const loaded = (answers: OrganizerAnswers) => {
    const model = new Model(organizerSurveyJson(us.sections));
    model.data = answers;
    return model;
  };

  it('keeps the ids a browser test and last year\'s answers rely on: filing_status, dependants and its fields, received_1099_b', () => {
    expect(question('filing_status')).toMatchObject({ type: 'single_choice', required: true });
    expect(question('dependants')?.type).toBe('group');
    expect(question('dependants')?.fields?.map((field) => field.id)).toEqual(expect.arrayContaining(['name', 'date_of_birth', 'relationship', 'ssn', 'months_lived_with_you']));
    expect(question('received_1099_b')?.requestItem).toMatchObject({ when: true, title: '1099-B from your broker' });
  });

  it('a single filer sees no spouse questions and can finish with the two required answers', () => {
    const model = loaded({ filing_status: 'Single', received_1099_b: false });
    for (const id of spouseQuestions) expect(model.getQuestionByName(id).isVisible).toBe(false);
    expect(model.hasErrors(false, false)).toBe(false);
  });

  it('"Married filing jointly" shows the spouse questions, and the spouse\'s name and SSN become required', () => {
    const model = loaded({ filing_status: 'Married filing jointly', received_1099_b: false });
    for (const id of spouseQuestions) expect(model.getQuestionByName(id).isVisible).toBe(true);
    expect(model.getQuestionByName('spouse_full_name').isRequired).toBe(true);
    expect(model.getQuestionByName('spouse_ssn').isRequired).toBe(true);
    expect(model.hasErrors(false, false)).toBe(true);

    model.setValue('spouse_full_name', 'Alex Doe');
    expect(model.hasErrors(false, false)).toBe(true);
    model.setValue('spouse_ssn', '123-45-6789');
    expect(model.hasErrors(false, false)).toBe(false);
  });

  it('a separate return asks only the spouse\'s name and SSN, not the joint return\'s spouse questions', () => {
    const model = loaded({ filing_status: 'Married filing separately', received_1099_b: false });
    expect(model.getQuestionByName('separate_spouse_full_name').isVisible).toBe(true);
    expect(model.getQuestionByName('spouse_full_name').isVisible).toBe(false);
    expect(model.hasErrors(false, false)).toBe(true);
  });

  it('a yes to 1099-B and a yes to 1095-A add "1099-B from your broker" and the Form 1095-A item; a no adds nothing', () => {
    expect(requestItemsFor(us, { filing_status: 'Single', received_1099_b: true, received_1095_a: true }))
      .toEqual(['1099-B from your broker', 'Form 1095-A (Health Insurance Marketplace Statement)']);
    expect(requestItemsFor(us, { filing_status: 'Single', received_1099_b: false, received_1095_a: false })).toEqual([]);
  });

  it('a rule on a hidden question adds nothing: the divorce decree only when the marital status changed', () => {
    expect(requestItemsFor(us, { marital_status_changed: false, marital_change_documents: true })).toEqual([]);
    expect(requestItemsFor(us, { marital_status_changed: true, marital_change_documents: true })).toEqual(['Divorce decree or separation agreement']);
  });

  it('asks for the bank details only when a bank account is to be used, and then requires routing, account and type', () => {
    expect(loaded({ filing_status: 'Single', received_1099_b: false, use_bank_account: false }).hasErrors(false, false)).toBe(false);
    const model = loaded({ filing_status: 'Single', received_1099_b: false, use_bank_account: true });
    expect(model.hasErrors(false, false)).toBe(true);
    model.data = { ...model.data, bank_routing_number: '011000015', bank_account_number: '12345678', checking_or_savings: 'Checking' };
    expect(model.hasErrors(false, false)).toBe(false);
  });

  it('has four quarterly estimated payments, each an amount and a date, shown when payments were made', () => {
    for (const quarter of [1, 2, 3, 4]) {
      expect(question(`estimated_q${quarter}_amount`)).toMatchObject({ type: 'money', showIf: { questionId: 'made_estimated_payments', equals: true } });
      expect(question(`estimated_q${quarter}_date`)).toMatchObject({ type: 'date', showIf: { questionId: 'made_estimated_payments', equals: true } });
    }
  });

  it('asks the digital asset question as Form 1040 does, and each income form it asks about adds its document', () => {
    expect(question('digital_assets')?.title).toMatch(/receive .*sell, exchange or otherwise dispose of a digital asset/);
    const forms = ['W-2', '1099-NEC', '1099-K', '1099-INT', '1099-DIV', '1099-B', '1099-R', 'SSA-1099', '1099-G', 'K-1', '5498-SA', '1099-SA', '1098-E', '1098-T', '1098', '1095-A'];
    const requested = us.sections.flatMap((section) => section.questions).map((q) => q.requestItem?.title ?? '').join('\n');
    for (const form of forms) expect(requested).toContain(form);
  });
});
