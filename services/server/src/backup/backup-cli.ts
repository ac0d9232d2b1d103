import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lockDataDir } from '../data-dir-lock.ts';
import { loadPlatformConfig } from '../platform.config.ts';
import { BACKUP_PATH, CONTROL_FILE, type ControlFile } from './backup-control.ts';
import { restoreBackup, writeBackup } from './installation-backup.ts';
import { restorePostgresBackup, writePostgresBackup } from './postgres-backup.ts';

/**
 * `backup --out <file>` and `restore <file>` of the embedded installation in
 * PORTAL_DATA_DIR (default ./data). A running installation is asked for the backup (it
 * pauses for the snapshot only); a stopped one is read directly, holding its lock.
 * Returns the exit code; progress goes to stderr.
 */
export async function runBackupCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...rest] = args;
  const config = loadPlatformConfig(env);
  if (config.postgresUrl) return runPostgresCommand(config.postgresUrl, command, rest);
  if (command === 'backup') {
    const out = rest[rest.indexOf('--out') + 1];
    if (!rest.includes('--out') || !out) {
      console.error('Usage: npm run backup -- --out <file>');
      return 2;
    }
    await backup(config.dataDir, out);
    return 0;
  }
  if (command === 'restore' && rest[0]) {
    await restoreBackup(createReadStream(rest[0]), config.dataDir, meter('restored'));
    process.stderr.write(`\nRestored ${rest[0]} into ${config.dataDir}\n`);
    return 0;
  }
  console.error('Usage: npm run restore -- <file>');
  return 2;
}

const POSTGRES_USAGE = 'Usage (POSTGRES_URL set): npm run backup -- --out <file> [--per-firm | --tables-per-part <n>]; npm run restore -- <file>';

/**
 * With POSTGRES_URL: the database in parts that fit PostgreSQL's lock table, one snapshot
 * (postgres-backup.ts). The stored files (the bucket, or PORTAL_DATA_DIR/objects) and
 * PORTAL_DATA_DIR/keys are backed up with their own tools (docs/running/backup-restore.md).
 */
async function runPostgresCommand(url: string, command: string | undefined, rest: string[]): Promise<number> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  if (command === 'backup') {
    const out = rest.includes('--out') ? rest[rest.indexOf('--out') + 1] : undefined;
    const perPart = rest.includes('--tables-per-part') ? Number(rest[rest.indexOf('--tables-per-part') + 1]) : undefined;
    if (!out || (perPart !== undefined && !(Number.isInteger(perPart) && perPart > 0))) {
      console.error(POSTGRES_USAGE);
      return 2;
    }
    const partial = `${out}.partial`;
    const file = createWriteStream(partial);
    try {
      const manifest = await writePostgresBackup({ url, out: file, perFirm: rest.includes('--per-firm'), tablesPerPart: perPart, progress: log });
      await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
      await rename(partial, out);
      log(`Backup of ${manifest.parts.reduce((n, p) => n + p.schemas.length, 0)} firms (${manifest.parts.length} parts) written to ${out}`);
      return 0;
    } catch (err) {
      file.destroy();
      await rm(partial, { force: true });
      throw err;
    }
  }
  if (command === 'restore' && rest[0]) {
    const manifest = await restorePostgresBackup({ url, archive: createReadStream(rest[0]), progress: log });
    log(`Restored ${rest[0]} (${manifest.parts.length} parts, made ${manifest.createdAt})`);
    return 0;
  }
  console.error(POSTGRES_USAGE);
  return 2;
}

async function backup(dataDir: string, out: string): Promise<void> {
  const partial = `${out}.partial`;
  try {
    const running = await readFile(join(dataDir, CONTROL_FILE), 'utf8').then((t) => JSON.parse(t) as ControlFile).catch(() => null);
    const response = running
      ? await fetch(`${running.url}${BACKUP_PATH}`, { headers: { authorization: `Bearer ${running.token}` } }).catch(() => null)
      : null;
    if (response?.ok && response.body) {
      const progress = meter('written');
      let bytes = 0;
      const count = new Transform({ transform(chunk: Buffer, _e, done) { bytes += chunk.length; progress(bytes); done(null, chunk); } });
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), count, createWriteStream(partial));
    } else {
      // Not running (or a control file left by a killed process): the lock says nobody else writes.
      const lock = await lockDataDir(dataDir, { waitMs: 0 });
      try {
        const file = createWriteStream(partial);
        await writeBackup(dataDir, file, { progress: meter('written') });
        await new Promise<void>((resolve, reject) => file.end((err?: Error | null) => (err ? reject(err) : resolve())));
      } finally {
        await lock.release();
      }
    }
    await rename(partial, out);
    process.stderr.write(`\nBackup written to ${out}\n`);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** Prints bytes done to stderr, at most once a second. */
function meter(verb: string): (bytes: number) => void {
  let last = 0;
  return (bytes) => {
    if (Date.now() - last < 1000) return;
    last = Date.now();
    process.stderr.write(`\r${(bytes / 1024 / 1024).toFixed(1)} MB ${verb}`);
  };
}
