import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';

export class DataDirInUseError extends Error {}

/** How long a start waits for a previous holder that is still exiting (after a kill, say). */
const DEFAULT_WAIT_MS = 5_000;
const RETRY_MS = 100;

/**
 * PGlite is a single-process database: two processes on one data folder would corrupt
 * it. The lock is a listening Unix socket, which the kernel releases the moment its
 * process ends, however it ends: no pid file to go stale (a killed process's pid may
 * name a live process later). On Linux it lives in the abstract namespace (nothing on
 * disk); elsewhere it is a socket file in the folder, taken over when nobody answers on
 * it. The holder answers a connection with its pid, for the refusal message.
 */
export async function lockDataDir(dataDir: string, options: { waitMs?: number } = {}): Promise<{ release(): Promise<void> }> {
  mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(dataDir);
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const server = net.createServer((socket) => socket.end(String(process.pid)));
    try {
      await listen(server, address);
      server.unref();
      return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      const holder = await askHolder(address);
      if (holder === null && process.platform !== 'linux') {
        rmSync(address, { force: true }); // a socket file nobody listens on: its process is gone
        continue;
      }
      if (Date.now() >= deadline) {
        throw new DataDirInUseError(`Another Ledgerline process (pid ${holder ?? 'unknown'}) is using the data folder ${dataDir}. Stop it, or set PORTAL_DATA_DIR to another folder.`);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

function lockAddress(dataDir: string): string {
  if (process.platform !== 'linux') return join(dataDir, 'portal.lock');
  const folder = createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 32);
  return `\0ledgerline-data-${folder}`;
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The holder's pid, or null when nobody answers (on Linux: it is exiting right now). */
function askHolder(address: string): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    let answer = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => { answer += chunk.toString('utf8'); });
    socket.on('close', () => resolve(answer.trim() || null));
    socket.on('error', () => resolve(null));
  });
}
