import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from './database.ts';
import { realServerUrl } from '../testing/real-servers.ts';
import { openPgliteDatabase } from './pglite-database.ts';
import { openPostgresDatabase } from './postgres-database.ts';
import { quoteIdent } from './tenant-schema.ts';

/** A database of its own for one test suite. */
export interface TestDatabase {
  db: Database;
  /** PostgreSQL only: the URL of the fresh database, for a second pool or a child process. */
  url?: string;
  /** Closes the database and removes everything the suite created. */
  drop(): Promise<void>;
}

export interface DatabaseTarget {
  name: 'pglite' | 'postgres';
  open(): Promise<TestDatabase>;
}

/**
 * The adapters a database-backed suite runs against: in-memory PGlite always, and
 * PostgreSQL when POSTGRES_URL is set (required in CI). Use with
 * `describe.each(databaseTargets())('… ($name)', (target) => …)`. Each `open()` on
 * PostgreSQL creates a fresh randomly named database, so suites running in parallel jest
 * workers against one server never share tables — not even the platform schema.
 */
export function databaseTargets(): DatabaseTarget[] {
  const targets: DatabaseTarget[] = [{ name: 'pglite', open: openScratchPglite }];
  const url = realServerUrl('POSTGRES_URL');
  if (url) targets.push({ name: 'postgres', open: () => openScratchPostgres(url) });
  return targets;
}

async function openScratchPglite(): Promise<TestDatabase> {
  const db = await openPgliteDatabase();
  return { db, drop: () => db.close() };
}

/**
 * A fresh, randomly named database on a PostgreSQL server, for a suite (or a whole test
 * portal) that must not see what parallel suites create on the same server.
 */
export async function createScratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ll_test_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `CREATE DATABASE ${quoteIdent(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    // FORCE: a child process killed by a test may have left sessions behind.
    drop: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  };
}

async function openScratchPostgres(serverUrl: string): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(serverUrl);
  const db = await openPostgresDatabase({ url: scratch.url });
  return {
    db,
    url: scratch.url,
    drop: async () => {
      await db.close();
      await scratch.drop();
    },
  };
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
