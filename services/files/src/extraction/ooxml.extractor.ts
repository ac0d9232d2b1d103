import { Parser, type Handler } from 'htmlparser2';
import type { ExtractionContext } from './extraction-context.ts';
import type { TextSink } from './text-sink.ts';
import { InflateBudget, ZipArchive } from './zip-archive.ts';

/**
 * Office Open XML documents: Word (.docx), Excel (.xlsx) and PowerPoint (.pptx), told apart
 * by their parts rather than by name. Each XML part is inflated and parsed as a stream.
 * Element names are matched by local name, so any namespace prefix works.
 */
export async function extractOoxml(context: ExtractionContext): Promise<void> {
  const bytes = await context.source.readAll(context.maxInputBytes);
  if (!bytes) return;
  const zip = ZipArchive.open(bytes);
  const part: PartReader = { zip, sink: context.sink, budget: new InflateBudget(inflateBudgetBytes(bytes.length, context.maxInputBytes)) };
  if (zip.has('word/document.xml')) await extractWordDocument(part);
  else if (zip.has('xl/workbook.xml')) await extractWorkbook(part);
  else if (zip.has('ppt/presentation.xml')) await extractPresentation(part);
}

/**
 * Office XML compresses about 5–15 times, so 20 times the file (at least 16 MiB, at most 8
 * times the input limit) is room for any real document; a zip bomb stops there, after
 * bounded work and with one chunk in memory at a time.
 */
function inflateBudgetBytes(fileBytes: number, maxInputBytes: number): number {
  return Math.min(Math.max(20 * fileBytes, 16 * 1024 * 1024), Math.max(8 * maxInputBytes, 16 * 1024 * 1024));
}

interface PartReader {
  zip: ZipArchive;
  sink: TextSink;
  budget: InflateBudget;
}

/** Word: body paragraphs one per line, table cells apart, then notes, headers, footers and comments. */
async function extractWordDocument(part: PartReader): Promise<void> {
  const extras = [...part.zip.entries.keys()]
    .filter((name) => /^word\/(footnotes|endnotes|header\d*|footer\d*|comments)\.xml$/.test(name))
    .sort(byNaturalOrder);
  for (const name of ['word/document.xml', ...extras]) {
    await parsePart(part, name, paragraphTextHandler(part.sink, { paragraph: 'p', breaks: ['br', 'cr'], cells: ['tc'], rows: ['tr'] }));
    part.sink.newline();
    if (part.sink.full) return;
  }
}

/** PowerPoint: each slide's text in presentation order, paragraphs one per line. */
async function extractPresentation(part: PartReader): Promise<void> {
  const slideIds: string[] = [];
  await parsePart(part, 'ppt/presentation.xml', {
    onopentag(name, attributes) {
      if (localName(name) === 'sldId') {
        const id = relationshipId(attributes);
        if (id) slideIds.push(id);
      }
    },
  });
  const relationships = await readRelationships(part, 'ppt/presentation.xml');
  let slides = slideIds.map((id) => relationships.get(id)).filter((name): name is string => !!name && part.zip.has(name));
  if (slides.length === 0) slides = [...part.zip.entries.keys()].filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name)).sort(byNaturalOrder);
  for (const name of slides) {
    await parsePart(part, name, paragraphTextHandler(part.sink, { paragraph: 'p', breaks: ['br'], cells: ['tc'], rows: ['tr'] }));
    part.sink.newline();
    part.sink.newline();
    if (part.sink.full) return;
  }
}

/**
 * Excel: sheet by sheet in workbook order, the sheet's name on a line, then each row on a
 * line with its cells' values (shared strings, inline strings, formula results and numbers;
 * formulas themselves, booleans and errors are left out).
 */
async function extractWorkbook(part: PartReader): Promise<void> {
  const sheets: Array<{ name: string; relationshipId: string }> = [];
  await parsePart(part, 'xl/workbook.xml', {
    onopentag(name, attributes) {
      const id = relationshipId(attributes);
      if (localName(name) === 'sheet' && id) sheets.push({ name: attributes.name ?? '', relationshipId: id });
    },
  });
  const relationships = await readRelationships(part, 'xl/workbook.xml');
  const sharedStrings = await readSharedStrings(part, [...relationships.values()].find((name) => /sharedStrings\d*\.xml$/i.test(name)) ?? 'xl/sharedStrings.xml');

  let parts = sheets
    .map((sheet) => ({ name: sheet.name, part: relationships.get(sheet.relationshipId) }))
    .filter((sheet): sheet is { name: string; part: string } => !!sheet.part && part.zip.has(sheet.part));
  if (parts.length === 0) {
    parts = [...part.zip.entries.keys()].filter((name) => /^xl\/worksheets\/[^/]+\.xml$/.test(name)).sort(byNaturalOrder).map((name) => ({ name: '', part: name }));
  }
  for (const sheet of parts) {
    part.sink.write(sheet.name);
    part.sink.newline();
    await parsePart(part, sheet.part, sheetHandler(part.sink, sharedStrings));
    part.sink.newline();
    part.sink.newline();
    if (part.sink.full) return;
  }
}

