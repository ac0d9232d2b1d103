import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataDirInUseError, lockDataDir } from '../src/data-dir-lock.ts';

const LOCK_MODULE = fileURLToPath(new URL('../src/data-dir-lock.ts', import.meta.url));
const folder = () => mkdtempSync(join(tmpdir(), 'portal-lock-'));

/** Another process holding the folder's lock until killed; resolves once it holds it. */
function holder(dataDir: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e',
    `const { lockDataDir } = await import(${JSON.stringify(LOCK_MODULE)}); await lockDataDir(${JSON.stringify(dataDir)}); console.log('locked'); setInterval(() => {}, 1000);`,
  ], { stdio: ['ignore', 'pipe', 'inherit'] });
  const locked = new Promise<void>((resolve) => child.stdout.on('data', () => resolve()));
  return { child, locked };
}

describe('data folder lock', () => {
  it('refuses a second holder, naming the first one\'s pid, and frees the folder on release', async () => {
    const dir = folder();
    const first = await lockDataDir(dir);
    await expect(lockDataDir(dir, { waitMs: 300 })).rejects.toThrow(new DataDirInUseError(
      `Another Ledgerline process (pid ${process.pid}) is using the data folder ${dir}. Stop it, or set PORTAL_DATA_DIR to another folder.`));
    await first.release();
    await (await lockDataDir(dir, { waitMs: 0 })).release();
  });

  it('is free the moment its holder is killed (SIGKILL), with no file left to go stale', async () => {
    const dir = folder();
    const { child, locked } = holder(dir);
    await locked;
    await expect(lockDataDir(dir, { waitMs: 0 })).rejects.toThrow(`(pid ${child.pid})`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    // Taken right away: the waiting start covers a holder still on its way out.
    const taken = await lockDataDir(dir);
    await exited;
    await taken.release();
  });

  it('is not blocked by a pid file an earlier version left, even one naming a live process', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'portal.pid'), String(process.ppid));
    await (await lockDataDir(dir, { waitMs: 0 })).release();
  });
});
