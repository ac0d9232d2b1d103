import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ExtractionContext } from './extraction-context.ts';
import { encodeGrayscalePng } from './grayscale-png.ts';
import { MAX_OCR_PIXELS } from './image.extractor.ts';

/**
 * PDF with pdf.js: each page's text layer, pages apart by a blank line. A page with (almost)
 * no text layer that paints images is a scan: it is rendered to a bitmap (with
 * @napi-rs/canvas, prebuilt Skia) and read by OCR. Scanned pages are capped per document,
 * as OCR costs about a second a page; the text cap ends the work sooner when it is reached.
 */
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** Fewer visible characters than this and a page with images counts as scanned (a stamp or page number is not a text layer). */
const MIN_TEXT_LAYER_CHARS = 32;
const MAX_OCR_PAGES = 100;
/** Rendering for OCR aims at 300 dpi, the resolution Tesseract is tuned for, within these bounds. */
const OCR_DPI = 300;
const MAX_RENDER_SIDE_PX = 5000;
const MAX_RENDER_PIXELS = 16_000_000;

let pdfjsLoading: Promise<PdfJs> | undefined;

/** pdf.js is several megabytes of JavaScript: load it with the first PDF, not at start. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsLoading;
}

/** pdf.js's data files (CMaps for CJK text, the 14 standard fonts, decoders' WASM, ICC profiles), read from disk. */
function pdfjsAssets(): { cMapUrl: string; standardFontDataUrl: string; wasmUrl: string; iccUrl: string } {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return {
    cMapUrl: `${join(root, 'cmaps')}/`,
    standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
    wasmUrl: `${join(root, 'wasm')}/`,
    iccUrl: `${join(root, 'iccs')}/`,
  };
}

export async function extractPdf(context: ExtractionContext): Promise<void> {
  const bytes = await context.source.readAll(context.maxInputBytes);
  if (!bytes) return;
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    // A private copy: pdf.js may take over (transfer) the buffer it is given.
    data: new Uint8Array(bytes),
    ...pdfjsAssets(),
    cMapPacked: true,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    useSystemFonts: false,
    disableFontFace: true,
    enableXfa: false,
    maxImageSize: MAX_OCR_PIXELS,
  });
  const { sink } = context;
  try {
    const document = await task.promise;
    let ocrPages = 0;
    for (let number = 1; number <= document.numPages && !sink.full; number += 1) {
      const page = await document.getPage(number);
      try {
        const text = await pageText(page);
        if (countVisible(text) < MIN_TEXT_LAYER_CHARS && ocrPages < MAX_OCR_PAGES && (await paintsImages(page, pdfjs))) {
          ocrPages += 1;
          const recognised = await context.ocr.recognize(await renderPage(page));
          sink.write(countVisible(recognised) > countVisible(text) ? recognised : text);
        } else {
          sink.write(text);
        }
      } finally {
        page.cleanup();
      }
      sink.newline();
      sink.newline();
    }
  } finally {
    await task.destroy();
  }
}

async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text;
}

async function paintsImages(page: PDFPageProxy, pdfjs: PdfJs): Promise<boolean> {
  const { OPS } = pdfjs;
  const imageOperators = new Set<number>([
    OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintInlineImageXObjectGroup, OPS.paintImageXObjectRepeat,
    // 1-bit scans (CCITT, JBIG2) are usually painted as image masks.
    OPS.paintImageMaskXObject, OPS.paintImageMaskXObjectGroup, OPS.paintImageMaskXObjectRepeat,
  ]);
  const operators = await page.getOperatorList();
  return operators.fnArray.some((operator) => imageOperators.has(operator));
}

/** The page as a grayscale PNG at about 300 dpi (less for very large pages), on white. */
async function renderPage(page: PDFPageProxy): Promise<Buffer> {
  const unscaled = page.getViewport({ scale: 1 });
  const scale = Math.min(
    OCR_DPI / 72,
    MAX_RENDER_SIDE_PX / Math.max(unscaled.width, unscaled.height),
    Math.sqrt(MAX_RENDER_PIXELS / (unscaled.width * unscaled.height)),
  );
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  // pdf.js types its canvas as the DOM's; in Node it draws through the same 2D API of Skia's canvas.
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
  return encodeGrayscalePng(context.getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
}

function countVisible(text: string): number {
  return text.replace(/\s+/g, '').length;
}
