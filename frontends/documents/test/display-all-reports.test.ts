import { describe, expect, it } from '@jest/globals';
import { otherTypesMatchNote, readDisplayAllReports, saveDisplayAllReports } from '../src/display-all-reports.ts';
import { installLocalStorage } from '../../ui/test/browser-globals.ts';

describe("the reports page's remembered choices and notes", () => {
  it("remembers 'Display All Reports' across visits, off until chosen", () => {
    const storage = installLocalStorage();
    expect(readDisplayAllReports()).toBe(false);
    saveDisplayAllReports(true);
    expect(storage.getItem('displayAllReports')).toBe('true');
    expect(readDisplayAllReports()).toBe(true);
    saveDisplayAllReports(false);
    expect(readDisplayAllReports()).toBe(false);
  });

  it('counts the matches the other report types hold', () => {
    expect(otherTypesMatchNote(1, 'invoice')).toBe("1 file in other report types matches 'invoice'.");
    expect(otherTypesMatchNote(3, 'gst')).toBe("3 files in other report types match 'gst'.");
  });
});