function sheetHandler(sink: TextSink, sharedStrings: string[]): Partial<Handler> {
  let cellType: string | undefined;
  let inCell = false;
  let collecting = 0; // inside <v> or an inline string's <t>
  let value = '';
  return {
    onopentag(name, attributes) {
      const local = localName(name);
      if (local === 'c') {
        inCell = true;
        cellType = attributes.t;
        value = '';
      } else if (inCell && (local === 'v' || local === 't')) collecting += 1;
    },
    ontext(text) {
      if (collecting > 0) value += text;
    },
    onclosetag(name) {
      const local = localName(name);
      if (local === 'row') sink.newline();
      else if (inCell && (local === 'v' || local === 't')) collecting = Math.max(0, collecting - 1);
      else if (local === 'c') {
        inCell = false;
        const shown = cellType === 's' ? sharedStrings[Number.parseInt(value, 10)] ?? ''
          : cellType === 'b' || cellType === 'e' ? ''
          : value;
        if (shown) {
          sink.write(shown);
          sink.space();
        }
      }
    },
  };
}

async function readSharedStrings(part: PartReader, name: string): Promise<string[]> {
  const strings: string[] = [];
  let current = '';
  let inText = 0;
  let inPhonetic = 0; // <rPh> holds reading aids (furigana), not the cell's text
  // The output is capped anyway; strings past the cap would only cost memory.
  let budgetChars = part.sink.maxChars;
  await parsePart(part, name, {
    onopentag(tag) {
      const local = localName(tag);
      if (local === 'si') current = '';
      else if (local === 't') inText += 1;
      else if (local === 'rPh') inPhonetic += 1;
    },
    ontext(text) {
      if (inText > 0 && inPhonetic === 0 && budgetChars > 0) {
        current += text;
        budgetChars -= text.length;
      }
    },
    onclosetag(tag) {
      const local = localName(tag);
      if (local === 'si') strings.push(current);
      else if (local === 't') inText = Math.max(0, inText - 1);
      else if (local === 'rPh') inPhonetic = Math.max(0, inPhonetic - 1);
    },
  }, false);
  return strings;
}

interface ParagraphMarkup {
  paragraph: string;
  breaks: string[];
  cells: string[];
  rows: string[];
}

/** WordprocessingML and DrawingML text: runs' <t> text; paragraphs end lines, except inside a table cell, whose row ends the line. */
function paragraphTextHandler(sink: TextSink, markup: ParagraphMarkup): Partial<Handler> {
  let inText = 0;
  let cellDepth = 0;
  return {
    onopentag(name) {
      const local = localName(name);
      if (local === 't') inText += 1;
      else if (local === 'tab') sink.space();
      else if (markup.breaks.includes(local)) sink.newline();
      else if (markup.cells.includes(local)) {
        cellDepth += 1;
        sink.space();
      }
    },
    ontext(text) {
      if (inText > 0) sink.write(text);
    },
    onclosetag(name) {
      const local = localName(name);
      if (local === 't') inText = Math.max(0, inText - 1);
      else if (markup.cells.includes(local)) cellDepth = Math.max(0, cellDepth - 1);
      else if (markup.rows.includes(local)) sink.newline();
      else if (local === markup.paragraph) {
        if (cellDepth > 0) sink.space();
        else sink.newline();
      }
    },
  };
}

/** A part's relationships (Id → part name inside the archive). */
async function readRelationships(part: PartReader, source: string): Promise<Map<string, string>> {
  const slash = source.lastIndexOf('/');
  const directory = source.slice(0, slash + 1);
  const relationships = new Map<string, string>();
  await parsePart(part, `${directory}_rels/${source.slice(slash + 1)}.rels`, {
    onopentag(name, attributes) {
      if (localName(name) !== 'Relationship' || !attributes.Id || !attributes.Target || attributes.TargetMode === 'External') return;
      relationships.set(attributes.Id, resolvePartName(directory, attributes.Target));
    },
  }, false);
  return relationships;
}

function resolvePartName(directory: string, target: string): string {
  const segments = target.startsWith('/') ? [] : directory.split('/').filter(Boolean);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment && segment !== '.') segments.push(segment);
  }
  return segments.join('/');
}

/** Streams one XML part through the parser; stops when the text cap is reached (if `stopWhenFull`). */
async function parsePart(part: PartReader, name: string, handler: Partial<Handler>, stopWhenFull = true): Promise<void> {
  const parser = new Parser(handler, { xmlMode: true, decodeEntities: true });
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of part.zip.read(name, part.budget)) {
    parser.write(decoder.decode(chunk, { stream: true }));
    if (stopWhenFull && part.sink.full) return;
  }
  parser.write(decoder.decode());
  parser.end();
}

function relationshipId(attributes: Record<string, string>): string | undefined {
  for (const [key, value] of Object.entries(attributes)) if (localName(key) === 'id' && key.includes(':')) return value;
  return undefined;
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

function byNaturalOrder(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
