import { afterAll, describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import {
  createTextExtractor, DEFAULT_MAX_TEXT_CHARS, InputReadError, type ExtractionInput,
} from '../../src/extraction/text-extractor.ts';
import { buildDocx, buildPptx, buildTextPdf, buildXlsx, bytesInput, zip } from './extraction-fixtures.ts';

// These formats need no OCR; the OCR worker is never started in this suite.
const extractor = createTextExtractor();
afterAll(() => extractor.close());

const extract = (name: string, mime: string, bytes: Uint8Array | string, chunkBytes?: number): Promise<string> =>
  extractor.extract(bytesInput(name, mime, bytes, chunkBytes));

describe('text formats', () => {
  it('reads plain text, Markdown and logs with whitespace normalised, across tiny chunks', async () => {
    const text = '  Ledger\tentries   for\r\n\r\n\r\n\r\nthe  Numbat\u00a0account \r\nend  ';
    await expect(extract('notes.txt', 'text/plain', text, 3)).resolves.toBe('Ledger entries for\n\nthe Numbat account\nend');
    await expect(extract('README.md', 'text/markdown', '# Quarterly *GST* summary\n\n- Bilby ledger')).resolves.toBe('# Quarterly *GST* summary\n\n- Bilby ledger');
    await expect(extract('server.log', '', '2026-01-02 INFO reconciled Potoroo batch\n')).resolves.toBe('2026-01-02 INFO reconciled Potoroo batch');
  });

  it('decodes UTF-8 with a BOM, UTF-16 LE/BE with a BOM, BOM-less UTF-16 and Windows-1252', async () => {
    const words = 'Café Größe naïve €100 Quokka';
    await expect(extract('a.txt', 'text/plain', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(words)]), 2)).resolves.toBe(words);
    await expect(extract('b.txt', 'text/plain', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(words, 'utf16le')]), 3)).resolves.toBe(words);
    const utf16be = Buffer.from(words, 'utf16le').swap16();
    await expect(extract('c.txt', 'text/plain', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]), 5)).resolves.toBe(words);
    await expect(extract('d.txt', 'text/plain', Buffer.from(words, 'utf16le'))).resolves.toBe(words);
    // 'Café €5' in Windows-1252: é = E9, € = 80.
    await expect(extract('e.csv', 'text/csv', Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]))).resolves.toBe('Café €5');
  });

  it('reads CSV cells without their quoting, with the delimiter guessed, and TSV', async () => {
    const csv = 'client,note,amount\r\n"Smith, John","said ""paid in full""",1200\r\nWallaby Pty,"multi\nline",5\r\n';
    await expect(extract('clients.csv', 'text/csv', csv, 4)).resolves.toBe('client note amount\nSmith, John said "paid in full" 1200\nWallaby Pty multi\nline 5');
    await expect(extract('eu.csv', 'application/vnd.ms-excel', 'Kunde;Betrag\nMüller GmbH;1,5\n')).resolves.toBe('Kunde Betrag\nMüller GmbH 1,5');
    await expect(extract('sheet.tsv', 'text/tab-separated-values', 'a,b\tc\n"Quoll"\td')).resolves.toBe('a,b c\nQuoll d');
  });

  it('reads the string values of JSON, not its keys, numbers or literals', async () => {
    const json = JSON.stringify({ clientName: 'Echidna Holdings', total: 42, paid: true, notes: ['First note', { nested: 'Deep value' }], empty: null });
    await expect(extract('data.json', 'application/json', json)).resolves.toBe('Echidna Holdings\nFirst note\nDeep value');
  });

  it('reads the text nodes and CDATA of XML, entities decoded, without tags, attributes or comments', async () => {
    const xml = '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY boom "BOOM">]>\n<invoice id="attributeword"><!-- hidden comment -->\n  <party>Bandicoot &amp; Sons</party>\n  <memo><![CDATA[Payment <due> soon]]></memo><x>&boom;</x>\n</invoice>';
    const text = await extract('invoice.xml', 'application/xml', xml, 7);
    expect(text).toContain('Bandicoot & Sons');
    expect(text).toContain('Payment <due> soon');
    expect(text).not.toMatch(/attributeword|hidden comment|BOOM/);
  });

  it('reads the visible text of HTML: title and body, without scripts and styles', async () => {
    const html = '<!DOCTYPE html><html><head><title>Tax return</title><style>p{color:red}</style><script>var secret = "scriptword";</script></head>'
      + '<body><h1>Kookaburra&nbsp;Trust</h1><p>Lodged <b>on</b> time &amp; paid.</p><table><tr><td>Q1</td><td>$10</td></tr></table></body></html>';
    const text = await extract('page.html', 'text/html', html, 5);
    expect(text).toBe('Tax return\n\nKookaburra Trust\n\nLodged on time & paid.\n\nQ1 $10');
  });

  it('reads RTF text: control words stripped, \\uN and \\\'hh decoded, tables and pictures handled', async () => {
    const rtf = '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Helvetica;}}{\\colortbl;\\red255\\green0\\blue0;}'
      + '{\\info{\\author Metadata Person}}{\\*\\generator Riched20;}\\viewkind4\\uc1\\pard\\f0\\fs24 Dear {\\b Platypus} client,\\par '
      + 'caf\\\'e9 \\u8364? 100 \\u-3913\\\'3f\\par\r\n'
      + '{\\pict\\pngblip\\picw10\\pich10 89504e470d0a1a0a0000}{\\field{\\*\\fldinst HYPERLINK "http://x"}{\\fldrslt Portal link}}\\par '
      + '\\trowd\\cellx1000\\cellx2000 Cell one\\cell Cell two\\cell\\row Escaped \\{braces\\} and \\\\ backslash\\line {\\bin4 \\}{\\}after binary\\par}';
    const text = await extract('letter.rtf', 'application/rtf', rtf, 6);
    expect(text).toBe('Dear Platypus client,\ncafé € 100 \uf0b7\nPortal link\nCell one Cell two\nEscaped {braces} and \\ backslash\nafter binary');
  });

  it('decodes multi-byte code pages in RTF (Shift-JIS \\\'hh pairs)', async () => {
    // 日本 in Shift-JIS is 93 FA 96 7B.
    await expect(extract('jp.rtf', '', "{\\rtf1\\ansi\\ansicpg932 \\'93\\'fa\\'96\\'7b Tokyo\\par}")).resolves.toBe('日本 Tokyo');
  });
});

