import { describe, expect, it } from '@jest/globals';
import { addableTaxIdTypes, savedTaxIdsState, taxIdEntryProblem } from '../src/client-tax-ids.model.ts';

describe('the client form\'s tax IDs', () => {
  it('offers the types of the client\'s jurisdiction it does not hold yet', () => {
    expect(addableTaxIdTypes('US', [])).toEqual(['ssn', 'itin', 'ein']);
    expect(addableTaxIdTypes('US', [{ type: 'ssn', value: '123456789' }])).toEqual(['itin', 'ein']);
    expect(addableTaxIdTypes('AU', [])).toEqual(['abn', 'tfn', 'acn']);
  });

  it('checks each value by its type, and names a type of another country', () => {
    expect(taxIdEntryProblem({ type: 'ein', value: '12-3456789' }, 'US')).toBeNull();
    expect(taxIdEntryProblem({ type: 'ein', value: '12-34' }, 'US')).toBe('EIN must be 9 digits (XX-XXXXXXX)');
    expect(taxIdEntryProblem({ type: 'abn', value: '51 824 753 556' }, 'AU')).toBeNull();
    expect(taxIdEntryProblem({ type: 'abn', value: '51 824 753 557' }, 'AU')).toBe('ABN is not valid: its check digit does not match');
    expect(taxIdEntryProblem({ type: 'pan', value: 'ABCPE1234F' }, 'US')).toMatch(/^PAN is not a tax ID of US/);
  });

  it('keeps a saved client\'s masked numbers unsent until revealed; a client without any edits at once', () => {
    expect(savedTaxIdsState([{ type: 'ein', last4: '4321', masked: '•••••4321' }])).toEqual({ saved: [{ type: 'ein', last4: '4321', masked: '•••••4321' }], entries: null });
    expect(savedTaxIdsState([])).toEqual({ saved: [], entries: [] });
    expect(savedTaxIdsState(undefined)).toEqual({ saved: [], entries: [] });
  });
});
