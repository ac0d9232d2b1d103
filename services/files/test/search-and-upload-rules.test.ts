import { describe, expect, it } from '@jest/globals';
import { highlightName, searchWords, toTsQuery } from '../src/files/search-query.ts';
import { contentMatchesExtension } from '../src/upload/content-signature.ts';
import { cleanOriginalName, storedFileName } from '../src/upload/file-names.ts';
import { megabytes } from '../src/upload/upload-messages.ts';

describe('toTsQuery', () => {
  it.each([
    ['invoice', `'invoice':*`],
    ['Q3_report-2024', `('q3':* & 'report':* & '2024':*)`],
    ['tax return', `'tax':* & 'return':*`],
    ['"trial balance" march', `('trial' <-> 'balance') & 'march':*`],
    ['invoice -draft', `'invoice':* & !'draft':*`],
    ['gst OR vat', `'gst':* | 'vat':*`],
    ['a', `'a'`],
    ['Müller Straße', `'müller':* & 'straße':*`],
    ['it\'s', `('it':* & 's')`],
  ])('%s → %s', (search, expected) => {
    expect(toTsQuery(search)).toBe(expected);
  });

  it('finds nothing to search in punctuation, exclusions only or an empty phrase', () => {
    for (const search of ['', '!!!', '-draft', '""', '- -']) expect([search, toTsQuery(search)]).toEqual([search, null]);
  });

  it('never lets quotes or operators of the input into the query text', () => {
    expect(toTsQuery(`x' | 'y`)).toBe(`'x' & 'y'`);
    expect(toTsQuery(`ab') | ('cd`)).toBe(`'ab':* & 'cd':*`);
    expect(toTsQuery('a:*&b')).toBe(`('a' & 'b')`);
  });

  it('marks the searched words in a name', () => {
    expect(searchWords('"tax return" -draft inv OR x')).toEqual(['tax', 'return', 'inv', 'x']);
    expect(highlightName('Invoice 2024 (draft).pdf', ['inv', 'x'])).toBe('\u0002Invoice\u0003 2024 (draft).pdf');
    expect(highlightName('x-ray.pdf', ['x'])).toBe('\u0002x\u0003-ray.pdf');
  });
});

describe('content signatures', () => {
  const ascii = (text: string) => Buffer.from(text, 'latin1');
  it.each([
    ['pdf', ascii('%PDF-1.7\n%âãÏÓ'), true],
    ['pdf', ascii('junk before\n%PDF-1.4'), true],
    ['pdf', ascii('\u007fELF\u0002\u0001\u0001\u0000'), false],
    ['docx', ascii('PK\u0003\u0004\u0014\u0000\u0006\u0000'), true],
    ['docx', ascii('%PDF-1.7'), false],
    ['doc', ascii('{\\rtf1\\ansi'), true],
    ['xls', ascii('<table><tr><td>1</td></tr></table>'), true],
    ['xls', Buffer.from([0x4d, 0x5a, 0x90, 0x00]), false],
    ['txt', ascii('plain words\r\nmore'), true],
    ['txt', Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]), true],
    ['txt', ascii('%PDF-1.7 no zeros here'), false],
    ['csv', ascii('PK\u0003\u0004'), false],
    ['json', Buffer.from('\ufeff  {"a": 1}', 'utf8'), true],
    ['json', ascii('hello'), false],
    ['xml', ascii('<?xml version="1.0"?><a/>'), true],
    ['svg', ascii('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), true],
    ['svg', ascii('<html><body>not an image</body></html>'), false],
    ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), true],
    ['jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]), true],
    ['gif', ascii('GIF89a'), true],
    ['webp', ascii('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '), true],
    ['wav', ascii('RIFF\u0000\u0000\u0000\u0000WAVEfmt '), true],
    ['avi', ascii('RIFF\u0000\u0000\u0000\u0000WAVEfmt '), false],
    ['mp4', ascii('\u0000\u0000\u0000\u0018ftypmp42'), true],
    ['mov', ascii('\u0000\u0000\u0000\u0008wide'), true],
    ['mp3', ascii('ID3\u0004'), true],
    ['mp3', Buffer.from([0xff, 0xfb, 0x90, 0x00]), true],
    ['tar', Buffer.concat([Buffer.alloc(257), ascii('ustar\u000000')]), true],
    ['tar', Buffer.alloc(300), false],
    ['gz', Buffer.from([0x1f, 0x8b, 0x08]), true],
    ['7z', Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), true],
    ['rar', ascii('Rar!\u001a\u0007\u0001\u0000'), true],
    ['exe', Buffer.from([0x4d, 0x5a]), true],
    ['', ascii('anything'), true],
  ] as [string, Buffer, boolean][])('.%s %#', (extension, head, expected) => {
    expect(contentMatchesExtension(extension, head)).toBe(expected);
  });
});

describe('file names', () => {
  it.each([
    ['report.pdf', 'report.pdf', 'report.pdf'],
    ['C:\\fakepath\\Q3 report.pdf', 'Q3 report.pdf', 'Q3 report.pdf'],
    ['../../etc/passwd', 'passwd', 'passwd'],
    ['Bericht %22Q3%22.pdf', 'Bericht "Q3".pdf', 'Bericht _Q3_.pdf'],
    ['  .hidden  ', '.hidden', 'hidden'],
    ['a\u202eexe.txt', 'aexe.txt', 'aexe.txt'],
    ['x:y|z?.txt', 'x:y|z?.txt', 'x_y_z_.txt'],
    ['..', '..', 'file'],
    ['', '', 'file'],
  ])('%j → original %j, stored %j', (raw, original, stored) => {
    expect(cleanOriginalName(raw)).toBe(original);
    expect(storedFileName(original)).toBe(stored);
  });

  it('cuts long names to 200 characters and keeps the extension', () => {
    const name = cleanOriginalName(`${'a'.repeat(300)}.pdf`);
    expect(name).toHaveLength(200);
    expect(name.endsWith('.pdf')).toBe(true);
  });

  it('states limits in MB', () => {
    expect([megabytes(1024 * 1024), megabytes(1536 * 1024 * 1024), megabytes(1.5 * 1024 * 1024), megabytes(1000)]).toEqual(['1', '1536', '1.5', '0.00095']);
  });
});
