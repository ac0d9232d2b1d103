import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import {
  TAX_ID_RULES, taxIdProblem, taxIdTypesOf, type MaskedTaxId, type TaxId, type TaxIdType,
} from '@ledgerline/contracts/tax-ids.ts';

/**
 * The tax IDs part of the client form (issue 40). A saved client's numbers arrive masked (the
 * last four): they are shown so until the Admin presses Reveal, which asks for the whole values
 * (a security event) and only then lets them be changed. Until then the form sends no `taxIds`,
 * which the API reads as "unchanged".
 */
export interface TaxIdsFormState {
  /** What the client has as saved, masked (empty on a new client). */
  saved: MaskedTaxId[];
  /** The list being edited; null while the saved numbers are still masked (not sent). */
  entries: TaxId[] | null;
}

export const newTaxIdsState = (): TaxIdsFormState => ({ saved: [], entries: [] });

/** A saved client without tax IDs has nothing to reveal: its list is editable at once. */
export const savedTaxIdsState = (saved: readonly MaskedTaxId[] | undefined): TaxIdsFormState =>
  (saved?.length ? { saved: [...saved], entries: null } : { saved: [], entries: [] });

/** The types a client of this jurisdiction may have that the list does not hold yet, in the rules' order. */
export function addableTaxIdTypes(jurisdiction: ClientJurisdiction, entries: readonly TaxId[]): TaxIdType[] {
  return taxIdTypesOf(jurisdiction).filter((t) => !entries.some((e) => e.type === t));
}

/** The entry each message belongs to: its format or check digit, or a type of another country. */
export function taxIdEntryProblem(entry: TaxId, jurisdiction: ClientJurisdiction): string | null {
  const rule = TAX_ID_RULES[entry.type];
  if (rule.jurisdiction !== jurisdiction) return `${rule.label} is not a tax ID of ${jurisdiction}: remove it or pick the client's jurisdiction`;
  return taxIdProblem(entry.type, entry.value);
}

/** The label and example the value's field shows: "EIN", "9 digits (XX-XXXXXXX)". */
export const taxIdTypeOption = (type: TaxIdType) => ({ value: type, label: TAX_ID_RULES[type].label });
export const taxIdFormatHint = (type: TaxIdType): string => `${TAX_ID_RULES[type].label}: ${TAX_ID_RULES[type].format}`;
