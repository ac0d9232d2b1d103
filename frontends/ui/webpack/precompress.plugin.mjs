// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of a build, so
// the gateway and the frontend image's nginx send compressed bytes without compressing on
// each request (and at the best levels, which are too slow to run per request).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats; fonts (woff2) and images are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|txt|map)$/;
/** Below this a compressed copy saves less than its extra round of headers costs. */
const MIN_BYTES = 1024;

export class PrecompressPlugin {
  apply(compiler) {
    // After emit, so files other plugins write late (mf-manifest.json, routes.json) are included.
    compiler.hooks.afterEmit.tapPromise('PrecompressPlugin', async (compilation) => {
      const outputDir = compilation.outputOptions.path;
      await Promise.all((await listFiles(outputDir)).map(compress));
    });
  }
}

async function listFiles(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name)).map((entry) => path.join(entry.parentPath, entry.name));
}

async function compress(file) {
  const content = await readFile(file);
  if (content.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length } }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
}
