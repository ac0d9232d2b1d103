import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { SNIPPET_MARK, fileListQuerySchema, type FileListQuery } from '@ledgerline/contracts/files.contracts.ts';
import { FileStore, SEARCH_CANDIDATES, type NewFile } from '../src/files/file.store.ts';
import { filesTenantMigrations } from '../src/files.migrations.ts';

const directory = createDirectoryReadModel('files');
const ADMIN: AccessScope = { role: 'Admin', isAdmin: true, isClient: false, clients: 'all', reportTypes: 'all' };
const DTA: AccessScope = { role: 'DTA', isAdmin: false, isClient: false, clients: 'all', reportTypes: 'all' };
const CPA: AccessScope = { role: 'CPA', isAdmin: false, isClient: false, clients: [1], reportTypes: [10] };
const CPA_NONE: AccessScope = { role: 'CPA', isAdmin: false, isClient: false, clients: [], reportTypes: [] };
const CLIENT: AccessScope = { role: 'Client', isAdmin: false, isClient: true, clients: [1], reportTypes: 'all' };
const query = (q: Partial<Record<keyof FileListQuery, unknown>> = {}) => fileListQuerySchema.parse(q);

const file = (name: string, extra: Partial<NewFile> = {}): NewFile => ({
  originalName: name, filename: name, mimeType: 'text/plain', size: 10, clientId: 1, fileType: 'report', documentType: null, reportTypeId: 10,
  uploadedById: 1, uploaderName: 'Tester', location: { kind: 'object', key: `files/test/${randomBytes(6).toString('hex')}` }, ...extra,
});

