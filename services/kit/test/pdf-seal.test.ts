import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { appendCertificate, certificateDocument, type CertificateOfCompletion } from '../src/pdf/certificate-page.ts';
import { drawFields, fitsPage, pageSizes, pdfSafeText } from '../src/pdf/fields.ts';
import { loadSealIdentity, selfSignedSealIdentity } from '../src/pdf/seal-key.ts';
import { sealFingerprint, sealPdf } from '../src/pdf/seal.ts';

// Checked by tools that are not ours (issue 41): poppler's pdfsig and qpdf.
const dir = mkdtempSync(join(tmpdir(), 'pdf-seal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const identity = selfSignedSealIdentity('Test installation document seal');

async function onePagePdf(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawText(text, { x: 50, y: 700, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  return doc.save();
}

// A 1x1 red PNG, as a drawn signature.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

function pdfsig(bytes: Uint8Array): { status: number; out: string } {
  const file = join(dir, `check-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  const r = spawnSync('pdfsig', [file], { encoding: 'utf8' });
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

function qpdfCheck(bytes: Uint8Array): string {
  const file = join(dir, `qpdf-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('qpdf', ['--check', file], { encoding: 'utf8' });
}

const certificate = (originals: Uint8Array[]): CertificateOfCompletion => ({
  title: 'Form 8879 - 2026',
  requestId: 'sr_1',
  firmName: 'Acme CPAs',
  clientName: 'Zoë Müller',
  sentAt: new Date('2027-03-10T09:00:00Z'),
  completedAt: new Date('2027-03-12T10:00:00Z'),
  signers: [{
    name: 'Zoë Müller', email: 'zoe@example.com', role: 'taxpayer', identityMethod: 'sign_in_second_factor', identityResult: 'passed (e-mailed code)',
    address: '203.0.113.7', browser: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130 Safari/537.36',
    viewedAt: new Date('2027-03-12T09:58:00Z'), consentedAt: new Date('2027-03-12T09:58:30Z'), signedAt: new Date('2027-03-12T10:00:00Z'), adoption: 'typed',
  }],
  documents: originals.map((o, i) => ({ name: `document-${i + 1}.pdf`, sha256: createHash('sha256').update(o).digest('hex') })),
  sealFingerprint: sealFingerprint(identity),
});

describe('the PDF toolkit', () => {
  it('draws fields, appends a certificate and seals: pdfsig finds a valid signature over the whole file, qpdf finds no fault', async () => {
    const originals = [await onePagePdf('Engagement letter'), await onePagePdf('Form 8879')];
    const doc = await drawFields(originals, [
      { documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, value: { type: 'signature', mark: { kind: 'typed', text: 'Zoë Müller' } } },
      { documentIndex: 1, page: 1, x: 50, y: 600, width: 200, height: 40, value: { type: 'signature', mark: { kind: 'drawn', png: PNG } } },
      { documentIndex: 1, page: 1, x: 300, y: 600, width: 30, height: 20, value: { type: 'initials', mark: { kind: 'typed', text: 'ZM' } } },
      { documentIndex: 1, page: 1, x: 50, y: 660, width: 120, height: 20, value: { type: 'date', text: '03/12/2027' } },
      { documentIndex: 1, page: 1, x: 200, y: 660, width: 120, height: 20, value: { type: 'text', text: '1234' } },
      { documentIndex: 1, page: 1, x: 350, y: 660, width: 14, height: 14, value: { type: 'checkbox', checked: true } },
    ]);
    expect(doc.getPageCount()).toBe(2);
    await appendCertificate(doc, certificate(originals));
    expect(doc.getPageCount()).toBe(3);

    const sealed = await sealPdf(await doc.save(), identity, { name: 'Acme CPAs', reason: 'Signed in Ledgerline', location: 'Ledgerline', contactInfo: 'office@acme.test' });

    const check = pdfsig(sealed);
    expect(check.out).toContain('Signature is Valid');
    expect(check.out).toContain('Total document signed');
    expect(check.out).toContain('ETSI.CAdES.detached');
    expect(qpdfCheck(sealed)).toContain('No syntax or stream encoding errors found');

    // One byte changed inside the signed range (the document's text), and the check fails.
    const text = sealed.indexOf('/Type /Catalog');
    expect(text).toBeGreaterThan(0);
    const tampered = Buffer.from(sealed);
    tampered[text + 7] = 'X'.charCodeAt(0);
    const after = pdfsig(tampered);
    expect(after.out).not.toContain('Signature is Valid');
  });

  it('a certificate built alone names the sealed file and is itself sealable', async () => {
    const original = await onePagePdf('Form 8879');
    const cert = await certificateDocument({ ...certificate([original]), sealedFileSha256: 'ab'.repeat(32) });
    const sealed = await sealPdf(await cert.save(), identity, { name: 'Acme CPAs', reason: 'Certificate of completion', location: 'Ledgerline', contactInfo: '' });
    expect(pdfsig(sealed).out).toContain('Signature is Valid');
  });

  it('refuses a field on a page that does not exist', async () => {
    const original = await onePagePdf('one page');
    await expect(drawFields([original], [{ documentIndex: 0, page: 2, x: 1, y: 1, width: 10, height: 10, value: { type: 'text', text: 'x' } }])).rejects.toThrow(/does not exist/);
    await expect(drawFields([original], [{ documentIndex: 1, page: 1, x: 1, y: 1, width: 10, height: 10, value: { type: 'text', text: 'x' } }])).rejects.toThrow(/does not exist/);
  });

  it('knows page sizes and whether a box fits', async () => {
    const [size] = await pageSizes(await onePagePdf('x'));
    expect(size).toEqual({ width: 612, height: 792 });
    expect(fitsPage({ x: 500, y: 10, width: 112, height: 10 }, size!)).toBe(true);
    expect(fitsPage({ x: 500, y: 10, width: 120, height: 10 }, size!)).toBe(false);
    expect(fitsPage({ x: -1, y: 10, width: 10, height: 10 }, size!)).toBe(false);
  });

  it('keeps Latin-1 letters and replaces what the standard fonts cannot show', () => {
    expect(pdfSafeText('Zoë Müller')).toBe('Zoë Müller');
    expect(pdfSafeText('Erdős 李')).toBe('Erdos ?');
  });

  it('generates the self-signed seal once and reuses it; configured values need both parts', () => {
    const data = mkdtempSync(join(dir, 'data-'));
    const first = loadSealIdentity({}, data, 'Seal');
    expect(loadSealIdentity({}, data, 'Seal')).toEqual(first);
    expect(readFileSync(join(data, 'keys', 'signature-seal.pem'), 'utf8')).toContain('BEGIN CERTIFICATE');
    expect(loadSealIdentity({ keyPem: identity.keyPem, certificatePem: identity.certificatePem }, data, 'Seal')).toEqual(identity);
    expect(() => loadSealIdentity({ keyPem: identity.keyPem }, data, 'Seal')).toThrow(/both/);
  });
});
