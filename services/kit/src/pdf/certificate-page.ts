import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { pdfSafeText } from './fields.ts';

/**
 * The certificate of completion (issue 41): who signed, how their identity was checked and
 * with what result, from which address and browser, and when they viewed, consented and
 * signed; with the SHA-256 of every original document. Appended to the signed PDF before it
 * is sealed; built alone, with the sealed file's own hash (which the appended page cannot
 * hold), for the request's certificate download.
 */
export interface CertificateSigner {
  name: string;
  email: string;
  role: string;
  identityMethod: string;
  identityResult: string;
  address: string | null;
  browser: string | null;
  viewedAt: Date | null;
  consentedAt: Date | null;
  signedAt: Date | null;
  /** How the signature was adopted: typed or drawn. */
  adoption: string | null;
}

export interface CertificateOfCompletion {
  title: string;
  requestId: string;
  firmName: string;
  clientName: string;
  sentAt: Date | null;
  completedAt: Date;
  signers: readonly CertificateSigner[];
  documents: readonly { name: string; sha256: string }[];
  /** SHA-256 of the sealed file: only on the certificate built alone (a file cannot hold its own hash). */
  sealedFileSha256?: string;
  /** SHA-256 fingerprint of the seal's certificate. */
  sealFingerprint: string;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const GREY = rgb(0.35, 0.35, 0.35);

/** Appends the certificate's page(s) to `doc`. */
export async function appendCertificate(doc: PDFDocument, certificate: CertificateOfCompletion): Promise<void> {
  const writer = new PageWriter(doc, await doc.embedFont(StandardFonts.Helvetica), await doc.embedFont(StandardFonts.HelveticaBold));
  writer.line('Certificate of completion', { size: 18, bold: true });
  writer.gap(4);
  writer.line(certificate.title, { size: 12, bold: true });
  writer.pair('Request', certificate.requestId);
  writer.pair('Firm', certificate.firmName);
  writer.pair('Client', certificate.clientName);
  writer.pair('Sent', stamp(certificate.sentAt));
  writer.pair('Completed', stamp(certificate.completedAt));
  writer.gap(8);
  writer.line('Signers', { size: 13, bold: true });
  certificate.signers.forEach((s, i) => {
    writer.gap(4);
    writer.line(`${i + 1}. ${s.name} <${s.email}> - ${s.role}`, { bold: true });
    writer.pair('Identity check', `${s.identityMethod}: ${s.identityResult}`);
    writer.pair('Signature adopted', s.adoption ?? '-');
    writer.pair('Address', s.address ?? '-');
    writer.pair('Browser', s.browser ?? '-');
    writer.pair('Viewed', stamp(s.viewedAt));
    writer.pair('Consented to sign electronically', stamp(s.consentedAt));
    writer.pair('Signed', stamp(s.signedAt));
  });
  writer.gap(8);
  writer.line('Document integrity (SHA-256)', { size: 13, bold: true });
  for (const d of certificate.documents) writer.pair(`Original: ${d.name}`, d.sha256);
  writer.pair('Signed file', certificate.sealedFileSha256 ?? 'in the separate certificate of completion and the firm\'s record (a file cannot hold its own hash)');
  writer.pair('Seal certificate fingerprint', certificate.sealFingerprint);
  writer.gap(8);
  writer.line('The file is sealed with the installation\'s digital signature: a PDF reader shows whether anything changed after sealing.', { size: 8, grey: true });
}

/** A certificate on its own, as a new PDF. */
export async function certificateDocument(certificate: CertificateOfCompletion): Promise<PDFDocument> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Certificate of completion - ${pdfSafeText(certificate.title)}`);
  await appendCertificate(doc, certificate);
  return doc;
}

const stamp = (d: Date | null): string => (d ? `${d.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '')} UTC` : '-');

/** Lines of text top-down, wrapped to the page's width, continuing on a new page when one is full. */
class PageWriter {
  private page!: PDFPage;
  private y = 0;
  private readonly doc: PDFDocument;
  private readonly font: PDFFont;
  private readonly bold: PDFFont;

  constructor(doc: PDFDocument, font: PDFFont, bold: PDFFont) {
    this.doc = doc;
    this.font = font;
    this.bold = bold;
    this.newPage();
  }

  gap(points: number): void {
    this.y -= points;
  }

  pair(label: string, value: string): void {
    this.line(`${label}: ${value}`, { size: 9, indent: 12 });
  }

  line(text: string, options: { size?: number; bold?: boolean; grey?: boolean; indent?: number } = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    const x = MARGIN + (options.indent ?? 0);
    for (const part of wrap(pdfSafeText(text), font, size, A4.width - MARGIN - x)) {
      if (this.y - size < MARGIN) this.newPage();
      this.y -= size * 1.3;
      this.page.drawText(part, { x, y: this.y, size, font, color: options.grey ? GREY : rgb(0, 0, 0) });
    }
  }

  private newPage(): void {
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }
}

/** Words onto lines no wider than `width`; a word longer than a line (a hash) is cut. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  for (let word of text.split(' ')) {
    while (!fits(word)) {
      let cut = word.length - 1;
      while (cut > 1 && !fits(word.slice(0, cut))) cut--;
      if (current) lines.push(current);
      lines.push(word.slice(0, cut));
      current = '';
      word = word.slice(cut);
    }
    const next = current ? `${current} ${word}` : word;
    if (fits(next)) current = next;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines;
}
