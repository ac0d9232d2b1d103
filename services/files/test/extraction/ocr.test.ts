import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createTextExtractor, OcrUnavailableError } from '../../src/extraction/text-extractor.ts';
import { bytesInput, fixturePath, readFixture } from './extraction-fixtures.ts';

// OCR runs Tesseract (WASM) in a worker thread: seconds per page on two cores, so only the
// two scanned fixtures are recognised here, with generous time limits.
const OCR_TIMEOUT_MS = 180_000;
const extractor = createTextExtractor();
afterAll(() => extractor.close());

describe('OCR', () => {
  it('reads the words of a scanned image (PNG)', async () => {
    const text = await extractor.extract(bytesInput('scanned-invoice.png', 'image/png', await readFixture('scanned-invoice.png')));
    expect(text).toContain('Zephyrine');
    expect(text).toMatch(/INVOICE 2026/);
    expect(text).toMatch(/Quarterly GST Payment/);
  }, OCR_TIMEOUT_MS);

  it('reads the words of a scanned PDF page that has no text layer', async () => {
    const text = await extractor.extract(bytesInput('scanned-invoice.pdf', 'application/pdf', await readFixture('scanned-invoice.pdf')));
    expect(text).toContain('Zephyrine');
    expect(text).toMatch(/Traders/);
  }, OCR_TIMEOUT_MS);

  it('gives "" for images it cannot read: truncated, or a header claiming a huge canvas', async () => {
    const png = await readFixture('scanned-invoice.png');
    await expect(extractor.extract(bytesInput('cut.png', 'image/png', png.subarray(0, 1500)))).resolves.toBe('');
    const bomb = Buffer.from(png);
    bomb.writeUInt32BE(100_000, 16); // IHDR width
    bomb.writeUInt32BE(100_000, 20); // IHDR height
    await expect(extractor.extract(bytesInput('bomb.png', 'image/png', bomb))).resolves.toBe('');
    await expect(extractor.extract(bytesInput('noise.jpg', 'image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3000, 0x55)])))).resolves.toBe('');
  }, OCR_TIMEOUT_MS);

  it('rejects with OcrUnavailableError when the language data is missing or corrupt (a deployment error, not bad content)', async () => {
    const missing = await mkdtemp(join(tmpdir(), 'no-traineddata-'));
    const corrupt = await mkdtemp(join(tmpdir(), 'bad-traineddata-'));
    await writeFile(join(corrupt, 'eng.traineddata.gz'), gzipSync(randomBytes(4096)));
    const scan = await readFixture('scanned-invoice.png');
    try {
      for (const directory of [missing, corrupt]) {
        const misconfigured = createTextExtractor({ ocrLanguageDataPath: directory });
        try {
          await expect(misconfigured.extract(bytesInput('scan.png', 'image/png', scan))).rejects.toThrow(OcrUnavailableError);
        } finally {
          await misconfigured.close();
        }
      }
    } finally {
      await rm(missing, { recursive: true });
      await rm(corrupt, { recursive: true });
    }
  }, OCR_TIMEOUT_MS);

  it('close() ends the OCR worker so the process exits on its own', async () => {
    // A separate Node process (the one that runs the service, with native type stripping):
    // it OCRs the fixture, closes the extractor and must then exit without process.exit().
    const moduleUrl = new URL('../../src/extraction/text-extractor.ts', import.meta.url).href;
    const script = `
      import { createReadStream } from 'node:fs';
      import { stat } from 'node:fs/promises';
      const { createTextExtractor } = await import(${JSON.stringify(moduleUrl)});
      const file = ${JSON.stringify(fixturePath('scanned-invoice.png'))};
      const extractor = createTextExtractor();
      const started = performance.now();
      const text = await extractor.extract({ originalName: 'scan.png', mimeType: 'image/png', size: (await stat(file)).size, open: async () => createReadStream(file) });
      const elapsed = Math.round(performance.now() - started);
      await extractor.close();
      console.log(JSON.stringify({ text, elapsed, rssMb: Math.round(process.memoryUsage().rss / 1e6) }));
    `;
    // A script file rather than --eval: worker threads inherit the parent's execArgv, and --input-type would break them.
    const directory = await mkdtemp(join(tmpdir(), 'ocr-exit-'));
    const scriptPath = join(directory, 'ocr-then-exit.mjs');
    await writeFile(scriptPath, script);
    let stdout: string;
    try {
      ({ stdout } = await promisify(execFile)(process.execPath, [scriptPath], {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        timeout: 120_000,
      }));
    } finally {
      await rm(directory, { recursive: true });
    }
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { text: string; elapsed: number; rssMb: number };
    expect(result.text).toContain('Zephyrine');
    // (Reaching here means the child exited by itself before the timeout.)
    expect(result.elapsed).toBeGreaterThan(0);
  }, OCR_TIMEOUT_MS);
});
