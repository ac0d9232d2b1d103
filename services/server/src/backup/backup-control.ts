import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PausableDatabase } from '@ledgerline/kit/db/database.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { writeBackup } from './installation-backup.ts';

/** Where a running embedded installation says how `npm run backup` reaches it. */
export const CONTROL_FILE = 'control.json';
export const BACKUP_PATH = '/backup';

export interface ControlFile {
  url: string;
  token: string;
}

/**
 * The running embedded installation's backup endpoint: loopback only, and only for whoever
 * can read the data folder (the token is in a file there, readable by its owner alone) —
 * the same people who could copy the folder, which is what a backup is.
 */
export async function startBackupControl(deps: { dataDir: string; db: PausableDatabase; logger: Logger }): Promise<{ stop(): Promise<void> }> {
  const token = randomBytes(32).toString('hex');
  const server = http.createServer((req, res) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    if (req.method !== 'GET' || req.url !== BACKUP_PATH || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-tar' });
    writeBackup(deps.dataDir, res, { db: deps.db }).then(
      ({ pausedMs }) => { deps.logger.info({ pausedMs }, 'installation backup written'); res.end(); },
      (err: unknown) => { deps.logger.error({ err }, 'installation backup failed'); res.destroy(err as Error); },
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const file = join(deps.dataDir, CONTROL_FILE);
  const control: ControlFile = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token };
  await writeFile(file, JSON.stringify(control), { mode: 0o600 });
  return {
    stop: async () => {
      await rm(file, { force: true });
      await new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); });
    },
  };
}
