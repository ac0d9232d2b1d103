import { describe, expect, it } from '@jest/globals';
import { concurrencyLimit } from '../src/async/concurrency-limit.ts';
import { parseRange } from '../src/http/byte-range.ts';
import { contentDisposition } from '../src/http/content-disposition.ts';

describe('parseRange (single byte ranges of a 100-byte body)', () => {
  it.each([
    ['bytes=0-9', { kind: 'range', start: 0, end: 9 }],
    ['bytes=90-', { kind: 'range', start: 90, end: 99 }],
    ['bytes=95-200', { kind: 'range', start: 95, end: 99 }],
    ['bytes=-10', { kind: 'range', start: 90, end: 99 }],
    ['bytes=-500', { kind: 'range', start: 0, end: 99 }],
    [' bytes=5-5 ', { kind: 'range', start: 5, end: 5 }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', { kind: 'none' }],
    ['bytes=9-3', { kind: 'none' }],
    ['bytes=-', { kind: 'none' }],
    ['items=0-1', { kind: 'none' }],
    ['bytes=99999999999999999999-', { kind: 'none' }],
    [undefined, { kind: 'none' }],
  ])('%s', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  it('cannot serve a range of an empty body', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266 / 8187)', () => {
    expect(contentDisposition('inline', 'report.pdf')).toBe(`inline; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(contentDisposition('attachment', 'Bericht über "Q3" (final)%.pdf'))
      .toBe(`attachment; filename="Bericht uber _Q3_ (final)_.pdf"; filename*=UTF-8''Bericht%20%C3%BCber%20%22Q3%22%20%28final%29%25.pdf`);
    expect(contentDisposition('inline', '請求書.pdf')).toBe(`inline; filename="___.pdf"; filename*=UTF-8''%E8%AB%8B%E6%B1%82%E6%9B%B8.pdf`);
  });

  it('never lets a control character or line break into the header', () => {
    const header = contentDisposition('attachment', 'a\r\nSet-Cookie: x=1\u0000.txt');
    expect(header).not.toMatch(/[\r\n\u0000]/);
    expect(contentDisposition('inline', '\r\n')).toBe(`inline; filename="download"; filename*=UTF-8''download`);
  });
});

describe('concurrencyLimit', () => {
  it('runs at most the limit at once, in call order, and survives failures', async () => {
    const limit = concurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) => limit.run(async () => {
      started.push(i);
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 3) throw new Error('task 3 fails');
      return i;
    });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(task));
    expect(peak).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect([limit.active, limit.waiting]).toEqual([0, 0]);
  });

  it('refuses a limit below one', () => {
    expect(() => concurrencyLimit(0)).toThrow('Concurrency limit must be a positive integer, got 0');
  });
});
