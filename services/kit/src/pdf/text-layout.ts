import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/*
 * A small flowing-text layout over pdf-lib for the documents the services print (invoices
 * first): text from the top of the page down, wrapped to the width it is given, rows of
 * columns, rules, and a new page when the current one is full. It uses the standard
 * Helvetica fonts, so nothing is embedded and every viewer (and pdftotext) reads the text;
 * those fonts only encode Windows-1252, so text is made safe first (winAnsiSafe).
 */

/** A4 in points. */
export const A4: [number, number] = [595.28, 841.89];

export interface TextStyle {
  size?: number;
  bold?: boolean;
  align?: 'left' | 'right' | 'center';
  /** Grey, for labels and small print. */
  muted?: boolean;
}

export interface Column { text: string; width: number; align?: 'left' | 'right' }

/** Characters outside Windows-1252 that documents here print, and what stands for them. */
const REPLACEMENTS: Readonly<Record<string, string>> = { '₹': 'Rs.', '≥': '>=', '≤': '<=', '−': '-', '\u202f': ' ', '\u00a0': ' ', '\u2009': ' ' };
/** Windows-1252's printable characters beyond Latin-1 (the 0x80–0x9F block). */
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the standard fonts can draw: known symbols spelled out, anything else outside Windows-1252 as '?'. */
export function winAnsiSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (REPLACEMENTS[ch] !== undefined) out += REPLACEMENTS[ch];
    else if (ch === '\t') out += ' ';
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(ch)) out += ch;
    else out += '?';
  }
  return out;
}

export class TextLayout {
  readonly doc: PDFDocument;
  readonly #regular: PDFFont;
  readonly #bold: PDFFont;
  readonly #margin: number;
  readonly #size: [number, number];
  #page!: PDFPage;
  #y = 0;

  private constructor(doc: PDFDocument, regular: PDFFont, bold: PDFFont, options: { margin: number; pageSize: [number, number] }) {
    this.doc = doc;
    this.#regular = regular;
    this.#bold = bold;
    this.#margin = options.margin;
    this.#size = options.pageSize;
    this.#newPage();
  }

  static async create(options: { title?: string; margin?: number; pageSize?: [number, number] } = {}): Promise<TextLayout> {
    const doc = await PDFDocument.create();
    if (options.title) doc.setTitle(winAnsiSafe(options.title));
    doc.setProducer('Ledgerline');
    const [regular, bold] = await Promise.all([doc.embedFont(StandardFonts.Helvetica), doc.embedFont(StandardFonts.HelveticaBold)]);
    return new TextLayout(doc, regular, bold, { margin: options.margin ?? 48, pageSize: options.pageSize ?? A4 });
  }

  /** The width text may use. */
  get width(): number {
    return this.#size[0] - 2 * this.#margin;
  }

  /** One or more paragraphs (line breaks kept), wrapped to the width. */
  text(text: string, style: TextStyle = {}): this {
    const size = style.size ?? 10;
    for (const line of this.#wrap(text, this.width, size, style.bold)) {
      this.#ensure(size * 1.4);
      this.#draw(line, this.#margin, this.width, size, style);
      this.#y -= size * 1.4;
    }
    return this;
  }

  /** A row of columns (widths as fractions of the text width), each wrapped inside its own width. */
  row(columns: readonly Column[], style: Omit<TextStyle, 'align'> = {}): this {
    const size = style.size ?? 9;
    const gap = 6;
    const cells = columns.map((c) => ({ ...c, points: c.width * this.width - gap }));
    const wrapped = cells.map((c) => this.#wrap(c.text, c.points, size, style.bold));
    const lines = Math.max(1, ...wrapped.map((w) => w.length));
    this.#ensure(lines * size * 1.35 + 2);
    let x = this.#margin;
    cells.forEach((c, i) => {
      wrapped[i]!.forEach((line, n) => this.#draw(line, x, c.points, size, { ...style, align: c.align ?? 'left' }, this.#y - n * size * 1.35));
      x += c.points + gap;
    });
    this.#y -= lines * size * 1.35 + 2;
    return this;
  }

  /** A thin horizontal line across the text width. */
  rule(): this {
    this.#ensure(8);
    this.#page.drawLine({ start: { x: this.#margin, y: this.#y + 4 }, end: { x: this.#margin + this.width, y: this.#y + 4 }, thickness: 0.5, color: rgb(0.6, 0.6, 0.6) });
    this.#y -= 6;
    return this;
  }

  /**
   * Keeps `height` points free below the text so far (on a new page when this one is full)
   * and says where: the 1-based page and the top of the space in points from the page's top
   * edge, as signature fields are placed. The text goes on below it.
   */
  reserve(height: number): { page: number; top: number } {
    this.#ensure(height);
    const at = { page: this.doc.getPageCount(), top: this.#size[1] - this.#y };
    this.#y -= height;
    return at;
  }

  space(points = 8): this {
    this.#y -= points;
    return this;
  }

  async save(): Promise<Uint8Array> {
    return this.doc.save();
  }

  #font(bold?: boolean): PDFFont {
    return bold ? this.#bold : this.#regular;
  }

  #draw(line: string, x: number, width: number, size: number, style: TextStyle, y = this.#y): void {
    const font = this.#font(style.bold);
    const measured = font.widthOfTextAtSize(line, size);
    const left = style.align === 'right' ? x + width - measured : style.align === 'center' ? x + (width - measured) / 2 : x;
    this.#page.drawText(line, { x: left, y: y - size, size, font, color: style.muted ? rgb(0.35, 0.35, 0.35) : rgb(0, 0, 0) });
  }

  /** Words to lines no wider than `width`; a word longer than a line is cut. */
  #wrap(text: string, width: number, size: number, bold?: boolean): string[] {
    const font = this.#font(bold);
    const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
    const lines: string[] = [];
    // Split before making the text safe: winAnsiSafe turns line breaks into '?'.
    for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n').map(winAnsiSafe)) {
      let line = '';
      for (const word of paragraph.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if (fits(candidate)) { line = candidate; continue; }
        if (line) lines.push(line);
        line = word;
        while (!fits(line) && line.length > 1) {
          let cut = line.length - 1;
          while (cut > 1 && !fits(line.slice(0, cut))) cut -= 1;
          lines.push(line.slice(0, cut));
          line = line.slice(cut);
        }
      }
      lines.push(line);
    }
    return lines;
  }

  #ensure(height: number): void {
    if (this.#y - height < this.#margin) this.#newPage();
  }

  #newPage(): void {
    this.#page = this.doc.addPage(this.#size);
    this.#y = this.#size[1] - this.#margin;
  }
}
