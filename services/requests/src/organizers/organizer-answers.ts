import { Model } from 'survey-core';
import { Invalid } from '@ledgerline/kit/errors.ts';
import {
  organizerSurveyJson, type OrganizerAnswers, type OrganizerQuestion, type OrganizerSection, type RequestItemRule,
} from '@ledgerline/contracts/organizers.contracts.ts';

/*
 * What the server does with an organizer's answers, apart from storing them: which keys a
 * template accepts, which values are sensitive (kept apart, sealed at rest), what is still
 * missing (SurveyJS decides, from the same JSON the page renders), and which document
 * request items the answers call for.
 */

const questionsOf = (sections: readonly OrganizerSection[]): OrganizerQuestion[] => sections.flatMap((s) => s.questions);

/** Every key is a question of the template; a group's answer is a list of rows keyed by its fields; a file answer lists uploaded files. */
export function checkAnswerShape(sections: readonly OrganizerSection[], answers: OrganizerAnswers): void {
  const byId = new Map(questionsOf(sections).map((q) => [q.id, q]));
  for (const [key, value] of Object.entries(answers)) {
    const question = byId.get(key);
    if (!question) throw new Invalid(`answers.${key} is not a question of this organizer`);
    if (value === null || value === undefined) continue;
    if (question.type === 'group') {
      if (!Array.isArray(value) || value.some((row) => typeof row !== 'object' || row === null || Array.isArray(row))) throw new Invalid(`answers.${key} must be a list of rows`);
      const fields = new Set((question.fields ?? []).map((f) => f.id));
      for (const row of value as Record<string, unknown>[]) {
        const unknown = Object.keys(row).find((k) => !fields.has(k));
        if (unknown) throw new Invalid(`answers.${key}.${unknown} is not a field of this group`);
        const nested = Object.entries(row).find(([, v]) => !isScalarAnswer(v));
        if (nested) throw new Invalid(`answers.${key}.${nested[0]} must be a text, a number, true or false, or a list of choices`);
      }
    } else if (question.type === 'file') {
      const ok = Array.isArray(value) && value.every((f) => typeof f === 'object' && f !== null && Number.isInteger((f as { fileId?: unknown }).fileId));
      if (!ok) throw new Invalid(`answers.${key} must be a list of uploaded files ({ fileId, name })`);
    } else if (question.type === 'multiple_choice') {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Invalid(`answers.${key} must be a list of choices`);
    } else if (question.type === 'yes_no') {
      if (typeof value !== 'boolean') throw new Invalid(`answers.${key} must be true or false`);
    } else if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Invalid(`answers.${key} must be a text or a number`);
    }
  }
}

/** The files the answers name, as `questionId:fileId` (checkAnswerShape has checked their shape). */
export function fileAnswerKeys(sections: readonly OrganizerSection[], answers: OrganizerAnswers): string[] {
  return questionsOf(sections)
    .filter((q) => q.type === 'file' && Array.isArray(answers[q.id]))
    .flatMap((q) => (answers[q.id] as { fileId: number }[]).map((f) => `${q.id}:${f.fileId}`));
}

const isScalarAnswer = (v: unknown): boolean =>
  v === null || ['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/** The answers split in two: what may be stored as it is, and the sensitive values (same shape; a group's rows by index). */
export function splitSensitive(sections: readonly OrganizerSection[], answers: OrganizerAnswers): { plain: OrganizerAnswers; sensitive: OrganizerAnswers } {
  const plain: OrganizerAnswers = { ...answers };
  const sensitive: OrganizerAnswers = {};
  for (const question of questionsOf(sections)) {
    if (!(question.id in answers)) continue;
    if (question.sensitive) {
      sensitive[question.id] = answers[question.id];
      delete plain[question.id];
    } else if (question.type === 'group' && Array.isArray(answers[question.id])) {
      const hidden = (question.fields ?? []).filter((f) => f.sensitive).map((f) => f.id);
      if (!hidden.length) continue;
      const rows = answers[question.id] as Record<string, unknown>[];
      plain[question.id] = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !hidden.includes(k))));
      sensitive[question.id] = rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => hidden.includes(k))));
    }
  }
  return { plain, sensitive };
}

/** The inverse of splitSensitive. */
export function mergeSensitive(plain: OrganizerAnswers, sensitive: OrganizerAnswers): OrganizerAnswers {
  const merged: OrganizerAnswers = { ...plain };
  for (const [key, value] of Object.entries(sensitive)) {
    if (Array.isArray(value) && Array.isArray(plain[key])) {
      merged[key] = (plain[key] as Record<string, unknown>[]).map((row, i) => ({ ...row, ...(value[i] as Record<string, unknown> | undefined) }));
    } else {
      merged[key] = value;
    }
  }
  return merged;
}

const isAnswered = (value: unknown): boolean =>
  value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/** A SurveyJS model of the organizer holding the answers: it decides visibility and what is required. */
export function surveyOf(sections: readonly OrganizerSection[], answers: OrganizerAnswers): Model {
  const model = new Model(organizerSurveyJson(sections));
  model.data = answers;
  return model;
}

/** Whether a question shows with these answers (its section's condition and its own). */
export function visibleQuestionIds(sections: readonly OrganizerSection[], answers: OrganizerAnswers): Set<string> {
  const model = surveyOf(sections, answers);
  return new Set(model.getAllQuestions(true).filter((q) => q.isVisible && q.isParentVisible).map((q) => q.name));
}

/** The titles of the required questions shown and not (fully) answered; empty when the organizer may be submitted. */
export function missingAnswers(sections: readonly OrganizerSection[], answers: OrganizerAnswers): string[] {
  const model = surveyOf(sections, answers);
  if (!model.hasErrors(false, false)) return [];
  return model.getAllQuestions(true).filter((q) => q.isVisible && q.isParentVisible && q.hasErrors(false)).map((q) => q.title);
}

/** Questions shown and answered, of those shown: the progress a list shows. */
export function answerProgress(sections: readonly OrganizerSection[], answers: OrganizerAnswers): { answeredCount: number; questionCount: number } {
  const visible = visibleQuestionIds(sections, answers);
  return { answeredCount: [...visible].filter((id) => isAnswered(answers[id])).length, questionCount: visible.size };
}

/** Whether an answer matches a rule's `when`: a yes/no equals it, a single choice equals it, a multiple choice includes it. */
export function ruleMatches(rule: RequestItemRule, answer: unknown): boolean {
  if (Array.isArray(answer)) return typeof rule.when === 'string' && answer.includes(rule.when);
  return answer === rule.when;
}

/** The request items the shown questions' answers call for, in the template's order. */
export function requestItemsCalledFor(sections: readonly OrganizerSection[], answers: OrganizerAnswers): { title: string; description: string | null }[] {
  const visible = visibleQuestionIds(sections, answers);
  return questionsOf(sections)
    .filter((q) => q.requestItem && visible.has(q.id) && ruleMatches(q.requestItem, answers[q.id]))
    .map((q) => ({ title: q.requestItem!.title, description: q.requestItem!.description ?? null }));
}

/** Last year's answers to carry into a new organizer: everything but uploads (the files were that year's). */
export function prefillFrom(sections: readonly OrganizerSection[], answers: OrganizerAnswers): OrganizerAnswers {
  const keep = new Map(questionsOf(sections).map((q) => [q.id, q]));
  return Object.fromEntries(Object.entries(answers).filter(([k]) => keep.has(k) && keep.get(k)!.type !== 'file'));
}
