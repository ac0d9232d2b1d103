import type { ExtractionContext } from './extraction-context.ts';
import type { TextSink } from './text-sink.ts';

/**
 * RTF, streamed byte by byte: the document's text with control words stripped. Paragraph
 * and line marks become line breaks, table cells spaces; \uN escapes (with their \ucN
 * fallback characters skipped) and \'hh bytes in the document's code page (\ansicpgN,
 * including multi-byte ones such as Shift-JIS) are decoded; font and colour tables,
 * pictures, embedded objects, metadata, field instructions and every \* destination are
 * dropped, \binN data is skipped unread.
 */
export async function extractRtf(context: ExtractionContext): Promise<void> {
  const reader = new RtfReader(context.sink);
  for await (const chunk of context.source.chunks(context.maxStreamBytes)) {
    reader.write(chunk);
    if (context.sink.full) return;
  }
  reader.end();
}

/** Destinations whose content is not document text. */
const SKIPPED_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'info', 'pict', 'object', 'objdata', 'themedata', 'colorschememapping',
  'datastore', 'latentstyles', 'listtable', 'listoverridetable', 'rsidtbl', 'generator', 'xmlnstbl', 'filetbl',
  'revtbl', 'pgdsctbl', 'fldinst', 'nonshppict', 'shpinst', 'listtext', 'pntext', 'pntxta', 'pntxtb', 'template',
  'userprops', 'docvar', 'ftnsep', 'ftnsepc', 'aftnsep', 'aftnsepc', 'bkmkstart', 'bkmkend', 'atnid', 'atnauthor',
  'mmathPr', 'wgrffmtfilter', 'passwordhash', 'fchars', 'lchars',
]);

const CONTROL_WORD_TEXT: Record<string, string> = {
  par: '\n', line: '\n', sect: '\n\n', page: '\n\n', row: '\n', nestrow: '\n',
  tab: '\t', cell: ' ', nestcell: ' ', emspace: ' ', enspace: ' ', qmspace: ' ',
  emdash: '\u2014', endash: '\u2013', bullet: '\u2022',
  lquote: '\u2018', rquote: '\u2019', ldblquote: '\u201c', rdblquote: '\u201d',
};

interface GroupState {
  skip: boolean;
  /** How many fallback characters follow each \uN (\ucN). */
  fallbackChars: number;
}

type ReaderState = 'text' | 'escape' | 'word' | 'param' | 'hex' | 'binary';

const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MAX_CONTROL_WORD = 32;
const MAX_PARAM_DIGITS = 10;

class RtfReader {
  private readonly sink: TextSink;
  private state: ReaderState = 'text';
  private group: GroupState = { skip: false, fallbackChars: 1 };
  private readonly outerGroups: GroupState[] = [];
  private word = '';
  private param = '';
  private hex = '';
  private binaryRemaining = 0;
  /** Fallback characters of the last \uN still to drop. */
  private pendingSkips = 0;
  /** Code-page bytes (\'hh or raw 8-bit) waiting to be decoded together. */
  private pendingBytes: number[] = [];
  private decoder = new TextDecoder('windows-1252');

  constructor(sink: TextSink) {
    this.sink = sink;
  }

