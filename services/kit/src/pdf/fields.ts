import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

/**
 * Drawing filled-in signing fields into PDFs (issue 41). Positions are in PDF points with the
 * origin at the page's top-left corner (as a screen shows the page), pages counted from 1;
 * `pageSizes` lets callers check placements before anyone signs.
 */
export type FieldType = 'signature' | 'initials' | 'date' | 'text' | 'checkbox';

export interface FieldBox {
  documentIndex: number;
  /** 1-based. */
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A signature or initials as the signer adopted it: typed (drawn in an italic face) or drawn (a PNG). */
export type AdoptedMark = { kind: 'typed'; text: string } | { kind: 'drawn'; png: Uint8Array };

export type FieldValue =
  | { type: 'signature' | 'initials'; mark: AdoptedMark }
  | { type: 'date' | 'text'; text: string }
  | { type: 'checkbox'; checked: boolean };

export type FilledField = FieldBox & { value: FieldValue };

export interface PageSize {
  width: number;
  height: number;
}

const INK = rgb(0.05, 0.1, 0.35);
const PADDING = 2;

/** Each document's page sizes, in points; throws the pdf-lib error for a file that is not a readable PDF. */
export async function pageSizes(document: Uint8Array): Promise<PageSize[]> {
  const doc = await PDFDocument.load(document, { updateMetadata: false });
  return doc.getPages().map((p) => p.getSize());
}

/** Whether a field lies within its page (an editor's rounding may touch the edge). */
export function fitsPage(box: Omit<FieldBox, 'documentIndex' | 'page'>, size: PageSize): boolean {
  return box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0 && box.x + box.width <= size.width + 0.5 && box.y + box.height <= size.height + 0.5;
}

/**
 * One PDF of all documents in order with every field drawn in. Throws when a field names a
 * document or page that does not exist (placements are checked when the request is sent).
 */
export async function drawFields(documents: readonly Uint8Array[], fields: readonly FilledField[]): Promise<PDFDocument> {
  const out = await PDFDocument.create();
  const firstPageOf: number[] = [];
  for (const bytes of documents) {
    const source = await PDFDocument.load(bytes, { updateMetadata: false });
    firstPageOf.push(out.getPageCount());
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  const fonts = { text: await out.embedFont(StandardFonts.Helvetica), script: await out.embedFont(StandardFonts.TimesRomanItalic) };
  for (const field of fields) {
    const first = firstPageOf[field.documentIndex];
    const pages = (firstPageOf[field.documentIndex + 1] ?? out.getPageCount()) - (first ?? 0);
    if (first === undefined || field.page < 1 || field.page > pages) throw new Error(`field on a page that does not exist (document ${field.documentIndex}, page ${field.page})`);
    await drawField(out, out.getPage(first + field.page - 1), field, fonts);
  }
  return out;
}

async function drawField(doc: PDFDocument, page: PDFPage, field: FilledField, fonts: { text: PDFFont; script: PDFFont }): Promise<void> {
  const { height: pageHeight } = page.getSize();
  // PDF space has its origin at the bottom-left.
  const bottom = pageHeight - field.y - field.height;
  const { value } = field;
  if (value.type === 'checkbox') {
    if (!value.checked) return;
    const s = Math.min(field.width, field.height) - 2 * PADDING;
    const x = field.x + PADDING;
    const y = bottom + PADDING;
    page.drawLine({ start: { x, y: y + s * 0.5 }, end: { x: x + s * 0.4, y }, thickness: Math.max(1, s / 8), color: INK });
    page.drawLine({ start: { x: x + s * 0.4, y }, end: { x: x + s, y: y + s }, thickness: Math.max(1, s / 8), color: INK });
    return;
  }
  if ('mark' in value) {
    if (value.mark.kind === 'drawn') {
      const image = await doc.embedPng(value.mark.png);
      const scale = Math.min((field.width - 2 * PADDING) / image.width, (field.height - 2 * PADDING) / image.height);
      page.drawImage(image, { x: field.x + PADDING, y: bottom + PADDING, width: image.width * scale, height: image.height * scale });
      return;
    }
    drawFitted(page, pdfSafeText(value.mark.text), fonts.script, field.x, bottom, field.width, field.height);
  } else {
    drawFitted(page, pdfSafeText(value.text), fonts.text, field.x, bottom, field.width, field.height);
  }
}

/** One line of text as large as the box allows (at most 80 % of its height), shrunk to fit its width. */
function drawFitted(page: PDFPage, text: string, font: PDFFont, x: number, bottom: number, width: number, height: number): void {
  if (!text) return;
  let size = Math.max(4, (height - 2 * PADDING) * 0.8);
  const textWidth = font.widthOfTextAtSize(text, size);
  if (textWidth > width - 2 * PADDING) size = Math.max(4, (size * (width - 2 * PADDING)) / textWidth);
  page.drawText(text, { x: x + PADDING, y: bottom + (height - size) / 2 + size * 0.2, size, font, color: INK });
}

/**
 * Text the standard PDF fonts can show (they cover Latin-1 only): accents kept where Latin-1
 * has the letter, else dropped to the base letter, anything else a '?'. The signer's own
 * words stay exact in the request's record; the drawing is their picture.
 */
export function pdfSafeText(text: string): string {
  return [...text.replace(/[\r\n\t]+/g, ' ')]
    .map((ch) => {
      if (isLatin1Printable(ch)) return ch;
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      return [...base].every(isLatin1Printable) && base ? base : '?';
    })
    .join('');
}

function isLatin1Printable(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff);
}
