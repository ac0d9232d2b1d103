import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Test support: jest runs suites in parallel worker processes, and a suite that restarts
 * the broker breaks whatever another suite is asserting on it at that moment (a restart
 * redelivers, so "handled once" or "tried N times" no longer hold). Suites that restart the
 * broker, and suites whose assertions a restart would break, hold this lock so they never
 * overlap. One lock per broker URL, shared by every process on the machine (`mkdir` is atomic).
 */
export async function lockBroker(url: string, timeoutMs = 120_000): Promise<() => Promise<void>> {
  const dir = join(tmpdir(), `ledgerline-broker-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.lock`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await mkdir(dir);
      await writeFile(join(dir, 'pid'), String(process.pid));
      return () => rm(dir, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (await holderDied(dir)) {
      await rm(dir, { recursive: true, force: true });
    } else if (Date.now() > deadline) {
      throw new Error(`waited ${timeoutMs} ms for the broker lock ${dir}`);
    } else {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** A crashed test run must not block the next one forever. */
async function holderDied(dir: string): Promise<boolean> {
  const pid = Number(await readFile(join(dir, 'pid'), 'utf8').catch(() => ''));
  // No pid yet: the holder is between mkdir and writeFile.
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