describe.each(databaseTargets())('file store ($name)', (target) => {
  const store = new FileStore(directory.tables);
  let scratch: TestDatabase;
  let db: Database;
  let schema: SchemaDb;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    scratch = await target.open();
    db = scratch.db;
    const name = `fs_${randomBytes(4).toString('hex')}`;
    await migrateTenant(db, name, [filesTenantMigrations, directory.migrations]);
    schema = db.forSchema(name);
    await directory.rememberClient(schema, { id: 1, name: 'Own Client', uploadDestination: 'server', googleDriveConfigured: false, jurisdiction: 'US', entityType: null }, '2030-01-01T00:00:00Z');
    await directory.rememberReportType(schema, { id: 10, name: 'Audit' }, '2030-01-01T00:00:00Z');
    const put = async (key: string, f: NewFile) => { ids[key] = (await schema.transaction((tx) => store.insert(tx, f))).id; };
    await put('ownAudit', file('own audit.txt'));
    await put('ownOther', file('own payroll.txt', { reportTypeId: 11 }));
    await put('ownUntyped', file('own untyped.txt', { reportTypeId: null }));
    await put('otherAudit', file('other audit.txt', { clientId: 2 }));
    await put('ownCompany', file('own company.txt', { fileType: 'company_document', reportTypeId: null }));
    await put('firm', file('firm pan.txt', { fileType: 'firm_document', clientId: null, reportTypeId: null, documentType: 'pan_card' }));
    await put('firmOwn', file('firm of own client.txt', { fileType: 'firm_document', reportTypeId: null, documentType: 'other' }));
  });
  afterAll(async () => { await scratch?.drop(); });

  const listed = async (scope: AccessScope, q = query()) => {
    const page = await store.list(schema, scope, q);
    return { keys: Object.keys(ids).filter((k) => page.files.some((f) => f.id === ids[k])), total: page.total, page };
  };

  it('applies one visibility rule to lists, counts and single reads', async () => {
    const expected: [AccessScope, string[]][] = [
      [ADMIN, Object.keys(ids)],
      [DTA, Object.keys(ids)],
      [CPA, ['ownAudit', 'ownUntyped', 'ownCompany', 'firm', 'firmOwn']],
      [CPA_NONE, ['firm']],
      [CLIENT, ['ownAudit', 'ownOther', 'ownUntyped', 'ownCompany']],
    ];
    for (const [scope, keys] of expected) {
      const r = await listed(scope);
      expect([scope.role, r.keys.sort()]).toEqual([scope.role, [...keys].sort()]);
      expect(r.total).toBe(keys.length);
      for (const key of Object.keys(ids)) expect([key, (await store.findVisible(schema, scope, ids[key]!)) !== null]).toEqual([key, keys.includes(key)]);
    }
  });

  it('names the client and report type from the read model and hides where the bytes are', async () => {
    const { page } = await listed(ADMIN, query({ clientId: 1, reportTypeId: 10 }));
    expect(page.files).toEqual([expect.objectContaining({ originalName: 'own audit.txt', clientName: 'Own Client', reportTypeName: 'Audit', processedAt: null })]);
    expect(JSON.parse(page.json)).toEqual(page.files);
    expect(page.json).not.toContain('files/test/');
    expect(page.files[0]!.uploadedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('keeps the per-group counters exact through deletions', async () => {
    const extra = await schema.transaction((tx) => store.insert(tx, file('temporary.txt')));
    expect((await listed(CPA)).total).toBe(6);
    expect((await store.list(schema, CPA, query({ fileType: 'report' }))).total).toBe(3);
    await schema.transaction((tx) => store.delete(tx, extra.id));
    expect((await listed(CPA)).total).toBe(5);
    // Dates count the rows themselves.
    const today = new Date().toISOString().slice(0, 10);
    expect((await store.list(schema, ADMIN, query({ startDate: today, endDate: today }))).total).toBe(Object.keys(ids).length);
  });

  it('stores extracted text once, indexes its leading part, and searches name and content', async () => {
    const text = `The quarterly reconciliation of account ${'filler '.repeat(400)} latewordxyz`;
    expect(await schema.transaction((tx) => store.saveContent(tx, ids.ownAudit!, text, 200))).toEqual({ processedAt: expect.any(String) });
    expect(await schema.transaction((tx) => store.saveContent(tx, ids.ownAudit!, 'second', 200))).toBeNull();
    const hit = await store.list(schema, ADMIN, query({ search: 'reconcil' }));
    expect(hit.files.map((f) => f.id)).toEqual([ids.ownAudit]);
    expect(hit.files[0]!.snippet).toContain(`${SNIPPET_MARK.start}reconciliation${SNIPPET_MARK.end}`);
    // Past the indexed part: stored, not searchable.
    expect((await store.list(schema, ADMIN, query({ search: 'latewordxyz' }))).total).toBe(0);
    const byName = await store.list(schema, ADMIN, query({ search: 'payr' }));
    expect(byName.files.map((f) => [f.originalName, f.snippet])).toEqual([['own payroll.txt', `own ${SNIPPET_MARK.start}payroll${SNIPPET_MARK.end}.txt`]]);
    expect((await store.list(schema, CPA, query({ search: 'payroll' }))).total).toBe(0);
    expect((await store.list(schema, ADMIN, query({ search: '!!!' }))).total).toBe(0);
  });

  it(`ranks at most the ${SEARCH_CANDIDATES} newest matches, name matches first, and says when the total is capped`, async () => {
    await schema.query(`INSERT INTO files (original_name, filename, mime_type, size, client_id, file_type, uploaded_by_id, uploader_name, storage, storage_key, search_vector, rank_vector, uploaded_at)
      SELECT 'bulk ' || i || '.txt', 'bulk ' || i || '.txt', 'text/plain', 1, 1, 'company_document', 1, 'Tester', 'object', 'files/bulk/' || i,
        setweight(to_tsvector('simple', 'bulk ' || i || ' txt'), 'A') || setweight(to_tsvector('simple', 'commonword ' || CASE WHEN i % 500 = 0 THEN 'rareword' ELSE '' END), 'B'),
        setweight(to_tsvector('simple', 'bulk ' || i || ' txt'), 'A') || setweight(to_tsvector('simple', 'commonword ' || CASE WHEN i % 500 = 0 THEN 'rareword' ELSE '' END), 'B'),
        now() - make_interval(secs => 2000 - i)
      FROM generate_series(1, ${SEARCH_CANDIDATES + 20}) i`);
    await schema.query('ANALYZE files');
    const common = await store.list(schema, ADMIN, query({ search: 'commonword', limit: 1000, offset: 0 }));
    expect([common.total, common.capped, common.files.length]).toEqual([SEARCH_CANDIDATES, true, 1000]);
    expect(common.files[0]!.originalName).toBe(`bulk ${SEARCH_CANDIDATES + 20}.txt`);
    expect(common.files.some((f) => f.originalName === 'bulk 1.txt')).toBe(false);
    const rare = await store.list(schema, CPA, query({ search: 'rareword' }));
    expect([rare.total, rare.capped, rare.files.map((f) => f.originalName)]).toEqual([2, false, ['bulk 1000.txt', 'bulk 500.txt']]);
    const nameFirst = await store.list(schema, ADMIN, query({ search: 'bulk 7' }));
    expect(nameFirst.files[0]!.originalName).toMatch(/^bulk 7/);
    expect((await store.list(schema, ADMIN, query({ search: 'commonword', offset: 2000 }))).files).toEqual([]);
    expect((await store.list(schema, ADMIN, query({ search: 'commonword', offset: 2000 }))).total).toBe(SEARCH_CANDIDATES);
  });

  it('finds a sparse word\'s newest matches in a window of the newest files, and searches the whole firm when the window holds too few', async () => {
    // 24,000 more files: one in 12 has 'evenword' (too sparse to walk to, plenty in all); one in
    // 3 of the oldest quarter has 'oldword', as many in all, but too few of them in the window
    // its estimate gives. The newest 8,000 belong to a client the CPA does not serve.
    await schema.query(`INSERT INTO files (original_name, filename, mime_type, size, client_id, file_type, uploaded_by_id, uploader_name, storage, storage_key, search_vector, rank_vector, uploaded_at)
      SELECT 'sparse ' || i || '.txt', 'sparse ' || i || '.txt', 'text/plain', 1, CASE WHEN i > 16000 THEN 2 ELSE 1 END, 'company_document', 1, 'Tester', 'object', 'files/sparse/' || i,
        v, v, now() + make_interval(secs => i)
      FROM generate_series(1, 24000) i,
        LATERAL (SELECT setweight(to_tsvector('simple', 'sparse ' || i), 'A') || setweight(to_tsvector('simple',
          CASE WHEN i % 12 = 0 THEN 'evenword' ELSE 'filler' END || CASE WHEN i <= 6000 AND i % 3 = 1 THEN ' oldword' ELSE '' END || ' w' || (i % 7)), 'B') AS v) x`);
    await schema.query('ANALYZE files');
    // Quoted words, matched exactly: the planner's estimate of a prefix (what an unquoted word
    // searches) needs a richer vocabulary than these files have to come near the real count.
    for (const word of ['evenword', 'oldword']) {
      const plan = await schema.transaction(async (tx) => (await tx.query<{ plan: { shape: string; since: string | null } }>(
        "SELECT files_search_plan(to_tsquery('simple', $1), $2, 0.15, 1.5) AS plan", [word, SEARCH_CANDIDATES])).rows[0]!.plan);
      expect([word, plan.shape, plan.since === null]).toEqual([word, 'bitmap', false]);
      // The window's start is read from the upload times' histogram, rounded to a wider window:
      // never after the file where the newest files the estimate asks for end, and at most a
      // histogram bucket (1 % of the files) before it.
      const planRows = async (sql: string) => (await schema.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(`EXPLAIN (FORMAT JSON) ${sql}`)).rows[0]!['QUERY PLAN'][0].Plan['Plan Rows'];
      const files = await planRows('SELECT 1 FROM files');
      const newest = Math.ceil((1.5 * SEARCH_CANDIDATES * files) / await planRows(`SELECT 1 FROM files f WHERE f.search_vector @@ to_tsquery('simple', '${word}')`));
      const histogram = (await schema.query<{ n: number }>(
        "SELECT array_length(histogram_bounds::text::timestamptz[], 1) AS n FROM pg_stats WHERE schemaname = current_schema() AND tablename = 'files' AND attname = 'uploaded_at'")).rows[0]?.n;
      expect(histogram).toBeGreaterThanOrEqual(10);
      const { rows: [edge] } = await schema.query<{ uploaded_at: Date; in_window: number }>(
        `SELECT uploaded_at, (SELECT count(*)::int FROM files WHERE uploaded_at >= $2::timestamptz) AS in_window
         FROM files ORDER BY uploaded_at DESC, id DESC OFFSET $1 LIMIT 1`, [newest, plan.since]);
      expect(new Date(plan.since!).getTime()).toBeLessThanOrEqual(new Date(edge!.uploaded_at).getTime());
      expect(edge!.in_window).toBeLessThanOrEqual(newest + Math.ceil(files / 100) + 1);
      // What ranking the whole firm's newest matches gives, without any window.
      const reference = async (visible: string) => (await schema.query<{ id: number }>(
        `SELECT id FROM (SELECT f.id, f.uploaded_at, f.rank_vector FROM files f WHERE f.search_vector @@ to_tsquery('simple', $1) AND ${visible}
           ORDER BY f.uploaded_at DESC, f.id DESC LIMIT ${SEARCH_CANDIDATES}) c
         ORDER BY ts_rank(rank_vector, to_tsquery('simple', $1)) DESC, uploaded_at DESC, id DESC`, [word])).rows.map((r) => r.id);
      const searched = async (scope: AccessScope) => {
        const ids: number[] = [];
        for (let offset = 0; offset < SEARCH_CANDIDATES; offset += 100) ids.push(...(await store.list(schema, scope, query({ search: `"${word}"`, limit: 100, offset }))).files.map((f) => f.id));
        return ids;
      };
      const admin = await searched(ADMIN);
      expect(admin).toHaveLength(SEARCH_CANDIDATES);
      expect(admin).toEqual(await reference('true'));
      const cpa = await searched(CPA);
      expect(cpa).toEqual(await reference('f.client_id = 1'));
    }
  });
});
