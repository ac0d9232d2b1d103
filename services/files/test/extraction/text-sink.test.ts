import { describe, expect, it } from '@jest/globals';
import { readImageSize } from '../../src/extraction/image-header.ts';
import { encodeGrayscalePng } from '../../src/extraction/grayscale-png.ts';
import { TextSink } from '../../src/extraction/text-sink.ts';
import { readFixture } from './extraction-fixtures.ts';

const sinkOf = (pieces: string[], maxChars = 1000): string => {
  const sink = new TextSink(maxChars);
  for (const piece of pieces) sink.write(piece);
  return sink.toString();
};

describe('TextSink', () => {
  it('normalises whitespace however the text is split, "\\r\\n" across pieces included', () => {
    expect(sinkOf(['  a', '\r', '\nb \t', ' c\r\r\n\n', '\n d  '])).toBe('a\nb c\n\nd');
    expect(sinkOf(['one\u0000two\u0007three\u2028four'])).toBe('one two three\nfour');
    expect(sinkOf([' \n\n ', '   '])).toBe('');
  });

  it('marks structure with newline() and space(), collapsing with real whitespace', () => {
    const sink = new TextSink(100);
    sink.newline();
    sink.write('cell');
    sink.space();
    sink.space();
    sink.write('next');
    sink.newline();
    sink.write(' \n');
    sink.newline();
    sink.write('para');
    expect(sink.toString()).toBe('cell next\n\npara');
  });

  it('keeps no memory for long whitespace runs and stops at the cap', () => {
    const sink = new TextSink(10);
    sink.write('a');
    for (let i = 0; i < 1000; i += 1) sink.write(' \n'.repeat(1000));
    sink.write('bcdefghijklmnop');
    expect(sink.toString()).toBe('a\n\nbcdefgh');
    expect(sink.full).toBe(true);
    sink.write('more');
    expect(sink.toString()).toHaveLength(10);
  });

  it('turns lone surrogates into U+FFFD and keeps pairs split over writes', () => {
    expect(sinkOf(['x\ud800y', '\udc00z'])).toBe('x\ufffdy\ufffdz');
    expect(sinkOf(['\ud83d', '\ude00'])).toBe('😀');
  });
});

describe('image headers and the page encoder', () => {
  it('reads the pixel size of the scanned fixture and of the grayscale PNG of a rendered page', async () => {
    expect(readImageSize(await readFixture('scanned-invoice.png'))).toEqual({ width: expect.any(Number), height: expect.any(Number) });
    const rgba = new Uint8ClampedArray(3 * 2 * 4).fill(255);
    const png = encodeGrayscalePng(rgba, 3, 2);
    expect(readImageSize(png)).toEqual({ width: 3, height: 2 });
    expect(readImageSize(Buffer.from('not an image at all, just text'))).toBeUndefined();
  });
});
