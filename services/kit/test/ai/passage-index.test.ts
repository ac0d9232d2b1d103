import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Database, SchemaDb } from '../../src/db/database.ts';
import { migrateTenant } from '../../src/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '../../src/db/test-databases.ts';
import { createPassageIndex, PASSAGE_MAX_CHARS, splitPassages } from '../../src/ai/passage-index.ts';

describe('splitPassages', () => {
  it('groups whole lines and remembers the line each passage starts on', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1} ${'x'.repeat(50)}`);
    const passages = splitPassages(lines.join('\n'));
    expect(passages.length).toBeGreaterThan(2);
    expect(passages[0]!.line).toBe(1);
    for (const p of passages) {
      expect(p.text.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
      expect(p.text.startsWith(`line ${p.line} `)).toBe(true);
    }
    expect(passages.map((p) => p.text).join('\n')).toBe(lines.join('\n'));
  });

  it('cuts a line longer than a passage at a space, and skips blank stretches', () => {
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const passages = splitPassages(`\n\n\n${long}`);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.every((p) => p.line === 4 && p.text.length <= PASSAGE_MAX_CHARS)).toBe(true);
    expect(passages.map((p) => p.text).join(' ')).toBe(long);
  });

  it('keeps blank lines inside a passage, so line numbers can be counted in it', () => {
    const [p] = splitPassages('\n\nfirst\n\n\nfourth after blanks\nlast');
    expect(p).toEqual({ line: 3, text: 'first\n\n\nfourth after blanks\nlast' });
  });
});

describe.each(databaseTargets())('passage index ($name)', (target) => {
  const index = createPassageIndex('kittest');
  let scratch: TestDatabase;
  let db: Database;
  let acme: SchemaDb;
  let beta: SchemaDb;
  const invoice = ['ACME Ltd', 'Invoice 17', ...Array.from({ length: 60 }, (_, i) => `Service item ${i} consulting hours billed at the agreed rate`), 'Total 4242', 'Payment due within 30 days'].join('\n');

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    for (const s of ['pi_acme', 'pi_beta']) await migrateTenant(db, s, [index.migrations]);
    acme = db.forSchema('pi_acme');
    beta = db.forSchema('pi_beta');
  });
  afterAll(async () => { await scratch.drop(); });

  it("ranks the line that answers 'What is the total?' first", async () => {
    await index.ensure(acme, 1, 'v1', invoice);
    const ranked = await index.rank(acme, 1, 'What is the total?', 3);
    expect(ranked[0]!.text).toContain('Total 4242');
    expect(ranked[0]!.line).toBeGreaterThan(1);
    expect(invoice.split('\n')[ranked[0]!.line - 1]).toBe(ranked[0]!.text.split('\n')[0]);
  });

  it('finds nothing for words the document lacks, or a question without words', async () => {
    expect(await index.rank(acme, 1, 'photosynthesis chlorophyll', 3)).toEqual([]);
    expect(await index.rank(acme, 1, '?!', 3)).toEqual([]);
  });

  it('re-indexes a new version and keeps firms apart', async () => {
    await index.ensure(acme, 1, 'v2', 'Grand total 99');
    expect((await index.rank(acme, 1, 'total', 5)).map((p) => p.text)).toEqual(['Grand total 99']);
    expect(await index.rank(beta, 1, 'total', 5)).toEqual([]);
  });

  it('indexes once when two first questions arrive together, and forgets a dropped source', async () => {
    await Promise.all([index.ensure(acme, 2, 'v1', invoice), index.ensure(acme, 2, 'v1', invoice)]);
    const count = await acme.query<{ n: number }>('SELECT count(*)::int AS n FROM kittest_passages WHERE source_id = 2');
    expect(count.rows[0]!.n).toBe(splitPassages(invoice).length);
    await acme.transaction((tx) => index.drop(tx, 2));
    expect(await index.rank(acme, 2, 'total', 5)).toEqual([]);
  });
});
