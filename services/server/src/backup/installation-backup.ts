import { createReadStream, createWriteStream } from 'node:fs';
import { cp, link, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PausableDatabase } from '@ledgerline/kit/db/database.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { PRODUCT_VERSION } from '@ledgerline/kit/portability/firm-manifest.ts';
import { readTar, TarWriter } from '@ledgerline/kit/portability/tar-archive.ts';

/**
 * Backup and restore of an embedded installation (`npm run backup`, `npm run restore`).
 * Consistency: during one short pause of the database (no query runs, a checkpoint has
 * written every commit to its files) the PGlite folder is copied and every stored object
 * hard-linked into a staging folder. Objects are never changed in place (a write renames a
 * new file over the key, a delete unlinks it, and a file's row goes before its bytes), so
 * the links keep exactly the bytes the database snapshot refers to while the portal goes
 * on; the archive is then written from the staging folder at leisure.
 */
export const BACKUP_FORMAT = 'ledgerline-installation-backup/1';
const MANIFEST = 'backup.json';
/** What a backup holds of the data folder; the object store's `tmp/` (writes in flight) is left out. */
const COPIED = ['pglite', 'keys'];
const LINKED = [join('objects', 'data'), join('objects', 'meta')];

export interface BackupProgress {
  (bytes: number): void;
}

/** Writes a backup of `dataDir` to `out`; with `db` the installation is running and is paused for the snapshot only. */
export async function writeBackup(dataDir: string, out: Writable, options: { db?: PausableDatabase; progress?: BackupProgress } = {}): Promise<{ pausedMs: number }> {
  const staging = await mkdtemp(join(dataDir, '.backup-'));
  try {
    let pausedMs = 0;
    const snapshot = async () => {
      const started = Date.now();
      for (const part of COPIED) await copyIfPresent(join(dataDir, part), join(staging, part));
      for (const part of LINKED) await linkTree(join(dataDir, part), join(staging, part));
      pausedMs = Date.now() - started;
    };
    if (options.db) await options.db.whilePaused(snapshot);
    else await snapshot();
    const tar = new TarWriter(out);
    const manifest = Buffer.from(JSON.stringify({ format: BACKUP_FORMAT, productVersion: PRODUCT_VERSION, createdAt: new Date().toISOString() }, null, 2));
    await tar.add(MANIFEST, manifest.length, manifest);
    for await (const { path, directory } of walk(staging)) {
      const name = relative(staging, path).split(sep).join('/');
      if (directory) await tar.addDirectory(name);
      else await tar.add(name, (await stat(path)).size, createReadStream(path));
      options.progress?.(tar.bytesWritten);
    }
    await tar.finish();
    return { pausedMs };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Restores a backup into `dataDir`, which must be empty or missing (a restore never mixes two states). */
export async function restoreBackup(archive: Readable, dataDir: string, progress?: BackupProgress): Promise<void> {
  const target = resolve(dataDir);
  const existing = await readdir(target).catch(() => [] as string[]);
  if (existing.length) throw new Invalid(`The data folder ${target} is not empty; restore into an empty folder.`);
  let first = true;
  let bytes = 0;
  for await (const entry of readTar(archive)) {
    if (first) {
      first = false;
      const manifest = entry.name === MANIFEST ? JSON.parse(await text(entry.body)) as { format?: string } : null;
      if (manifest?.format !== BACKUP_FORMAT) throw new Invalid('This is not a Ledgerline installation backup.');
      continue;
    }
    const file = resolve(target, entry.name);
    if (!file.startsWith(target + sep)) throw new Invalid(`The backup names a path outside the data folder: ${entry.name}`);
    if (entry.type === 'directory') {
      await mkdir(file, { recursive: true });
      continue;
    }
    await mkdir(dirname(file), { recursive: true });
    await pipeline(entry.body, createWriteStream(file, { flags: 'wx' }));
    bytes += entry.size;
    progress?.(bytes);
  }
  if (first) throw new Invalid('This is not a Ledgerline installation backup.');
}

async function copyIfPresent(from: string, to: string): Promise<void> {
  if (await stat(from).catch(() => null)) await cp(from, to, { recursive: true });
}

async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true }).catch(() => null);
  if (!entries) return;
  await mkdir(to, { recursive: true });
  for (const e of entries) {
    if (e.isDirectory()) await linkTree(join(from, e.name), join(to, e.name));
    // An object deleted since the listing is simply not in the snapshot (its row went first).
    else if (e.isFile()) await link(join(from, e.name), join(to, e.name)).catch((err: NodeJS.ErrnoException) => { if (err.code !== 'ENOENT') throw err; });
  }
}

/** Folders (before their contents) and files, in name order. */
async function* walk(dir: string): AsyncGenerator<{ path: string; directory: boolean }> {
  for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      yield { path, directory: true };
      yield* walk(path);
    } else if (e.isFile()) yield { path, directory: false };
  }
}

async function text(body: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c as Buffer);
  return Buffer.concat(parts).toString('utf8');
}
