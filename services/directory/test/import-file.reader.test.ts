import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readImportFile } from '../src/client-import/import-file.reader.ts';
import { xlsxOf } from './support/xlsx-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'import-reader-'));
let n = 0;
const saved = async (body: string | Buffer) => {
  const path = join(dir, `f${n++}`);
  await writeFile(path, body);
  return path;
};

describe('reading an import file', () => {
  it('reads CSV with a byte-order mark, quoted commas and line breaks, numbering rows as a spreadsheet does past blank lines', async () => {
    const sheet = await readImportFile(await saved('\uFEFFName,Address\r\n"Alpha, Inc","1 Main St\nSuite 2"\r\n,\r\n\r\nBeta LLC,2 Oak Ave\r\n'));
    expect(sheet.header).toEqual(['Name', 'Address']);
    expect(sheet.rows).toEqual([{ row: 2, cells: ['Alpha, Inc', '1 Main St\nSuite 2'] }, { row: 5, cells: ['Beta LLC', '2 Oak Ave'] }]);
  });

  it('reads the first sheet of an Excel workbook, told by its content whatever its name', async () => {
    const sheet = await readImportFile(await saved(await xlsxOf([['Name', 'EIN'], ['Alpha & Co', '12-3456789']])));
    expect(sheet).toEqual({ header: ['Name', 'EIN'], rows: [{ row: 2, cells: ['Alpha & Co', '12-3456789'] }] });
  });

  it('refuses an empty file and a broken workbook with a clear message', async () => {
    await expect(readImportFile(await saved(''))).rejects.toThrow('The file has no header row.');
    await expect(readImportFile(await saved(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])))).rejects.toThrow('The file could not be read as CSV or Excel (.xlsx).');
  });
});
