import { describe, expect, it } from '@jest/globals';
import { degrees, PDFDocument } from 'pdf-lib';
import { pointsToScreen, type PageGeometry } from '../src/placement-geometry.ts';

/*
 * The editor's arithmetic against the two libraries it stands between: where pdfjs shows the
 * rectangle the server draws a field into (pdf-lib user space: x, and pageHeight - y - height),
 * on pages of every rotation and on one whose box does not start at (0, 0).
 */
describe('placement editor: what the server draws is where pdfjs shows the box', () => {
  it('on Letter and A4 pages turned 0, 90, 180 and 270 degrees, and an offset media box, at two scales', async () => {
    const doc = await PDFDocument.create();
    const pages = [[612, 792], [595.28, 841.89]].flatMap((size) => [0, 90, 180, 270].map((r) => {
      const page = doc.addPage(size as [number, number]);
      page.setRotation(degrees(r));
      return page;
    }));
    const offset = doc.addPage([612, 792]);
    offset.setMediaBox(20, 10, 612, 792);
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const task = pdfjs.getDocument({ data: await doc.save() });
    const pdf = await task.promise;
    const box = { x: 50, y: 500, width: 220, height: 40 };
    try {
      expect(pdf.numPages).toBe(pages.length + 1);
      let compared = 0;
      for (let n = 1; n <= pdf.numPages; n += 1) {
        const page = await pdf.getPage(n);
        const geometry: PageGeometry = { view: [page.view[0]!, page.view[1]!, page.view[2]!, page.view[3]!], rotation: page.rotate };
        // The server's page height: pdf-lib's getSize() of the media box.
        const height = (n <= pages.length ? pages[n - 1]! : offset).getSize().height;
        for (const scale of [1, 1.75]) {
          const viewport = page.getViewport({ scale });
          const corners = [[box.x, height - box.y - box.height], [box.x + box.width, height - box.y]].map(([x, y]) => viewport.convertToViewportPoint(x!, y!) as [number, number]);
          const [[ax, ay], [bx, by]] = corners as [[number, number], [number, number]];
          const shown = pointsToScreen(box, geometry, scale);
          expect(shown.left).toBeCloseTo(Math.min(ax, bx), 6);
          expect(shown.top).toBeCloseTo(Math.min(ay, by), 6);
          expect(shown.width).toBeCloseTo(Math.abs(bx - ax), 6);
          expect(shown.height).toBeCloseTo(Math.abs(by - ay), 6);
          compared += 1;
        }
      }
      expect(compared).toBe(18);
    } finally {
      await task.destroy();
    }
  });
});
