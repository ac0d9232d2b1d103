import { stat } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type express from 'express';

/** Encodings the frontend build writes beside each compressible file, best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/**
 * Sends the build's precompressed copy (name.js.br, name.js.gz) of a requested file when the
 * browser accepts its encoding, with the original's media type; anything else falls
 * through to the plain static files. `cacheControl` picks the caching of each file name.
 */
export function precompressedFiles(root: string, cacheControl: (fileName: string) => string): express.Handler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const relative = safeRelativePath(req.path);
    if (!relative) return next();
    const accepted = ENCODINGS.filter((encoding) => req.acceptsEncodings(encoding.name) === encoding.name);
    void (async () => {
      const file = path.join(root, relative);
      for (const encoding of accepted) {
        if (!(await exists(file + encoding.suffix))) continue;
        res.set({ 'Content-Encoding': encoding.name, 'Cache-Control': cacheControl(path.basename(file)) });
        res.append('Vary', 'Accept-Encoding');
        res.type(path.extname(file));
        res.sendFile(file + encoding.suffix, (error?: Error) => {
          if (error && !res.headersSent) next(error);
        });
        return;
      }
      // Compressible files vary by encoding even when sent plain, so caches keep both apart.
      if (ENCODINGS.length && (await exists(file + ENCODINGS[0].suffix))) res.append('Vary', 'Accept-Encoding');
      next();
    })().catch(next);
  };
}

/** The decoded path without any '..' or hidden segment, or null (left to express.static, which refuses it). */
function safeRelativePath(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const segments = decoded.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((segment) => segment.startsWith('.') || segment.includes('\\') || segment.includes('\0'))) return null;
  return segments.join('/');
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then((found) => found.isFile(), () => false);
}

/** Below this a compressed body saves less than its extra round of headers costs (as the build's copies). */
const MIN_COMPRESSED_BYTES = 1024;
/** Bodies made per request are small; a middling brotli level compresses them in well under a millisecond. */
const BROTLI_QUALITY = 5;

/**
 * Sends a body made for this request (the remote list, a firm's sign-in page) compressed as the
 * browser accepts, the way the build's files are: brotli, else gzip, else plain.
 */
export function sendCompressed(req: express.Request, res: express.Response, body: string, type: string): void {
  res.type(type);
  res.append('Vary', 'Accept-Encoding');
  // Ours first, as for the build's copies: browsers list gzip before br at the same weight.
  const encoding = Buffer.byteLength(body) < MIN_COMPRESSED_BYTES ? undefined : ENCODINGS.find((e) => req.acceptsEncodings(e.name) === e.name)?.name;
  if (encoding === 'br') {
    res.set('Content-Encoding', 'br').send(zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }));
  } else if (encoding === 'gzip') {
    res.set('Content-Encoding', 'gzip').send(zlib.gzipSync(body));
  } else {
    res.send(body);
  }
}
