import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
let serial = 0;

/** Writes the PDF, checks its structure with qpdf and returns its text as pdftotext reads it (spaces collapsed), and where it was written. */
export function checkedPdf(pdf: Uint8Array): { text: string; path: string } {
  const path = join(dir, `invoice-${++serial}.pdf`);
  writeFileSync(path, pdf);
  // qpdf --check exits non-zero on a damaged file (and 3 on warnings, which we count as failures too).
  expect(execFileSync('qpdf', ['--check', path], { encoding: 'utf8' })).toContain('No syntax or stream encoding errors');
  return { text: execFileSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' '), path };
}

export const checkedPdfText = (pdf: Uint8Array): string => checkedPdf(pdf).text;
