import { describe, expect, it } from '@jest/globals';
import { ACTIVITY_ACTIONS } from '@ledgerline/contracts/activity.constants.ts';
import { ACTION_ICONS, activityText, hasViewableFile, namesDeletedFile } from '../src/activity-format.ts';

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
    // An entry about no file reads as the sentence its service wrote.
    expect(activityText({ action: 'update', fileName: null, details: 'Sent "Engagement letter 2027" for signature' })).toBe('Sent "Engagement letter 2027" for signature');
    expect(activityText({ action: 'delete', fileName: null, details: null })).toBe('Deleted a file');
  });

  it('offers view and download only for rows naming a file that still exists', () => {
    expect(hasViewableFile({ action: 'view', fileId: 3, fileName: 'a.pdf', fileDeleted: false })).toBe(true);
    expect(hasViewableFile({ action: 'delete', fileId: 3, fileName: 'a.pdf', fileDeleted: true })).toBe(false);
    expect(hasViewableFile({ action: 'update', fileId: null, fileName: null, fileDeleted: false })).toBe(false);
    // An entry about a file deleted since offers nothing to open, and says why.
    expect(hasViewableFile({ action: 'view', fileId: 3, fileName: 'a.pdf', fileDeleted: true })).toBe(false);
    expect(namesDeletedFile({ action: 'view', fileDeleted: true })).toBe(true);
    expect(namesDeletedFile({ action: 'delete', fileDeleted: true })).toBe(false);
    expect(namesDeletedFile({ action: 'view', fileDeleted: false })).toBe(false);
  });
});
