import { describe, expect, it } from '@jest/globals';
import { ACTIVITY_ACTIONS } from '@ledgerline/contracts/activity.contracts.ts';
import { ACTION_ICONS, activityText, hasViewableFile } from '../src/activity-format.ts';

describe('activity feed formatting', () => {
  it('has an icon for every action of spec 001 §9', () => {
    expect(ACTIVITY_ACTIONS.map((action) => ACTION_ICONS[action])).toEqual([
      'pi pi-upload',
      'pi pi-download',
      'pi pi-eye',
      'pi pi-comments',
      'pi pi-trash',
      'pi pi-pencil',
    ]);
  });

  it('describes what happened to which file', () => {
    expect(activityText({ action: 'upload', fileName: 'Q1 Return.pdf', details: null })).toBe('Uploaded Q1 Return.pdf');
    expect(activityText({ action: 'chat', fileName: 'Ledger.xlsx', details: null })).toBe('Asked AI about Ledger.xlsx');
    expect(activityText({ action: 'update', fileName: null, details: 'Renamed a report type' })).toBe('Updated Renamed a report type');
  });

  it('offers view and download only for rows naming a file that still exists', () => {
    expect(hasViewableFile({ action: 'view', fileId: 3, fileName: 'a.pdf' })).toBe(true);
    expect(hasViewableFile({ action: 'delete', fileId: 3, fileName: 'a.pdf' })).toBe(false);
    expect(hasViewableFile({ action: 'update', fileId: null, fileName: null })).toBe(false);
  });
});
