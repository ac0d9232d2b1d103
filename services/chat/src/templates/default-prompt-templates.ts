import type { PromptCategory } from '@ledgerline/contracts/chat.contracts.ts';

/**
 * What a new firm's Quick Prompts offer (an Admin edits or deactivates them). Worded with
 * the document's own vocabulary, so the no-model default finds matching passages too.
 */
export const DEFAULT_PROMPT_TEMPLATES: readonly { title: string; description: string; content: string; category: PromptCategory }[] = [
  { category: 'document_management', title: 'Summarise', description: 'A short summary of the document', content: 'Summarise this document: who issued it, to whom, its date, its purpose and its key figures.' },
  { category: 'document_management', title: 'Key parties and dates', description: 'Names, addresses and dates in the document', content: 'List the parties, names, addresses and dates mentioned in this document.' },
  { category: 'document_management', title: 'Missing signatures', description: 'Signature lines that are empty or missing', content: 'Is any signature, signed date or approval missing or left blank in this document?' },
  { category: 'compliance_tax', title: 'Deadlines', description: 'Due dates and filing deadlines', content: 'List every deadline, due date, filing date and payment date in this document.' },
  { category: 'compliance_tax', title: 'Tax amounts', description: 'Tax, VAT and withholding figures', content: 'Which tax, VAT, withholding and tax payment amounts does this document state?' },
  { category: 'compliance_tax', title: 'Tax period and identifiers', description: 'Period covered and tax or registration numbers', content: 'Which tax year or period, tax number and registration number does this document name?' },
  { category: 'business_insights', title: 'Find amounts', description: 'Totals, amounts and balances', content: 'List every total, amount, balance and payment in this document with what each is for.' },
  { category: 'business_insights', title: 'Income and expenses', description: 'Revenue, income, costs and expenses', content: 'What revenue, income, costs and expenses does this document report?' },
  { category: 'business_insights', title: 'Risks and follow-ups', description: 'Overdue items, penalties and open questions', content: 'Which overdue items, penalties, interest, risks or open questions does this document mention?' },
];
