import type { FieldInput, SignatureFieldType } from '@ledgerline/contracts/signatures.contracts.ts';

/*
 * The field placement editor's arithmetic (issue 41): between boxes on a rendered page (CSS
 * pixels from the shown page's top-left corner) and fields as the server stores and draws them
 * (kit/pdf/fields.ts: PDF points in the page's own, unrotated space, measured from its top-left
 * corner, y growing downwards). Pure, so it is tested without a browser.
 */

/** A page as pdfjs reports it: `view` is [x0, y0, x1, y1] in points, `rotation` what the page shows turned clockwise. */
export interface PageGeometry {
  view: readonly [number, number, number, number];
  rotation: number;
}

/** A rectangle on the screen, in CSS pixels from the shown page's top-left corner. */
export interface ScreenRect { left: number; top: number; width: number; height: number }

/** A field's box in points, as the server reads it. */
export interface PointBox { x: number; y: number; width: number; height: number }

/** A field while it is being placed: its signer by the dialog's stable key, not by index, so removing a signer cannot re-assign boxes. */
export interface PlacedField extends PointBox {
  id: number;
  signerKey: number;
  type: SignatureFieldType;
  /** 1-based. */
  page: number;
  required: boolean;
}

/** Boxes stay at least this large (points): a handle smaller than this cannot be caught on a phone anyway. */
export const MIN_FIELD_POINTS = 8;

/** The size a new box of each type starts with (points): a signature as the end-of-page blocks, a date or text for one line. */
export const DEFAULT_FIELD_SIZE: Record<SignatureFieldType, { width: number; height: number }> = {
  signature: { width: 220, height: 40 },
  initials: { width: 60, height: 30 },
  date: { width: 100, height: 20 },
  text: { width: 160, height: 20 },
  checkbox: { width: 16, height: 16 },
};

const quarterTurns = (rotation: number) => ((Math.round(rotation / 90) % 4) + 4) % 4;
/** Points with two decimals: enough for a drawn box, and free of float noise such as 49.99999. */
const round = (n: number) => Math.round(n * 100) / 100;

/** The page's size in points before rotation. */
export function unrotatedSize(page: PageGeometry): { width: number; height: number } {
  return { width: page.view[2] - page.view[0], height: page.view[3] - page.view[1] };
}

/** The page's size in points as it is shown (width and height swap on a page turned a quarter). */
export function shownSize(page: PageGeometry): { width: number; height: number } {
  const { width, height } = unrotatedSize(page);
  return quarterTurns(page.rotation) % 2 === 1 ? { width: height, height: width } : { width, height };
}

/** The scale that shows the page `pixels` wide (the editor fits each page to its column). */
export function scaleToWidth(page: PageGeometry, pixels: number): number {
  return pixels / shownSize(page).width;
}

/**
 * Where a field shows on the rendered page. The server (kit/pdf/fields.ts, with pdf-lib) draws
 * at user-space x = field.x and y = pageHeight - field.y - field.height: x is absolute, y counts
 * down from the page's height, so on a page whose box starts at (x0, y0) the shown box is x - x0
 * from its left edge and y + y0 from its top. Nearly every PDF's box starts at (0, 0), and its
 * crop box is its media box (pdfjs shows the crop box; the server measures the media box).
 */
export function pointsToScreen(box: PointBox, page: PageGeometry, scale: number): ScreenRect {
  const { width: W, height: H } = unrotatedSize(page);
  const u = box.x - page.view[0];
  const v = box.y + page.view[1];
  const { width: w, height: h } = box;
  let shown: ScreenRect;
  switch (quarterTurns(page.rotation)) {
    case 1: shown = { left: H - v - h, top: u, width: h, height: w }; break;
    case 2: shown = { left: W - u - w, top: H - v - h, width: w, height: h }; break;
    case 3: shown = { left: v, top: W - u - w, width: h, height: w }; break;
    default: shown = { left: u, top: v, width: w, height: h };
  }
  return { left: shown.left * scale, top: shown.top * scale, width: shown.width * scale, height: shown.height * scale };
}

/** The field a box on the rendered page stands for (the inverse of pointsToScreen), in points with two decimals. */
export function screenToPoints(rect: ScreenRect, page: PageGeometry, scale: number): PointBox {
  const { width: W, height: H } = unrotatedSize(page);
  const L = rect.left / scale;
  const T = rect.top / scale;
  const sw = rect.width / scale;
  const sh = rect.height / scale;
  let box: { u: number; v: number; w: number; h: number };
  switch (quarterTurns(page.rotation)) {
    case 1: box = { u: T, v: H - L - sw, w: sh, h: sw }; break;
    case 2: box = { u: W - L - sw, v: H - T - sh, w: sw, h: sh }; break;
    case 3: box = { u: W - T - sh, v: L, w: sh, h: sw }; break;
    default: box = { u: L, v: T, w: sw, h: sh };
  }
  return { x: round(box.u + page.view[0]), y: round(box.v - page.view[1]), width: round(box.w), height: round(box.h) };
}

/**
 * A box moved or resized on the shown page, kept on it: at least MIN_FIELD_POINTS each way,
 * no larger than the page, and inside its edges (the server refuses a field off its page).
 */
export function clampToPage(rect: ScreenRect, page: PageGeometry, scale: number): ScreenRect {
  const size = shownSize(page);
  const maxW = size.width * scale;
  const maxH = size.height * scale;
  const min = MIN_FIELD_POINTS * scale;
  const width = Math.min(Math.max(rect.width, min), maxW);
  const height = Math.min(Math.max(rect.height, min), maxH);
  return { width, height, left: Math.min(Math.max(rect.left, 0), maxW - width), top: Math.min(Math.max(rect.top, 0), maxH - height) };
}

/** A box moved by (dx, dy) points as the page is shown (the keyboard's nudge), kept on the page. */
export function nudge(field: PlacedField, page: PageGeometry, dx: number, dy: number): PlacedField {
  const rect = pointsToScreen(field, page, 1);
  const moved = clampToPage({ ...rect, left: rect.left + dx, top: rect.top + dy }, page, 1);
  return { ...field, ...screenToPoints(moved, page, 1) };
}

/**
 * The dialog's `fields`: every placed box of a signer still in the request, with the signer's
 * index in the dialog's order, in reading order (page, then top to bottom, then left to right),
 * which is the order the signer is led through them.
 */
export function fieldInputs(placed: readonly PlacedField[], signerKeys: readonly number[]): FieldInput[] {
  return placed
    .filter((f) => signerKeys.includes(f.signerKey))
    .sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x)
    .map((f) => ({
      documentIndex: 0, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height,
      type: f.type, signerIndex: signerKeys.indexOf(f.signerKey), required: f.required, label: null,
    }));
}

/** The signers (by position, 1-based) without a signature field among the placed boxes: the server refuses to send then. */
export function signersWithoutSignature(placed: readonly PlacedField[], signerKeys: readonly number[]): number[] {
  return signerKeys.flatMap((key, i) => (placed.some((f) => f.signerKey === key && f.type === 'signature') ? [] : [i + 1]));
}
