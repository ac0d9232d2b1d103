import { describe, it, expect } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../src/db/create-database.ts';
import type { Database } from '../src/db/database.ts';
import { databaseTargets } from '../src/db/test-databases.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'commit-loop.ts');
const COMMITS_BEFORE_KILL = 200;

/**
 * Runs the commit loop in a child process, SIGKILLs it once it has reported
 * COMMITS_BEFORE_KILL commits (it keeps committing meanwhile, so the kill lands mid-flight)
 * and returns every id it reported as committed.
 */
function commitUntilKilled(target: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, target], { stdio: ['ignore', 'pipe', 'pipe'] });
    const reported: number[] = [];
    let partial = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) reported.push(Number(line));
      if (reported.length >= COMMITS_BEFORE_KILL) child.kill('SIGKILL');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(reported);
      else reject(new Error(`commit loop exited on its own (${code}): ${stderr}`));
    });
  });
}

interface DurabilityTarget {
  name: string;
  /** Where the child commits (a data directory or a URL), how to reopen it, and cleanup. */
  prepare(): Promise<{ target: string; reopen(): Promise<Database>; cleanup(): Promise<void> }>;
}

function durabilityTargets(): DurabilityTarget[] {
  const pglite: DurabilityTarget = {
    name: 'PGlite on disk',
    prepare: async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'kit-durability-'));
      return { target: dataDir, reopen: () => createDatabase({ dataDir }), cleanup: () => rm(dataDir, { recursive: true, force: true }) };
    },
  };
  const postgres = databaseTargets()
    .filter((t) => t.name === 'postgres')
    .map((t): DurabilityTarget => ({
      name: 'PostgreSQL',
      prepare: async () => {
        const scratch = await t.open();
        // The test reads through its own pool; the scratch pool is only needed to drop.
        return { target: scratch.url!, reopen: () => createDatabase({ postgresUrl: scratch.url }), cleanup: () => scratch.drop() };
      },
    }));
  return [pglite, ...postgres];
}

describe('a killed process loses no commit it reported', () => {
  it.each(durabilityTargets())('$name: reopening finds every reported commit', async ({ prepare }) => {
    const { target, reopen, cleanup } = await prepare();
    try {
      const reported = await commitUntilKilled(target);
      const db = await reopen();
      try {
        const { rows } = await db.query<{ id: number }>('SELECT id FROM durability ORDER BY id');
        const stored = new Set(rows.map((r) => r.id));
        expect(reported.length).toBeGreaterThanOrEqual(COMMITS_BEFORE_KILL);
        expect(reported.filter((id) => !stored.has(id))).toEqual([]);
        // Ids commit in order, so what is stored is exactly 1..n: nothing half-recovered.
        expect(rows.map((r) => r.id)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
        // The recovered database takes writes again.
        await db.query('INSERT INTO durability (id, payload) VALUES ($1, $2)', [1_000_000, 'after restart']);
      } finally {
        await db.close();
      }
    } finally {
      await cleanup();
    }
  });
});
