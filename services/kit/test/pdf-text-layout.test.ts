import { describe, expect, it } from '@jest/globals';
import { PDFDocument } from 'pdf-lib';
import { TextLayout, winAnsiSafe } from '@ledgerline/kit/pdf/text-layout.ts';

describe('pdf/text-layout', () => {
  it('spells out what the standard fonts cannot draw, keeps what Windows-1252 has', () => {
    expect(winAnsiSafe('₹1,180 — £90 € ≥ “x”\tend')).toBe('Rs.1,180 — £90 € >= “x” end');
    expect(winAnsiSafe('漢字 ok')).toBe('?? ok');
  });

  it('wraps long text and starts new pages, never drawing past the bottom margin', async () => {
    const layout = await TextLayout.create({ title: 'Wrap ₹' });
    for (let i = 0; i < 60; i += 1) layout.text(`Paragraph ${i} ${'word '.repeat(40)}`);
    layout.row([{ text: 'x'.repeat(300), width: 0.5 }, { text: '1', width: 0.5, align: 'right' }]);
    const doc = await PDFDocument.load(await layout.save());
    expect(doc.getPageCount()).toBeGreaterThan(2);
    expect(doc.getTitle()).toBe('Wrap Rs.');
  });

  it('keeps line breaks as new lines (not as unknown characters) and says where reserved space lands', async () => {
    const layout = await TextLayout.create({ margin: 50 });
    layout.text('First line\nSecond line', { size: 10 });
    const first = layout.reserve(40);
    expect(first).toEqual({ page: 1, top: 50 + 2 * 14 });
    for (let i = 0; i < 45; i += 1) layout.text(`Line ${i}`, { size: 10 });
    // Too little room left on the page: the space starts the next one.
    expect(layout.reserve(200)).toEqual({ page: 2, top: 50 });
    const doc = await PDFDocument.load(await layout.save());
    expect(doc.getPageCount()).toBe(2);
  });
});
