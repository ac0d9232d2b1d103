import { describe, expect, it } from '@jest/globals';
import { GENERIC_MEDIA_TYPE, MEDIA_TYPES, mediaTypeFor } from '@ledgerline/ui/media-types.ts';

describe('mediaTypeFor', () => {
  it('covers every extension group of the spec', () => {
    const extensions = [
      ...['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'ico'],
      ...['pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'rtf', 'csv', 'xml', 'json'],
      ...['zip', 'rar', '7z', 'tar', 'gz'],
      ...['mp3', 'wav', 'ogg', 'flac'],
      ...['mp4', 'avi', 'mov', 'wmv', 'mkv'],
    ];
    expect(Object.keys(MEDIA_TYPES).sort()).toEqual([...extensions].sort());
  });

  it('maps file names case-insensitively', () => {
    expect(mediaTypeFor('Q3 Report.PDF')).toBe('application/pdf');
    expect(mediaTypeFor('ledger.xlsx')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(mediaTypeFor('old.doc')).toBe('application/msword');
    expect(mediaTypeFor('scan.jpeg')).toBe('image/jpeg');
    expect(mediaTypeFor('backup.tar.gz')).toBe('application/gzip');
    expect(mediaTypeFor('call.mp3')).toBe('audio/mpeg');
    expect(mediaTypeFor('walkthrough.mov')).toBe('video/quicktime');
  });

  it('accepts a bare extension', () => {
    expect(mediaTypeFor('csv')).toBe('text/csv');
    expect(mediaTypeFor('7z')).toBe('application/x-7z-compressed');
  });

  it('falls back to generic binary', () => {
    expect(GENERIC_MEDIA_TYPE).toBe('application/octet-stream');
    expect(mediaTypeFor('program.exe')).toBe(GENERIC_MEDIA_TYPE);
    expect(mediaTypeFor('README')).toBe(GENERIC_MEDIA_TYPE);
    expect(mediaTypeFor('toString')).toBe(GENERIC_MEDIA_TYPE);
  });
});
