import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;

/**
 * The portal's one secret for encryption at rest and signed links. From
 * `PORTAL_ENCRYPTION_KEY` (32 bytes, base64 or hex) when set — required when replicas
 * run on several machines, since each would otherwise make its own; else a key file
 * generated once in the data folder (the embedded default).
 */
export function loadMasterKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return parseKey(configured);
  const dir = join(dataDir, 'keys');
  const file = join(dir, 'portal-encryption.key');
  mkdirSync(dir, { recursive: true });
  try {
    // 'wx': exactly one of several services starting at once creates it; the rest read it.
    writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseKey(readFileSync(file, 'utf8').trim());
}

function parseKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== KEY_BYTES) throw new Error('PORTAL_ENCRYPTION_KEY must be 32 bytes, base64 or hex encoded');
  return key;
}

/** A key for one purpose only ('google-drive-secrets', 'client-portal-link'…), so no two uses share a key. */
export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `ledgerline:${purpose}`, KEY_BYTES));
}
