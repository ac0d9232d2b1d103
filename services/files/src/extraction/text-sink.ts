/**
 * Where every format's extractor writes its text. It normalises whitespace as the text
 * arrives (so pieces may split anywhere, even inside "\r\n") and stops accepting text at
 * the output cap, which extractors read through `full` to stop parsing early: a 5 GB log
 * costs only as much reading as the first `maxChars` characters need.
 *
 * Normal form: no leading/trailing whitespace; a run of whitespace with no line break
 * becomes one space, with one line break a "\n", with more a blank line ("\n\n");
 * control characters count as spaces. Extractors mark structure by writing "\n"
 * (a line or paragraph end) or " " (a cell or element boundary).
 */
/** Half a surrogate pair (from a JSON "\ud800" escape, an RTF \u55296…) cannot be stored as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f\u200b\u2028\u2029\ufeff]+/gu;

export class TextSink {
  readonly maxChars: number;
  private readonly parts: string[] = [];
  private length = 0;
  /**
   * Whitespace seen since the last visible character, decided when the next one comes. Kept
   * as counts, not text: a file of a gigabyte of blank lines costs no memory.
   */
  private pendingSpace = false;
  private pendingBreaks = 0;
  /** The last whitespace character was a CR, so a LF right after it (maybe in the next piece) is the same line break. */
  private afterCarriageReturn = false;
  private isFull = false;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
    if (maxChars <= 0) this.isFull = true;
  }

  /** True once the cap is reached: anything written after that is dropped. */
  get full(): boolean {
    return this.isFull;
  }

  write(text: string): void {
    if (this.isFull || text.length === 0) return;
    let last = 0;
    for (const match of text.matchAll(WHITESPACE_OR_CONTROL)) {
      if (match.index > last) this.emit(text.slice(last, match.index));
      if (this.isFull) return;
      this.absorbWhitespace(match[0]);
      last = match.index + match[0].length;
    }
    if (last < text.length) this.emit(text.slice(last));
  }

  /** A line or paragraph end (collapses with neighbouring whitespace). */
  newline(): void {
    this.pendingSpace = true;
    this.pendingBreaks = Math.min(2, this.pendingBreaks + 1);
    this.afterCarriageReturn = false;
  }

  /** A word boundary between two pieces of text (cells, elements). */
  space(): void {
    this.pendingSpace = true;
  }

  /** The text so far: normalised, capped, and well-formed (lone surrogates become U+FFFD). */
  toString(): string {
    return this.parts.join('').replace(LONE_SURROGATE, '\ufffd');
  }

  private absorbWhitespace(whitespace: string): void {
    this.pendingSpace = true;
    // Two breaks already make a blank line, the most there can be: no need to look further.
    for (let i = 0; i < whitespace.length && this.pendingBreaks < 2; i += 1) {
      const code = whitespace.charCodeAt(i);
      if (code === 0x0a && this.afterCarriageReturn) {
        this.afterCarriageReturn = false;
        continue;
      }
      this.afterCarriageReturn = code === 0x0d;
      if (code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c || code === 0x85 || code === 0x2028 || code === 0x2029) {
        this.pendingBreaks += 1;
      }
    }
    this.afterCarriageReturn = whitespace.charCodeAt(whitespace.length - 1) === 0x0d;
  }

  private emit(visible: string): void {
    if (this.length > 0 && this.pendingSpace) {
      this.append(this.pendingBreaks === 0 ? ' ' : this.pendingBreaks === 1 ? '\n' : '\n\n');
    }
    this.pendingSpace = false;
    this.pendingBreaks = 0;
    this.afterCarriageReturn = false;
    this.append(visible);
  }

  private append(piece: string): void {
    if (this.isFull) return;
    const room = this.maxChars - this.length;
    if (piece.length < room) {
      this.parts.push(piece);
      this.length += piece.length;
      return;
    }
    let cut = piece.slice(0, room);
    // Never end on half of a surrogate pair: that would be an invalid string for the database.
    if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
    // A separator at the very end of capped text would break the "trimmed" normal form.
    cut = cut.trimEnd();
    this.parts.push(cut);
    this.length += cut.length;
    this.isFull = true;
  }
}
