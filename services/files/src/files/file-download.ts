import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseRange } from '@ledgerline/kit/http/byte-range.ts';
import { contentDisposition } from '@ledgerline/kit/http/content-disposition.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';

/**
 * Types a browser may render from the portal's origin without a sandbox: a PDF viewer
 * does not run in a sandboxed document, and raster images, audio and video carry no
 * script. Everything else (SVG, XML, text…) is served sandboxed, so an uploaded file can
 * never run script as the portal.
 */
const UNSANDBOXED = /^(application\/pdf|image\/(jpeg|png|gif|bmp|webp|x-icon)|audio\/|video\/)/;

/**
 * Streams a stored file (GET /api/files/{id} and the public link): type, length and
 * name headers, a single byte range (206) or 416, HEAD without a body. Nothing is
 * buffered; a client that goes away ends the read from storage.
 */
export async function sendFile(
  req: Request,
  res: Response,
  file: PortalFile,
  disposition: 'inline' | 'attachment',
  open: (range?: { start: number; end: number }) => Promise<Readable>,
): Promise<void> {
  const etag = `"f${file.id}-${file.size}"`;
  // If-Range: a range of another version is no range at all (files never change, but be exact).
  const ifRange = req.header('if-range');
  const range = ifRange && ifRange !== etag ? { kind: 'none' as const } : parseRange(req.header('range'), file.size);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'private, no-store');
  if (range.kind === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${file.size}`);
    res.end();
    return;
  }
  const slice = range.kind === 'range' ? { start: range.start, end: range.end } : undefined;
  // Opened before any file header is set: a storage failure still answers as JSON.
  const body = req.method === 'HEAD' || file.size === 0 ? null : await open(slice);

  res.setHeader('Content-Type', file.mimeType);
  res.setHeader('Content-Disposition', contentDisposition(disposition, file.originalName));
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', new Date(file.uploadedAt).toUTCString());
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (!UNSANDBOXED.test(file.mimeType)) res.setHeader('Content-Security-Policy', "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox");
  if (slice) {
    res.status(206).setHeader('Content-Range', `bytes ${slice.start}-${slice.end}/${file.size}`);
    res.setHeader('Content-Length', String(slice.end - slice.start + 1));
  } else {
    res.status(200).setHeader('Content-Length', String(file.size));
  }
  if (!body) {
    res.end();
    return;
  }
  await pipeline(body, res);
}
