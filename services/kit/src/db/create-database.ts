import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from './database.ts';
import type { Logger } from '../logger.ts';
import { openPgliteDatabase } from './pglite-database.ts';
import { openPostgresDatabase, type PoolSettings } from './postgres-database.ts';

export interface DatabaseConfig {
  /** PostgreSQL connection URL; when absent the embedded PGlite is used. */
  postgresUrl?: string;
  /** Embedded-default data folder; PGlite keeps its files in `${dataDir}/pglite`. In memory when absent. */
  dataDir?: string;
  /** PostgreSQL only: pool size and connection recycling. */
  pool?: PoolSettings;
  logger?: Logger;
}

/** Picks the adapter from config: PostgreSQL when a URL is given, PGlite otherwise. */
export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.postgresUrl) {
    return openPostgresDatabase({ url: config.postgresUrl, ...config.pool, logger: config.logger });
  }
  if (!config.dataDir) return openPgliteDatabase();
  const dataDir = join(config.dataDir, 'pglite');
  // PGlite creates only the last path segment itself.
  await mkdir(config.dataDir, { recursive: true });
  return openPgliteDatabase({ dataDir });
}