describe('documents', () => {
  it('reads a PDF text layer page by page', async () => {
    const pdf = await buildTextPdf([['Statement for Wombat Holdings', 'Balance due 4,200.00'], ['Second page Dingo']]);
    await expect(extract('statement.pdf', 'application/pdf', pdf)).resolves.toBe('Statement for Wombat Holdings\nBalance due 4,200.00\n\nSecond page Dingo');
  });

  it('reads a DOCX: paragraphs on lines, runs joined, table rows, header; not field codes or deleted text', async () => {
    const docx = buildDocx(['Engagement letter for Possum Partners', 'Scope of services'], [['Fee', '$2,500']], 'Confidential header');
    const text = await extract('letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', docx);
    expect(text).toBe('Engagement letter for Possum Partners\nScope of services\nFee $2,500\n\nConfidential header');
    expect(text).not.toMatch(/MERGEFORMAT|deletedword/);
  });

  it('reads an XLSX sheet by sheet in workbook order: shared strings, inline strings and numbers, no formulas', async () => {
    const sheets = [
      { name: 'Summary', rows: [['Client', 'Fee'], ['Cassowary Co', 1250.5]] },
      { name: 'Notes', rows: [['Lodged early']] },
    ];
    const shared = await extract('fees.xlsx', '', buildXlsx(sheets));
    expect(shared).toBe('Summary\nClient Fee 0\nCassowary Co 1250.5 0\n\nNotes\nLodged early 0');
    expect(shared).not.toMatch(/SUM|phoneticaid/);
    await expect(extract('inline.xlsx', '', buildXlsx(sheets, true))).resolves.toBe(shared);
  });

  it('reads a PPTX slide by slide in presentation order', async () => {
    const pptx = buildPptx([['Annual review', 'Koala Ventures'], ['Next steps']]);
    await expect(extract('deck.pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', pptx)).resolves.toBe('Annual review\nKoala Ventures\n\nNext steps');
  });
});

