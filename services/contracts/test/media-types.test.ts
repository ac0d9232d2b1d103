import { describe, expect, it } from '@jest/globals';
import { GENERIC_MEDIA_TYPE, MEDIA_TYPES, mediaTypeOfFileName } from '../src/media-types.ts';

describe('mediaTypeOfFileName', () => {
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
    expect(mediaTypeOfFileName('Q3 Report.PDF')).toBe('application/pdf');
    expect(mediaTypeOfFileName('ledger.xlsx')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(mediaTypeOfFileName('old.doc')).toBe('application/msword');
    expect(mediaTypeOfFileName('scan.jpeg')).toBe('image/jpeg');
    expect(mediaTypeOfFileName('backup.tar.gz')).toBe('application/gzip');
    expect(mediaTypeOfFileName('call.mp3')).toBe('audio/mpeg');
    expect(mediaTypeOfFileName('walkthrough.mov')).toBe('video/quicktime');
  });

  it('reads only an extension: a bare name is not one', () => {
    expect(mediaTypeOfFileName('csv')).toBe(GENERIC_MEDIA_TYPE);
    expect(mediaTypeOfFileName('archive.7z')).toBe('application/x-7z-compressed');
  });

  it('falls back to generic binary', () => {
    expect(GENERIC_MEDIA_TYPE).toBe('application/octet-stream');
    expect(mediaTypeOfFileName('program.exe')).toBe(GENERIC_MEDIA_TYPE);
    expect(mediaTypeOfFileName('README')).toBe(GENERIC_MEDIA_TYPE);
    expect(mediaTypeOfFileName('toString')).toBe(GENERIC_MEDIA_TYPE);
  });
});
