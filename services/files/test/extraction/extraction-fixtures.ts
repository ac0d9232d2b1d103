/**
 * Builds the extraction tests' documents from known words at test time, so each test states
 * the words it expects next to the file that holds them: OOXML zips written here with
 * node:zlib, PDFs with pdf-lib. The scanned fixtures are files (make-fixtures.mjs) because
 * the browser tests upload them too.
 */
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { ExtractionInput } from '../../src/extraction/text-extractor.ts';

export const fixturePath = (name: string): string => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

export async function readFixture(name: string): Promise<Buffer> {
  return readFile(fixturePath(name));
}

/** An input whose stream yields `bytes` in chunks of `chunkBytes` (small chunks test boundaries); it keeps the streams it opened. */
export function bytesInput(originalName: string, mimeType: string, bytes: Uint8Array | string, chunkBytes = 64 * 1024): ExtractionInput & { streams: Readable[] } {
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
  const streams: Readable[] = [];
  return {
    originalName,
    mimeType,
    size: data.length,
    streams,
    async open(): Promise<Readable> {
      const stream = Readable.from(chunks(data, chunkBytes), { objectMode: false });
      streams.push(stream);
      return stream;
    },
  };
}

function* chunks(data: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A ZIP of deflated entries (what Office writes), built with the platform's zlib. */
export function zip(parts: Record<string, string | Uint8Array>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(parts)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const deflated = deflateRawSync(data, { level: 6 });
    const fileName = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    local.copy(central, 8, 6, 30); // flags … name length are laid out alike
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, deflated);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A minimal Word document: each paragraph's words split over two runs, plus a table and a header. */
export function buildDocx(paragraphs: string[], table: string[][] = [], header = ''): Uint8Array {
  const run = (text: string): string => `<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
  const paragraph = (text: string): string => {
    const middle = Math.floor(text.length / 2);
    return `<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr>${run(text.slice(0, middle))}${run(text.slice(middle))}</w:p>`;
  };
  const rows = table.map((cells) => `<w:tr>${cells.map((cell) => `<w:tc>${paragraph(cell)}</w:tc>`).join('')}</w:tr>`).join('');
  const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zip({
    '[Content_Types].xml': `${XML_DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    '_rels/.rels': `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/document.xml': `${XML_DECLARATION}<w:document ${ns}><w:body>${paragraphs.map(paragraph).join('')}${rows ? `<w:tbl>${rows}</w:tbl>` : ''}<w:p><w:r><w:instrText>PAGE \\* MERGEFORMAT</w:instrText></w:r><w:r><w:delText>deletedword</w:delText></w:r></w:p><w:sectPr/></w:body></w:document>`,
    ...(header ? { 'word/header1.xml': `${XML_DECLARATION}<w:hdr ${ns}>${paragraph(header)}</w:hdr>` } : {}),
  });
}

/** A minimal workbook: sheets in the given order, strings shared or inline, numbers as numbers. */
export function buildXlsx(sheets: Array<{ name: string; rows: Array<Array<string | number>> }>, inlineStrings = false): Uint8Array {
  const shared: string[] = [];
  const column = (index: number): string => String.fromCharCode(65 + index);
  const sheetXml = (rows: Array<Array<string | number>>): string => {
    const body = rows.map((cells, r) => `<row r="${r + 1}">${cells.map((cell, c) => {
      const ref = `${column(c)}${r + 1}`;
      if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
      if (inlineStrings) return `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(cell)}</t></is></c>`;
      shared.push(cell);
      return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
    }).join('')}<c r="Z${r + 1}"><f>SUM(A1:A2)</f><v>0</v></c></row>`).join('');
    return `${XML_DECLARATION}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${body}</sheetData></worksheet>`;
  };
  const parts: Record<string, string> = {};
  // Sheet parts are numbered in reverse so that only the workbook's order gives the right one.
  sheets.forEach((sheet, i) => { parts[`xl/worksheets/sheet${sheets.length - i}.xml`] = sheetXml(sheet.rows); });
  parts['xl/workbook.xml'] = `${XML_DECLARATION}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((sheet, i) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
  parts['xl/_rels/workbook.xml.rels'] = `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${sheets.length - i}.xml"/>`).join('')}<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;
  parts['xl/sharedStrings.xml'] = `${XML_DECLARATION}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${shared.length}">${shared.map((text) => `<si><r><t>${escapeXml(text)}</t></r><rPh><t>phoneticaid</t></rPh></si>`).join('')}</sst>`;
  return zip(parts);
}

/** A minimal presentation: slides listed in presentation order (their part numbers reversed). */
export function buildPptx(slides: string[][]): Uint8Array {
  const a = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const parts: Record<string, string> = {};
  slides.forEach((paragraphs, i) => {
    parts[`ppt/slides/slide${slides.length - i}.xml`] = `${XML_DECLARATION}<p:sld ${a}><p:cSld><p:spTree><p:sp><p:txBody>${paragraphs.map((text) => `<a:p><a:r><a:t>${escapeXml(text)}</a:t></a:r></a:p>`).join('')}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  });
  parts['ppt/presentation.xml'] = `${XML_DECLARATION}<p:presentation ${a}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`;
  parts['ppt/_rels/presentation.xml.rels'] = `${XML_DECLARATION}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${slides.length - i}.xml"/>`).join('')}</Relationships>`;
  return zip(parts);
}

/** A PDF with a real text layer: one page per entry, each line drawn as text. */
export async function buildTextPdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595.28, 841.89]);
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: 780 - i * 24, size: 14, font }));
  }
  return pdf.save();
}
