import { beforeEach, describe, expect, it } from '@jest/globals';
import { readSelectedReportType, restoreReportType, saveSelectedReportType, SELECTED_REPORT_TYPE_KEY } from '@ledgerline/ui/selected-report-type.ts';
import { installLocalStorage } from './browser-globals.ts';

describe('selected report type', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = installLocalStorage();
  });

  it('is kept in localStorage and read back as an id', () => {
    expect(readSelectedReportType()).toBeNull();
    saveSelectedReportType(4);
    expect(storage.getItem(SELECTED_REPORT_TYPE_KEY)).toBe('4');
    expect(readSelectedReportType()).toBe(4);
    saveSelectedReportType(null);
    expect(readSelectedReportType()).toBeNull();
    storage.setItem(SELECTED_REPORT_TYPE_KEY, 'garbage');
    expect(readSelectedReportType()).toBeNull();
  });

  it('is restored only while still accessible, else the first accessible type is used', () => {
    expect(restoreReportType(4, [2, 4, 6])).toBe(4);
    expect(restoreReportType(5, [2, 4, 6])).toBe(2);
    expect(restoreReportType(null, [6, 2])).toBe(6);
    expect(restoreReportType(4, [])).toBeNull();
  });

  it('tries a route\'s report type, then the stored one, then the first accessible type', () => {
    expect(restoreReportType([6, 4], [2, 4, 6])).toBe(6);
    // The route names a type the user may not use: the stored choice still applies.
    expect(restoreReportType([9, 4], [2, 4, 6])).toBe(4);
    expect(restoreReportType([9, 5], [2, 4, 6])).toBe(2);
    expect(restoreReportType([null, 4], [2, 4, 6])).toBe(4);
    expect(restoreReportType([9, null], [])).toBeNull();
  });
});