  write(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'binary') {
        const skipped = Math.min(this.binaryRemaining, chunk.length - i);
        this.binaryRemaining -= skipped;
        i += skipped;
        if (this.binaryRemaining === 0) this.state = 'text';
        continue;
      }
      if (this.state === 'text') {
        // Plain runs are the bulk of a document: take them in one slice.
        let end = i;
        while (end < chunk.length && isPlain(chunk[end]!)) end += 1;
        if (end > i) {
          this.plainText(chunk.toString('latin1', i, end));
          i = end;
          continue;
        }
      }
      i += this.step(chunk[i]!) ? 1 : 0;
    }
  }

  end(): void {
    if (this.state === 'word' || this.state === 'param') this.finishControlWord();
    this.flushBytes();
  }

  /** Handles one byte; returns false when the byte must be handled again in the new state. */
  private step(byte: number): boolean {
    switch (this.state) {
      case 'text':
        if (byte === BACKSLASH) this.state = 'escape';
        else if (byte === OPEN_BRACE) this.openGroup();
        else if (byte === CLOSE_BRACE) this.closeGroup();
        else if (byte >= 0x80) this.codePageByte(byte);
        // CR and LF are layout of the RTF source, not of the document.
        return true;
      case 'escape':
        return this.controlSymbol(byte);
      case 'word':
        if (isLetter(byte)) {
          if (this.word.length < MAX_CONTROL_WORD) this.word += String.fromCharCode(byte);
          return true;
        }
        if (byte === 0x2d || isDigit(byte)) {
          this.state = 'param';
          this.param = String.fromCharCode(byte);
          return true;
        }
        this.finishControlWord();
        return byte === 0x20; // a space only delimits the control word
      case 'param':
        if (isDigit(byte)) {
          if (this.param.length < MAX_PARAM_DIGITS) this.param += String.fromCharCode(byte);
          return true;
        }
        this.finishControlWord();
        // A space only delimits; any other byte is content (of the text, or of \binN data).
        return byte === 0x20;
      case 'hex':
        if (!isHexDigit(byte)) {
          this.state = 'text';
          return false;
        }
        this.hex += String.fromCharCode(byte);
        if (this.hex.length === 2) {
          this.state = 'text';
          this.codePageByte(Number.parseInt(this.hex, 16));
        }
        return true;
      case 'binary':
        return true;
    }
  }

  private controlSymbol(byte: number): boolean {
    this.state = 'text';
    if (isLetter(byte)) {
      this.state = 'word';
      this.word = String.fromCharCode(byte);
      this.param = '';
      return true;
    }
    switch (byte) {
      case 0x27: // \'hh
        this.state = 'hex';
        this.hex = '';
        break;
      case BACKSLASH: case OPEN_BRACE: case CLOSE_BRACE:
        this.plainText(String.fromCharCode(byte));
        break;
      case 0x2a: // \* : an optional destination this reader does not know
        this.group.skip = true;
        break;
      case 0x7e: // \~ non-breaking space
        this.plainText(' ');
        break;
      case 0x5f: // \_ non-breaking hyphen
        this.plainText('-');
        break;
      case 0x0a: case 0x0d: // a backslash before a line end is a paragraph mark
        this.structure('\n');
        break;
      default: // \- optional hyphen, \: index subentry, \| formula: no text
        break;
    }
    return true;
  }

  private finishControlWord(): void {
    const word = this.word;
    const param = this.param === '' || this.param === '-' ? undefined : Number.parseInt(this.param, 10);
    this.state = 'text';
    if (word === 'bin') {
      if (param !== undefined && param > 0) {
        this.state = 'binary';
        this.binaryRemaining = param;
      }
      return;
    }
    if (word === 'u' && param !== undefined) {
      this.flushBytes();
      if (!this.group.skip) this.sink.write(String.fromCharCode(param < 0 ? param + 0x10000 : param & 0xffff));
      this.pendingSkips = this.group.fallbackChars;
      return;
    }
    if (word === 'uc') {
      this.group.fallbackChars = Math.max(0, param ?? 1);
      return;
    }
    if (word === 'ansicpg' && param !== undefined) {
      this.flushBytes();
      this.decoder = decoderForCodePage(param);
      return;
    }
    if (word === 'mac') {
      this.decoder = decoderForCodePage(10000);
      return;
    }
    if (SKIPPED_DESTINATIONS.has(word)) {
      this.group.skip = true;
      return;
    }
    const text = CONTROL_WORD_TEXT[word];
    if (text !== undefined) this.structure(text);
  }

  private openGroup(): void {
    this.flushBytes();
    this.pendingSkips = 0;
    this.outerGroups.push(this.group);
    this.group = { ...this.group };
  }

  private closeGroup(): void {
    this.flushBytes();
    this.pendingSkips = 0;
    this.group = this.outerGroups.pop() ?? { skip: false, fallbackChars: 1 };
  }

  private plainText(text: string): void {
    let visible = text;
    if (this.pendingSkips > 0) {
      const dropped = Math.min(this.pendingSkips, visible.length);
      this.pendingSkips -= dropped;
      visible = visible.slice(dropped);
    }
    if (visible.length === 0) return;
    this.flushBytes();
    if (!this.group.skip) this.sink.write(visible);
  }

  private codePageByte(byte: number): void {
    if (this.pendingSkips > 0) {
      this.pendingSkips -= 1;
      return;
    }
    if (!this.group.skip) this.pendingBytes.push(byte);
  }

  private structure(text: string): void {
    this.flushBytes();
    if (this.group.skip) return;
    if (text.includes('\n')) {
      for (let i = 0; i < text.length; i += 1) this.sink.newline();
    } else {
      this.sink.write(text);
    }
  }

  private flushBytes(): void {
    if (this.pendingBytes.length === 0) return;
    const text = this.decoder.decode(Uint8Array.from(this.pendingBytes));
    this.pendingBytes = [];
    this.sink.write(text);
  }
}

function decoderForCodePage(codePage: number): TextDecoder {
  const labels: Record<number, string> = {
    65001: 'utf-8', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 10000: 'macintosh', 20866: 'koi8-r',
  };
  let label = labels[codePage];
  if (!label && (codePage === 874 || (codePage >= 1250 && codePage <= 1258))) label = `windows-${codePage}`;
  if (!label && codePage >= 28591 && codePage <= 28605) label = `iso-8859-${codePage - 28590}`;
  try {
    return new TextDecoder(label ?? 'windows-1252');
  } catch {
    return new TextDecoder('windows-1252');
  }
}

function isPlain(byte: number): boolean {
  return byte >= 0x20 && byte < 0x80 && byte !== BACKSLASH && byte !== OPEN_BRACE && byte !== CLOSE_BRACE;
}
function isLetter(byte: number): boolean {
  return (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a);
}
function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}
function isHexDigit(byte: number): boolean {
  return isDigit(byte) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46);
}
