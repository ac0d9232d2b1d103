import { z } from 'zod';
import { periodKeyOf, type PeriodKey } from './period-mentions.ts';

/**
 * What a language model is asked to say about a newly extracted report. Its answer is
 * parsed against this schema before anything uses it; an answer that does not fit is no
 * answer (the rules alone decide).
 */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const reportClassificationSchema = z.object({
  reportType: z.string().max(200).nullable(),
  period: z.object({ start: day, end: day }).nullable(),
  filed: z.boolean().nullable(),
  amounts: z.array(z.object({ label: z.string().max(200), amount: z.number().nonnegative() })).max(50),
}).strict();
export type ReportClassification = z.infer<typeof reportClassificationSchema>;

/** The instructions that come with the document (trusted, ours). */
export const CLASSIFY_INSTRUCTIONS = [
  'Classify the document as a statutory compliance report.',
  'Reply with one JSON object and nothing else, exactly of this shape:',
  '{"reportType": string or null, "period": {"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"} or null, "filed": true, false or null, "amounts": [{"label": string, "amount": number}]}',
  'reportType: the return, form or document it is, as its title names it (e.g. "GSTR-3B", "TDS Return", "Form 1040", "Form W-2", "Schedule K-1", "Invoice", "Bank statement"). period: the first and last day of the period it reports on.',
  'filed: true when it is proof of filing (an acknowledgement, an ARN, a filing receipt), false when it is a draft or working paper.',
  'amounts: totals it states (turnover, gross receipts, tax payable), as plain numbers in the document\'s currency.',
].join('\n');
export const CLASSIFY_QUESTION = 'Classify this document.';

/** The classification in a model's reply (a bare object, or one inside a ```json fence), or null. */
export function parseClassification(reply: string): ReportClassification | null {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply);
  const body = (fenced ? fenced[1]! : reply).trim();
  try {
    const parsed = reportClassificationSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const classifiedPeriod = (c: ReportClassification | null): PeriodKey | null =>
  c?.period ? periodKeyOf(c.period.start, c.period.end) : null;