describe('format detection', () => {
  it('trusts the bytes over the name: a PDF named .txt, a DOCX with no name or type', async () => {
    const pdf = await buildTextPdf([['Sniffed Pademelon']]);
    await expect(extract('scan.txt', 'text/plain', pdf)).resolves.toBe('Sniffed Pademelon');
    await expect(extract('upload', 'application/octet-stream', buildDocx(['Nameless Quokka']))).resolves.toBe('Nameless Quokka');
  });

  it('sniffs unnamed text: HTML, XML, RTF and plain text', async () => {
    await expect(extract('download', '', '<!doctype html><p>Sniffed&amp;html</p>')).resolves.toBe('Sniffed&html');
    await expect(extract('download', '', '<feed><title>Sniffed xml</title></feed>')).resolves.toBe('Sniffed xml');
    await expect(extract('download', '', '{\\rtf1 Sniffed rtf\\par}')).resolves.toBe('Sniffed rtf');
    await expect(extract('README', 'application/octet-stream', 'Just words')).resolves.toBe('Just words');
  });

  it('gives "" for unknown binary types, legacy Office files and claimed formats whose bytes do not match', async () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256));
    await expect(extract('archive.bin', 'application/octet-stream', binary)).resolves.toBe('');
    await expect(extract('song.mp3', 'audio/mpeg', Buffer.concat([Buffer.from('ID3\u0004\u0000'), binary]))).resolves.toBe('');
    await expect(extract('old.doc', 'application/msword', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), binary]))).resolves.toBe('');
    await expect(extract('fake.pdf', 'application/pdf', 'not a pdf at all')).resolves.toBe('');
    await expect(extract('fake.docx', '', 'plain words, not a zip')).resolves.toBe('');
    await expect(extract('empty.txt', 'text/plain', '')).resolves.toBe('');
    await expect(extract('other.zip', 'application/zip', zip({ 'a.txt': 'zipped words' }))).resolves.toBe('');
  });
});

describe('corrupt content gives "" without throwing', () => {
  it.each([
    ['truncated.pdf', 'application/pdf', async () => (await buildTextPdf([['Truncated words']])).subarray(0, 200)],
    ['garbage.pdf', 'application/pdf', async () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5000, 0x8f)])],
    ['truncated.docx', '', async () => buildDocx(['Truncated docx words']).subarray(0, 400)],
    ['truncated.xlsx', '', async () => buildXlsx([{ name: 'S', rows: [['Cut off']] }]).subarray(0, 300)],
    ['bad-deflate.pptx', '', async () => corruptDeflate(buildPptx([['Slide words that will not inflate']]))],
    ['broken.json', 'application/json', async () => '{"a": "unterminated'],
    ['binary.json', 'application/json', async () => Buffer.from([0x7b, 0x00, 0x01, 0x02, 0x03, 0x00])],
  ])('%s', async (name, mime, build) => {
    await expect(extract(name, mime, await build())).resolves.toBe('');
  });

  it('a zip bomb is refused by its declared size, or stopped by the inflate budget when it lies', async () => {
    // 40 MB of markup deflates to ~40 KB; the budget for such a file is 16 MB.
    const bomb = zip({ 'word/document.xml': `<w:document><w:body>${' '.repeat(40_000_000)}<w:p><w:t>never reached</w:t></w:p></w:body></w:document>` });
    await expect(extract('bomb.docx', '', bomb)).resolves.toBe('');
    await expect(extract('lying-bomb.docx', '', declareUncompressedSize(bomb, 1000))).resolves.toBe('');
  }, 60_000);
});

