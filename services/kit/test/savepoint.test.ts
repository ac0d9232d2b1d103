import { describe, expect, it } from '@jest/globals';
import { inSavepoint } from '../src/db/savepoint.ts';
import { openPgliteDatabase } from '../src/db/pglite-database.ts';

/* Many units in one transaction, each all or nothing (the client import's rows). */
describe('inSavepoint', () => {
  it('undoes a unit that throws, keeps the others, and lets the transaction commit', async () => {
    const db = await openPgliteDatabase();
    try {
      await db.query('CREATE TABLE units (id int PRIMARY KEY, part text NOT NULL)');
      const failed: number[] = [];
      await db.transaction(async (tx) => {
        for (const id of [1, 2, 3]) {
          try {
            await inSavepoint(tx, async (sp) => {
              await sp.query('INSERT INTO units (id, part) VALUES ($1, $2)', [id, 'first half']);
              // Unit 2's second half is refused (a duplicate key): its first half must go too.
              await sp.query('INSERT INTO units (id, part) VALUES ($1, $2)', [id === 2 ? 1 : id + 10, 'second half']);
            });
          } catch {
            failed.push(id);
          }
        }
      });
      expect(failed).toEqual([2]);
      const { rows } = await db.query<{ id: number }>('SELECT id FROM units ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual([1, 3, 11, 13]);
    } finally {
      await db.close();
    }
  });

  it('answers what the unit returns', async () => {
    const db = await openPgliteDatabase();
    try {
      await expect(db.transaction((tx) => inSavepoint(tx, async (sp) => (await sp.query<{ n: number }>('SELECT 41 + 1 AS n')).rows[0]!.n))).resolves.toBe(42);
    } finally {
      await db.close();
    }
  });
});
