import { useState } from 'react';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import type { ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { TAX_ID_RULES, type TaxId, type TaxIdType } from '@ledgerline/contracts/tax-ids.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { addableTaxIdTypes, taxIdEntryProblem, taxIdFormatHint, taxIdTypeOption, type TaxIdsFormState } from './client-tax-ids.model.ts';
import { clientPath } from './directory.api.ts';

export interface ClientTaxIdsFieldProps {
  /** The saved client, or null on a new one (nothing to reveal). */
  clientId: number | null;
  jurisdiction: ClientJurisdiction;
  state: TaxIdsFormState;
  onChange(next: TaxIdsFormState): void;
  /** Every entry's message shows (after a submit attempt), not only the ones touched. */
  showAllProblems: boolean;
}

/** The client's typed tax IDs: a type of its jurisdiction and a value checked as typed; saved ones masked until revealed. */
export function ClientTaxIdsField({ clientId, jurisdiction, state, onChange, showAllProblems }: ClientTaxIdsFieldProps) {
  const [revealing, setRevealing] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<TaxIdType>>(() => new Set());

  const reveal = async () => {
    if (clientId === null) return;
    setRevealing(true);
    try {
      const whole = await apiJson<TaxId[]>('GET', clientPath(clientId, '/tax-ids'));
      onChange({ ...state, entries: whole });
    } catch (error) {
      showToast({ severity: 'error', summary: 'Error', detail: `Failed to reveal tax IDs: ${failureReason(error)}` });
    } finally {
      setRevealing(false);
    }
  };

  if (state.entries === null) {
    return (
      <fieldset className="client-tax-ids">
        <legend className="form-field__label">Tax IDs</legend>
        <ul className="client-tax-ids__masked" aria-label="Tax IDs (masked)">
          {state.saved.map((t) => <li key={t.type}>{TAX_ID_RULES[t.type].label} <span className="client-tax-ids__value">{t.masked}</span></li>)}
        </ul>
        <Button type="button" label="Reveal to edit" icon="pi pi-eye" text size="small" loading={revealing} onClick={() => void reveal()} />
        <small className="form-field__hint">Only the last four are shown; revealing the whole numbers is recorded.</small>
      </fieldset>
    );
  }

  const entries = state.entries;
  const setEntries = (next: TaxId[]) => onChange({ ...state, entries: next });
  const addable = addableTaxIdTypes(jurisdiction, entries);
  return (
    <fieldset className="client-tax-ids">
      <legend className="form-field__label">Tax IDs</legend>
      {entries.map((entry, index) => {
        const problem = showAllProblems || touched.has(entry.type) ? taxIdEntryProblem(entry, jurisdiction) : null;
        const typeOptions = [entry.type, ...addableTaxIdTypes(jurisdiction, entries)].map(taxIdTypeOption);
        const valueId = `client-tax-id-${entry.type}`;
        return (
          <div key={entry.type} className={problem ? 'client-tax-ids__row form-field--invalid' : 'client-tax-ids__row'}>
            <Dropdown
              inputId={`client-tax-id-type-${index}`}
              value={entry.type}
              options={typeOptions}
              aria-label={`Type of tax ID ${index + 1}`}
              onChange={(e) => setEntries(entries.map((x, i) => (i === index ? { type: e.value as TaxIdType, value: x.value } : x)))}
            />
            <InputText
              id={valueId}
              value={entry.value}
              aria-label={TAX_ID_RULES[entry.type].label}
              invalid={Boolean(problem)}
              autoComplete="off"
              onChange={(e) => setEntries(entries.map((x, i) => (i === index ? { ...x, value: e.target.value.toUpperCase() } : x)))}
              onBlur={() => setTouched((s) => new Set(s).add(entry.type))}
            />
            <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remove ${TAX_ID_RULES[entry.type].label}`}
              onClick={() => setEntries(entries.filter((_, i) => i !== index))} />
            {problem
              ? <small className="form-field__error client-tax-ids__message" role="alert">{problem}</small>
              : <small className="form-field__hint client-tax-ids__message">{taxIdFormatHint(entry.type)}</small>}
          </div>
        );
      })}
      {addable.length > 0 && (
        <Button type="button" label="Add tax ID" icon="pi pi-plus" text size="small"
          onClick={() => setEntries([...entries, { type: addable[0]!, value: '' }])} />
      )}
    </fieldset>
  );
}
