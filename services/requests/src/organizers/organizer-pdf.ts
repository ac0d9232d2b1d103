import { TextLayout } from '@ledgerline/kit/pdf/text-layout.ts';
import { maskSensitive, type OrganizerAnswers, type OrganizerGroupField, type OrganizerQuestion, type OrganizerSection } from '@ledgerline/contracts/organizers.contracts.ts';
import { visibleQuestionIds } from './organizer-answers.ts';

export interface OrganizerPdfInput {
  firmName: string;
  clientName: string;
  title: string;
  year: number;
  submittedOn: string;
  currency: string | null;
  sections: readonly OrganizerSection[];
  answers: OrganizerAnswers;
}

/**
 * The submitted answers as the PDF filed with the client's reports: only the questions the
 * client was shown, sensitive values masked ("•••• 6789": the PDF leaves the organizer, so
 * it is "outside" it), text the search index reads.
 */
export async function renderOrganizerPdf(input: OrganizerPdfInput): Promise<Uint8Array> {
  const visible = visibleQuestionIds(input.sections, input.answers);
  const page = await TextLayout.create({ title: `${input.title} — ${input.clientName}` });
  page.text(input.title, { size: 18, bold: true });
  page.text(`${input.clientName} · ${input.year} · submitted ${input.submittedOn} · ${input.firmName}`, { muted: true });
  page.space(12);
  for (const section of input.sections) {
    const questions = section.questions.filter((q) => visible.has(q.id));
    if (!questions.length) continue;
    page.text(section.title, { size: 13, bold: true });
    page.rule();
    for (const question of questions) {
      page.text(question.title, { bold: true });
      page.text(answerText(question, input.answers[question.id], input.currency));
      page.space(4);
    }
    page.space(8);
  }
  return page.save();
}

function answerText(question: OrganizerQuestion, value: unknown, currency: string | null): string {
  if (question.type === 'group') {
    const rows = Array.isArray(value) ? value as Record<string, unknown>[] : [];
    if (!rows.length) return 'None';
    return rows.map((row, i) => `${i + 1}. ${(question.fields ?? []).map((f) => `${f.title}: ${valueText(f, row[f.id], currency)}`).join('; ')}`).join('\n');
  }
  return valueText(question, value, currency);
}

function valueText(question: OrganizerQuestion | OrganizerGroupField, value: unknown, currency: string | null): string {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) return 'Not answered';
  if (question.sensitive) return maskSensitive(value);
  switch (question.type) {
    case 'yes_no': return value === true ? 'Yes' : 'No';
    case 'money': return currency ? `${currency} ${String(value)}` : String(value);
    case 'multiple_choice': return (value as unknown[]).join(', ');
    case 'file': return (value as { name?: string }[]).map((f) => f.name ?? 'file').join(', ');
    default: return String(value);
  }
}