describe('limits', () => {
  it('caps the output at maxTextChars and stops reading a long stream early', async () => {
    const capped = createTextExtractor({ maxTextChars: 100 });
    try {
      const input = bytesInput('huge.log', 'text/plain', 'ledger entry posted '.repeat(450_000), 16 * 1024); // ~9 MB
      const text = await capped.extract(input);
      expect(text.length).toBeLessThanOrEqual(100);
      expect(text.startsWith('ledger entry posted ledger')).toBe(true);
      expect(text).toBe(text.trim());
      // Reading stopped at the cap and the stream was released.
      expect(input.streams).toHaveLength(1);
      expect(input.streams[0]!.destroyed).toBe(true);
      const pdfText = await capped.extract(bytesInput('long.pdf', 'application/pdf', await buildTextPdf(Array.from({ length: 20 }, (_, i) => [`Page ${i} of a long statement with many words`]))));
      expect(pdfText.length).toBeLessThanOrEqual(100);
      expect(pdfText).toContain('Page 0');
    } finally {
      await capped.close();
    }
    expect(DEFAULT_MAX_TEXT_CHARS).toBe(1_000_000);
  });

  it('never cuts a surrogate pair at the cap', async () => {
    const capped = createTextExtractor({ maxTextChars: 5 });
    try {
      const text = await capped.extract(bytesInput('emoji.txt', 'text/plain', 'abcd😀😀'));
      expect(text).toBe('abcd');
    } finally {
      await capped.close();
    }
  });

  it('whole-file formats over maxInputBytes give "" without loading them; streamed text still yields its start', async () => {
    const small = createTextExtractor({ maxInputBytes: 512 });
    try {
      const pdf = await buildTextPdf([['Too big to load']]);
      expect(pdf.length).toBeGreaterThan(512);
      const declared = bytesInput('big.pdf', 'application/pdf', pdf);
      await expect(small.extract(declared)).resolves.toBe('');
      // A size that lies is caught while reading.
      const lying = { ...bytesInput('lying.pdf', 'application/pdf', pdf, 128), size: 100 };
      await expect(small.extract(lying)).resolves.toBe('');
      const text = await small.extract(bytesInput('big.txt', 'text/plain', `Bettong ${'word '.repeat(10_000)}`, 1024));
      expect(text.startsWith('Bettong word word')).toBe(true);
      // Streamed formats read at most 4 × maxInputBytes.
      expect(text.length).toBeLessThanOrEqual(4 * 512);
    } finally {
      await small.close();
    }
  });
});

describe('errors that are not about content', () => {
  it('rejects with InputReadError when the file cannot be opened or its stream fails', async () => {
    const unopenable: ExtractionInput = { originalName: 'a.txt', mimeType: 'text/plain', size: 10, open: async () => { throw new Error('object store unavailable'); } };
    await expect(extractor.extract(unopenable)).rejects.toThrow(InputReadError);
    const broken: ExtractionInput = {
      originalName: 'a.pdf', mimeType: 'application/pdf', size: 10_000,
      open: async () => Readable.from((async function* () {
        yield Buffer.from('%PDF-1.7\n');
        throw new Error('connection reset');
      })()),
    };
    await expect(extractor.extract(broken)).rejects.toThrow(/connection reset/);
  });

  it('rejects misuse: malformed input, bad options, use after close', async () => {
    await expect(extractor.extract({ originalName: 'a.txt' } as unknown as ExtractionInput)).rejects.toThrow(TypeError);
    expect(() => createTextExtractor({ maxTextChars: 0 })).toThrow(RangeError);
    const closed = createTextExtractor();
    await closed.close();
    await expect(closed.extract(bytesInput('a.txt', 'text/plain', 'x'))).rejects.toThrow(/closed/);
  });
});

/** Flips bytes inside the first deflated entry's data, keeping the zip structure valid. */
function corruptDeflate(zip: Uint8Array): Uint8Array {
  const copy = Buffer.from(zip);
  const dataStart = 30 + copy.readUInt16LE(26) + copy.readUInt16LE(28);
  for (let i = dataStart; i < dataStart + 40 && i < copy.length; i += 1) copy[i] = 0xff;
  return copy;
}

/** Rewrites every entry's declared uncompressed size in the central directory (a bomb that lies). */
function declareUncompressedSize(zip: Uint8Array, size: number): Uint8Array {
  const copy = Buffer.from(zip);
  for (let at = copy.indexOf('PK\u0001\u0002', 0, 'latin1'); at >= 0; at = copy.indexOf('PK\u0001\u0002', at + 4, 'latin1')) copy.writeUInt32LE(size, at + 24);
  return copy;
}
