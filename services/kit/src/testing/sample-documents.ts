import { readFileSync } from 'node:fs';

/**
 * Realistic text of the documents a firm's clients upload (issue 44), for the tests of what
 * reads them: the insights rules and the assistant without a model. US: a W-2, a 1099-NEC, a
 * 1040, an 1120-S K-1, a business bank statement and an invoice; India: a GSTR-3B
 * acknowledgement and an unregistered supplier's invoice; UK: a VAT return and a sole
 * trader's profit and loss account; Australia: a BAS. Names, numbers and identifiers are
 * made up.
 */
export const SAMPLE_DOCUMENTS = [
  'us-w2-2025.txt', 'us-1099-nec-2025.txt', 'us-1040-2024.txt', 'us-1120s-k1-2025.txt', 'us-bank-statement-2026-10.txt', 'us-invoice-2026-0417.txt',
  'in-gstr3b-ack-2027-03.txt', 'in-invoice-2027-031.txt', 'uk-vat-return-2027-q1.txt', 'uk-profit-and-loss-2026-27.txt', 'au-bas-2027-q3.txt',
] as const;
export type SampleDocument = (typeof SAMPLE_DOCUMENTS)[number];

export const sampleDocument = (file: SampleDocument): string => readFileSync(new URL(`./sample-documents/${file}`, import.meta.url), 'utf8');
