import { describe, expect, it } from '@jest/globals';
import { fitsPage } from '@ledgerline/kit/pdf/fields.ts';
import {
  clampToPage, fieldInputs, nudge, pointsToScreen, scaleToWidth, screenToPoints, shownSize, signersWithoutSignature, type PageGeometry, type PlacedField,
} from '../src/placement-geometry.ts';

const LETTER: PageGeometry = { view: [0, 0, 612, 792], rotation: 0 };
const A4: PageGeometry = { view: [0, 0, 595.28, 841.89], rotation: 0 };
const box = { x: 50, y: 500, width: 220, height: 40 };

describe('placement editor: points and screen pixels', () => {
  it('a Letter page fitted to 1224 px is drawn at twice its points, from the top-left corner as the server counts', () => {
    const scale = scaleToWidth(LETTER, 1224);
    expect(scale).toBe(2);
    expect(pointsToScreen(box, LETTER, scale)).toEqual({ left: 100, top: 1000, width: 440, height: 80 });
    expect(screenToPoints({ left: 100, top: 1000, width: 440, height: 80 }, LETTER, scale)).toEqual(box);
  });

  it('an A4 page on a 390 px phone (358 px column): a box dragged there is saved in the A4 page\'s points', () => {
    const scale = scaleToWidth(A4, 358);
    expect(scale).toBeCloseTo(358 / 595.28, 10);
    // The box dragged to 100 px from the left and 400 px from the top, 120 × 22 px.
    const saved = screenToPoints({ left: 100, top: 400, width: 120, height: 22 }, A4, scale);
    expect(saved).toEqual({ x: 166.28, y: 665.12, width: 199.54, height: 36.58 });
    expect(fitsPage(saved, { width: 595.28, height: 841.89 })).toBe(true);
    // And back: within a hundredth of a pixel.
    const shown = pointsToScreen(saved, A4, scale);
    for (const [got, want] of [[shown.left, 100], [shown.top, 400], [shown.width, 120], [shown.height, 22]] as const) expect(Math.abs(got - want)).toBeLessThan(0.01);
  });

  it('the same field is the same points at every scale (the dialog resized, a phone turned)', () => {
    for (const page of [LETTER, A4]) {
      for (const scale of [0.5, 0.6015, 1, 1.5, 2.25]) {
        expect(screenToPoints(pointsToScreen(box, page, scale), page, scale)).toEqual(box);
        expect(pointsToScreen(box, page, scale).width).toBeCloseTo(220 * scale, 10);
      }
    }
    // Shown twice as large, the box is twice as far from the corner: the points do not change.
    expect(pointsToScreen(box, LETTER, 1).left * 2).toBe(pointsToScreen(box, LETTER, 2).left);
  });

  it('a page turned a quarter shows landscape; the box keeps its place on the page the server draws on', () => {
    const turned: PageGeometry = { view: [0, 0, 612, 792], rotation: 90 };
    expect(shownSize(turned)).toEqual({ width: 792, height: 612 });
    // Turned clockwise: the page's bottom-left corner shows at the top-left.
    expect(pointsToScreen({ x: 0, y: 752, width: 100, height: 40 }, turned, 1)).toEqual({ left: 0, top: 0, width: 40, height: 100 });
    for (const rotation of [90, 180, 270, -90]) {
      const page = { ...LETTER, rotation };
      expect(screenToPoints(pointsToScreen(box, page, 1.3), page, 1.3)).toEqual(box);
    }
    expect(pointsToScreen(box, { ...LETTER, rotation: 180 }, 1)).toEqual({ left: 612 - 270, top: 792 - 540, width: 220, height: 40 });
  });

  it('a page whose box does not start at 0: as the server draws it (x absolute, y down from the page\'s height)', () => {
    const offset: PageGeometry = { view: [20, 10, 632, 802], rotation: 0 };
    // Drawn at user x 70 and top 792 - 100 = 692, which shows 50 from the left and 802 - 692 = 110 from the top.
    expect(pointsToScreen({ x: 70, y: 100, width: 10, height: 10 }, offset, 1)).toMatchObject({ left: 50, top: 110 });
    expect(screenToPoints({ left: 50, top: 110, width: 10, height: 10 }, offset, 1)).toMatchObject({ x: 70, y: 100 });
  });

  it('a box stays on its page, at least 8 pt each way, however it is dragged or resized', () => {
    expect(clampToPage({ left: -30, top: 1700, width: 440, height: 80 }, LETTER, 2)).toEqual({ left: 0, top: 1584 - 80, width: 440, height: 80 });
    expect(clampToPage({ left: 10, top: 10, width: 2, height: 5000 }, LETTER, 2)).toEqual({ left: 10, top: 0, width: 16, height: 1584 });
  });
});

describe('placement editor: keyboard and the fields it emits', () => {
  const field = (id: number, signerKey: number, page: number, x: number, y: number, type: PlacedField['type'] = 'signature'): PlacedField =>
    ({ id, signerKey, type, page, x, y, width: 100, height: 20, required: true });

  it('the arrow keys move the box 1 pt (Shift 10 pt) as the page is shown, and not off it', () => {
    const f = field(1, 7, 1, 50, 500);
    expect(nudge(f, LETTER, 1, 0)).toMatchObject({ x: 51, y: 500 });
    expect(nudge(f, LETTER, 0, -10)).toMatchObject({ x: 50, y: 490 });
    expect(nudge({ ...f, x: 0 }, LETTER, -10, 0)).toMatchObject({ x: 0 });
    expect(nudge({ ...f, y: 770 }, LETTER, 0, 10)).toMatchObject({ y: 772 });
    // On a page turned a quarter clockwise, "right" on the screen is "up" on the page the server draws on.
    expect(nudge(f, { ...LETTER, rotation: 90 }, 1, 0)).toMatchObject({ x: 50, y: 499 });
  });

  it('emits the dialog\'s fields: signers by their position now, removed signers\' boxes dropped, in reading order', () => {
    const placed = [field(1, 20, 2, 300, 100, 'date'), field(2, 10, 2, 50, 600), field(3, 30, 1, 50, 600), field(4, 20, 2, 50, 100), field(5, 10, 1, 400, 50, 'checkbox')];
    // Signer key 30 was removed; 20 is now the second signer.
    expect(fieldInputs(placed, [10, 20])).toEqual([
      { documentIndex: 0, page: 1, x: 400, y: 50, width: 100, height: 20, type: 'checkbox', signerIndex: 0, required: true, label: null },
      { documentIndex: 0, page: 2, x: 50, y: 100, width: 100, height: 20, type: 'signature', signerIndex: 1, required: true, label: null },
      { documentIndex: 0, page: 2, x: 300, y: 100, width: 100, height: 20, type: 'date', signerIndex: 1, required: true, label: null },
      { documentIndex: 0, page: 2, x: 50, y: 600, width: 100, height: 20, type: 'signature', signerIndex: 0, required: true, label: null },
    ]);
    expect(placed.map((f) => f.id)).toEqual([1, 2, 3, 4, 5]);
  });

  it('names the signers still without a signature box (the server refuses to send such a request)', () => {
    expect(signersWithoutSignature([field(1, 10, 1, 0, 0), field(2, 20, 1, 0, 0, 'date')], [10, 20, 30])).toEqual([2, 3]);
    expect(signersWithoutSignature([field(1, 10, 1, 0, 0)], [10])).toEqual([]);
  });
});
