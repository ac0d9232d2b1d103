import { stat } from 'node:fs/promises';
import path from 'node:path';
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
