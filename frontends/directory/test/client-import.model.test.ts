import { describe, expect, it } from '@jest/globals';
import { IMPORT_TEMPLATE_HEADERS, matchImportHeader, type ClientImportResult } from '@ledgerline/contracts/client-import.contracts.ts';
import { fieldLabel, mappingOf, skippedRows, templateCsv } from '../src/client-import.model.ts';

describe('the import screen model', () => {
  it('offers a template whose every header the import matches back to its own field', () => {
    const headers = templateCsv().trim().split(',');
    expect(headers).toEqual([...IMPORT_TEMPLATE_HEADERS]);
    expect(headers.map(matchImportHeader).every((f) => f !== null)).toBe(true);
  });

  it('sends every column, a left-out one as empty', () => {
    expect(mappingOf([{ header: 'Client', field: 'name' }, { header: 'Notes', field: null }])).toEqual({ Client: 'name', Notes: '' });
  });

  it('counts a row with several problems once and names fields as the mapper does', () => {
    const result = { errors: [{ row: 3, field: 'phone', message: 'a' }, { row: 3, field: 'taxId.ein', message: 'b' }, { row: 9, field: 'row', message: 'c' }] } as ClientImportResult;
    expect(skippedRows(result)).toBe(2);
    expect([fieldLabel('phone'), fieldLabel('taxId.ein'), fieldLabel('contact2Email'), fieldLabel('row')]).toEqual(['Phone', 'EIN', 'Contact 2 e-mail', 'Row']);
  });
});
