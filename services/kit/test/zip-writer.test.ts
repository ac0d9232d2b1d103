import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ZipWriter } from '../src/http/zip-writer.ts';

/*
 * The streamed ZIP writer (a client's documents): an archive of more than 65,535 entries
 * carries the ZIP64 end records and opens with Info-ZIP's unzip and Python's zipfile, every
 * entry's bytes and CRC intact; a small archive stays classic.
 */
const run = promisify(execFile);

async function writeZip(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  const zip = new ZipWriter(out);
  for (let i = 0; i < count; i++) await zip.add(`documents/${Math.floor(i / 1000)}/entry-${i}.txt`, Buffer.from(`entry ${i}\n`), new Date('2025-04-05T10:20:30Z'));
  await zip.finish();
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

const ZIP64_END = Buffer.from([0x50, 0x4b, 0x06, 0x06]);

describe('ZIP writer', () => {
  it('writes more than 65,535 entries with ZIP64 end records that standard tools open and check', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zip64-'));
    try {
      const file = join(dir, 'many.zip');
      const count = 70_000;
      await writeZip(file, count);
      const bytes = await readFile(file);
      expect(bytes.lastIndexOf(ZIP64_END)).toBeGreaterThan(0);
      // The classic end record says "see ZIP64" in its counts.
      expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(0xffff);
      const tested = await run('unzip', ['-tqq', file], { maxBuffer: 1 << 20 });
      expect(tested.stdout + tested.stderr).toBe('');
      const python = await run('python3', ['-c', [
        'import sys, zipfile',
        'z = zipfile.ZipFile(sys.argv[1])',
        'names = z.namelist()',
        'print(len(names), z.testzip(), z.read(names[-1]).decode().strip(), names[-1])',
      ].join('\n'), file]);
      expect(python.stdout.trim()).toBe(`${count} None entry ${count - 1} documents/69/entry-${count - 1}.txt`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('keeps a small archive classic (no ZIP64 records)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zip-'));
    try {
      const file = join(dir, 'small.zip');
      await writeZip(file, 3);
      const bytes = await readFile(file);
      expect(bytes.indexOf(ZIP64_END)).toBe(-1);
      expect(bytes.readUInt16LE(bytes.length - 22 + 10)).toBe(3);
      const listed = await run('python3', ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip(), z.namelist())', file]);
      expect(listed.stdout.trim()).toBe("None ['documents/0/entry-0.txt', 'documents/0/entry-1.txt', 'documents/0/entry-2.txt']");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
