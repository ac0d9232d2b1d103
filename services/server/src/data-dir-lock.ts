import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirInUseError extends Error {}

/**
 * PGlite is a single-process database: two processes on one data folder would corrupt
 * it. The folder holds a pid lock; a lock left by a process that died (crash, SIGKILL)
 * is taken over.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'portal.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return { release: () => rmSync(path, { force: true }) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(path, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DataDirInUseError(`Another Ledgerline process (pid ${holder}) is using the data folder ${dataDir}. Stop it, or set PORTAL_DATA_DIR to another folder.`);
      }
      rmSync(path, { force: true });
    }
  }
  throw new DataDirInUseError(`Could not lock the data folder ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
