import { describe, expect, it } from '@jest/globals';
import { csvCell, csvDocument } from '../src/csv-cell.ts';

describe('csvCell (every CSV the product writes)', () => {
  it.each([
    ["=cmd|' -C calc'!A0.pdf", "'=cmd|' -C calc'!A0.pdf"],
    ['+HYPERLINK("https://evil.example","x")', '"\'+HYPERLINK(""https://evil.example"",""x"")"'],
    ['-2+3', "'-2+3"],
    ['-', "'-"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1+1', "'\t=1+1"],
    ['\r=1+1', '"\'\r=1+1"'],
  ])('turns %j, which a spreadsheet would run, into text', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('quotes separators, quotes and line ends, and leaves plain values alone', () => {
    expect(csvCell('Smith, John')).toBe('"Smith, John"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('statement.pdf')).toBe('statement.pdf');
    expect(csvCell('a-b=c')).toBe('a-b=c');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes a document of CRLF-ended lines', () => {
    expect(csvDocument(['name', 'size'], [['=x', 1], ['y', 2]])).toBe("name,size\r\n'=x,1\r\ny,2\r\n");
  });
});
