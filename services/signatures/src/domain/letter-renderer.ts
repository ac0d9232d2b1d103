import { createHash } from 'node:crypto';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { pageSizes } from '@ledgerline/kit/pdf/fields.ts';
import { TextLayout } from '@ledgerline/kit/pdf/text-layout.ts';
import { formatMinorUnits, minorUnitDigits } from '@ledgerline/contracts/money.ts';
import {
  MERGE_FIELD_PATTERN, mergeFieldsOf, SIGNATURE_MESSAGES, unknownMergeFields, type FieldInput, type MergeField,
} from '@ledgerline/contracts/signatures.contracts.ts';
import type { StoredDocument } from '../store/signature.store.ts';

/** What the portal knows itself when a letter is made: the client, the firm, today. */
export interface LetterFacts { clientName: string; clientAddress: string; firmName: string; date: string; currency: string }

/**
 * The value of every merge field a letter uses: the portal's own (client, firm, date) and the
 * request's mergeValues (tax year, fee; they may also override the portal's). A name that is
 * no merge field, or a field the letter uses without a value, is refused by name; a fee is
 * printed as money in the firm's currency.
 */
export function mergeValuesFor(body: string, facts: LetterFacts, given: Readonly<Record<string, string | number>>): Record<string, string> {
  const unknown = unknownMergeFields(Object.keys(given));
  if (unknown.length) throw new Invalid(`${SIGNATURE_MESSAGES.unknownMergeFields}: ${unknown.join(', ')}`);
  const values: Partial<Record<MergeField, string>> = {
    'client.name': facts.clientName, 'client.address': facts.clientAddress, 'firm.name': facts.firmName, date: facts.date,
  };
  for (const [name, value] of Object.entries(given) as [MergeField, string | number][]) {
    values[name] = name === 'fee' ? fee(value, facts.currency) : String(value).trim();
  }
  const missing = mergeFieldsOf(body).filter((n) => !values[n as MergeField]);
  if (missing.length) throw new Invalid(`${SIGNATURE_MESSAGES.missingMergeValues}: ${missing.join(', ')}`);
  return values;
}

function fee(value: string | number, currency: string): string {
  const amount = typeof value === 'number' ? value : /^\d+(\.\d{1,2})?$/.test(value.replace(/[,\s]/g, '')) ? Number(value.replace(/[,\s]/g, '')) : NaN;
  if (!Number.isFinite(amount) || amount < 0 || amount > 1e12) throw new Invalid(SIGNATURE_MESSAGES.feeNotAmount);
  return formatMinorUnits(Math.round(amount * 10 ** minorUnitDigits(currency)), currency);
}

export const mergeText = (body: string, values: Readonly<Record<string, string>>): string =>
  body.replace(MERGE_FIELD_PATTERN, (whole, name: string) => values[name] ?? whole);

const FIELD = { signature: { width: 220, height: 36 }, date: { width: 110, height: 20 } };
const MARGIN = 56;

/**
 * An engagement letter as a PDF (the kit's text layout): the firm's name, the date, the
 * client's name and address, the merged body, and a signature block per signer role with a
 * signature and a date field placed where the block landed (letters vary in length, so
 * their fields are placed here rather than saved).
 */
export async function renderLetter(input: { title: string; body: string; values: Readonly<Record<string, string>>; roles: readonly string[] }): Promise<{ document: StoredDocument; fields: FieldInput[] }> {
  const { values } = input;
  const layout = await TextLayout.create({ title: input.title, margin: MARGIN });
  layout.text(values['firm.name'] ?? '', { size: 14, bold: true }).space(4).text(values.date ?? '', { muted: true }).space(14);
  layout.text(values['client.name'] ?? '', { bold: true });
  if (values['client.address']) layout.text(values['client.address']);
  layout.space(14).text(input.title, { size: 12, bold: true }).space(6).text(mergeText(input.body, values), { size: 10.5 }).space(18);
  const fields: FieldInput[] = [];
  input.roles.forEach((role, signerIndex) => {
    layout.text(`Signed for the ${role}:`, { bold: true });
    const at = layout.reserve(FIELD.signature.height + 22);
    fields.push({ documentIndex: 0, page: at.page, x: MARGIN, y: at.top + 4, ...FIELD.signature, type: 'signature', signerIndex, required: true, label: null });
    fields.push({ documentIndex: 0, page: at.page, x: MARGIN + FIELD.signature.width + 40, y: at.top + 4 + FIELD.signature.height - FIELD.date.height, ...FIELD.date, type: 'date', signerIndex, required: true, label: null });
    layout.space(10);
  });
  const content = Buffer.from(await layout.save());
  const name = `${input.title.replace(/[^\w .()-]+/g, ' ').trim() || 'Engagement letter'}.pdf`;
  return { document: { fileId: null, name, sha256: createHash('sha256').update(content).digest('hex'), pages: await pageSizes(content), content }, fields };
}
