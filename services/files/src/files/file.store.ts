import type { AccessScope } from '@ledgerline/kit/access/access-scope.ts';
import type { Queryable, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { Invalid } from '@ledgerline/kit/errors.ts';
import { SNIPPET_MARK, type FileListQuery, type FileType, type FirmDocumentType, type PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { BlobLocation } from '../storage/blob-location.ts';
import { visibilityCondition } from './file-rules.ts';
import { highlightName, searchWords, toTsQuery } from './search-query.ts';
import { isCalendarDate } from '@ledgerline/contracts/scalars.ts';

/** A file row with where its bytes are (never in a reply). */
export interface StoredFile extends PortalFile {
  location: BlobLocation;
}

/** What an upload writes; ids, times and names of other services' records are filled in by the store. */
export interface NewFile {
  originalName: string;
  filename: string;
  mimeType: string;
  size: number;
  clientId: number | null;
  fileType: FileType;
  documentType: FirmDocumentType | null;
  reportTypeId: number | null;
  /** The uploader's actorId. */
  uploadedById: number;
  uploaderName: string;
  location: BlobLocation;
}

interface FileRow {
  id: number;
  original_name: string;
  filename: string;
  mime_type: string;
  size: number;
  client_id: number | null;
  client_name: string | null;
  file_type: FileType;
  document_type: FirmDocumentType | null;
  report_type_id: number | null;
  report_type_name: string | null;
  uploaded_by_id: number;
  uploader_name: string;
  uploaded_at: Date | string;
  created_at: Date | string;
  processed_at: Date | string | null;
  storage: 'object' | 'google_drive';
  storage_key: string;
  waiting_for_payment?: { invoiceId: number; invoiceNumber: string } | null;
}

/** Timestamps come as ISO text from SQL (TIMESTAMP_SQL): no Date is parsed per row. */
const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());
const TIMESTAMP_SQL = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const toFile = (r: FileRow): StoredFile => ({
  ...toPortalFile(r),
  location: r.storage === 'object' ? { kind: 'object', key: r.storage_key } : { kind: 'google_drive', fileId: r.storage_key, clientId: r.client_id! },
});

/** The reply shape: where the bytes live stays inside the service. */
export function publicFile(f: StoredFile): PortalFile {
  const { location: _location, ...file } = f;
  return file;
}

/** A row straight to the reply shape (lists build hundreds of these per request). */
const toPortalFile = (r: FileRow): PortalFile => ({
  id: r.id,
  originalName: r.original_name,
  filename: r.filename,
  mimeType: r.mime_type,
  size: Number(r.size),
  clientId: r.client_id,
  clientName: r.client_name,
  fileType: r.file_type,
  documentType: r.document_type,
  reportTypeId: r.report_type_id,
  reportTypeName: r.report_type_name,
  uploadedById: r.uploaded_by_id,
  uploaderName: r.uploader_name,
  uploadedAt: iso(r.uploaded_at),
  createdAt: iso(r.created_at),
  processedAt: r.processed_at === null ? null : iso(r.processed_at),
  ...(r.waiting_for_payment ? { waitingForPayment: r.waiting_for_payment } : {}),
});

/**
 * Words for the search vector: letters and digits, everything else a separator, so
 * names like "Q3_report-2024.pdf" index as q3, report, 2024, pdf (search-query.ts splits
 * typed text the same way).
 */
const WORDS_SQL = (expr: string) => `regexp_replace(${expr}, '[^[:alnum:]]+', ' ', 'g')`;
const NAME_VECTOR = (expr: string) => `setweight(to_tsvector('simple', ${WORDS_SQL(expr)}), 'A')`;
/** Characters of the content the rank vector holds beside the name (keeps it in the row). */
export const RANK_CONTENT_CHARS = 200;
/** How much extracted text ts_headline reads for a snippet: it parses all it is given. */
const SNIPPET_SOURCE_CHARS = 5000;
/** Rows of a search page whose snippet comes from the content (~0.2 ms each); the rest show the name, highlighted. */
export const CONTENT_SNIPPETS_PER_PAGE = 25;
/**
 * A search ranks the newest this many matching files (all of them when fewer match):
 * ranking every file that contains a common word costs time proportional to the firm's
 * size, and among thousands of matches the recent ones are what people look for.
 */
export const SEARCH_CANDIDATES = 1000;
/** Share of files a search must match (estimated) for walking the newest files to beat the index. */
const WALK_MIN_DENSITY = 0.15;
/** A window of the newest files holds this many times the candidates a search needs, by the estimate. */
const WINDOW_SPARE = 1.5;
const HEADLINE_OPTIONS = `StartSel=${SNIPPET_MARK.start}, StopSel=${SNIPPET_MARK.end}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * The SQL condition of one date filter bound (fileListQuerySchema): a calendar day covers
 * the whole UTC day, whatever the session's time zone; an instant is the exact bound.
 */
function dateBoundCondition(value: string, side: 'start' | 'end', param: (value: unknown) => string): string {
  const what = side === 'start' ? 'Start date' : 'End date';
  // A day PostgreSQL holds (no 30 February, no year 0, which JavaScript's Date accepts).
  if (value.length > 10) {
    const instant = new Date(value);
    if (Number.isNaN(instant.getTime()) || !isCalendarDate(value.slice(0, 10))) throw new Invalid(`${what} must be a valid date`);
    return `f.uploaded_at ${side === 'start' ? '>=' : '<='} ${param(instant.toISOString())}::timestamptz`;
  }
  if (!isCalendarDate(value)) throw new Invalid(`${what} must be a valid date (YYYY-MM-DD)`);
  return side === 'start'
    ? `f.uploaded_at >= (${param(value)}::date)::timestamp AT TIME ZONE 'UTC'`
    : `f.uploaded_at < (${param(value)}::date + 1)::timestamp AT TIME ZONE 'UTC'`;
}

/** The reply's columns of `files f` (with the names as `c` and `r` know them). */
const COLUMNS = `f.id, f.original_name, f.filename, f.mime_type, f.size, f.client_id, c.name AS client_name, f.file_type, f.document_type,
  f.report_type_id, r.name AS report_type_name, f.uploaded_by_id, f.uploader_name,
  ${TIMESTAMP_SQL('f.uploaded_at')} AS uploaded_at, ${TIMESTAMP_SQL('f.created_at')} AS created_at, ${TIMESTAMP_SQL('f.processed_at')} AS processed_at,
  f.storage, f.storage_key,
  (SELECT json_build_object('invoiceId', h.invoice_id, 'invoiceNumber', h.invoice_number) FROM file_payment_holds h WHERE h.file_id = f.id AND h.released_at IS NULL) AS waiting_for_payment`;

/** The reply's fields as JSON built by PostgreSQL, for lists (no row is parsed or re-serialised in Node). */
const PORTAL_FILE_BASE_JSON = `json_build_object('id', f.id, 'originalName', f.original_name, 'filename', f.filename, 'mimeType', f.mime_type,
  'size', f.size, 'clientId', f.client_id, 'clientName', c.name, 'fileType', f.file_type, 'documentType', f.document_type,
  'reportTypeId', f.report_type_id, 'reportTypeName', r.name, 'uploadedById', f.uploaded_by_id, 'uploaderName', f.uploader_name,
  'uploadedAt', ${TIMESTAMP_SQL('f.uploaded_at')}, 'createdAt', ${TIMESTAMP_SQL('f.created_at')}, 'processedAt', ${TIMESTAMP_SQL('f.processed_at')})`;
/** With `waitingForPayment` only on a file waiting for an invoice's payment (the rare case pays for the jsonb merge). */
const PORTAL_FILE_JSON = `coalesce((SELECT (${PORTAL_FILE_BASE_JSON}::jsonb || jsonb_build_object('waitingForPayment',
    jsonb_build_object('invoiceId', h.invoice_id, 'invoiceNumber', h.invoice_number)))::json
  FROM file_payment_holds h WHERE h.file_id = f.id AND h.released_at IS NULL), ${PORTAL_FILE_BASE_JSON})`;

/** What a search's plan is made for: whether it may take a window, and the share of the firm's files its conditions keep (null: all). */
interface SearchPlanScope {
  windowed: boolean;
  share: { condition: string; values: unknown[] } | null;
}

export interface FileListPage {
  /** The page as a JSON array, ready to send. */
  json: string;
  files: PortalFile[];
  total: number;
  /** A search's total stops at SEARCH_CANDIDATES: more files may match. */
  capped: boolean;
}

/**
 * The firm's files. Every read takes the caller's scope and applies the one visibility
 * condition in SQL, so list, search, get, links and delete agree on what exists.
 */
export class FileStore {
  readonly #clients: string;
  readonly #reportTypes: string;
  readonly #select: string;

  /** `tables`: the directory read model's tables, for the names beside each file. */
  constructor(tables: { clients: string; reportTypes: string }) {
    this.#clients = tables.clients;
    this.#reportTypes = tables.reportTypes;
    this.#select = `SELECT ${COLUMNS}`;
  }

  #joins(): string {
    // A deleted client or report type keeps its last name (tombstone) beside old files.
    return `FROM files f LEFT JOIN ${this.#clients} c ON c.id = f.client_id LEFT JOIN ${this.#reportTypes} r ON r.id = f.report_type_id`;
  }

  async insert(tx: Queryable, file: NewFile): Promise<StoredFile> {
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO files (original_name, filename, mime_type, size, client_id, file_type, document_type, report_type_id,
         uploaded_by_id, uploader_name, storage, storage_key, search_vector, rank_vector)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, ${NAME_VECTOR('$1::text')}, ${NAME_VECTOR('$1::text')}) RETURNING id`,
      [file.originalName, file.filename, file.mimeType, file.size, file.clientId, file.fileType, file.documentType, file.reportTypeId,
        file.uploadedById, file.uploaderName, file.location.kind === 'object' ? 'object' : 'google_drive',
        file.location.kind === 'object' ? file.location.key : file.location.fileId],
    );
    return (await this.find(tx, rows[0]!.id))!;
  }

  /** Any file by id, whoever asks (background work); null when missing. */
  async find(db: Queryable, id: number): Promise<StoredFile | null> {
    const { rows } = await db.query<FileRow>(`${this.#select} ${this.#joins()} WHERE f.id = $1`, [id]);
    return rows[0] ? toFile(rows[0]) : null;
  }

  /** A file the scope may see; null when missing or hidden (the caller answers 404 either way). */
  async findVisible(db: Queryable, scope: AccessScope, id: number): Promise<StoredFile | null> {
    const params: unknown[] = [id];
    const visible = visibilityCondition(scope, params);
    const { rows } = await db.query<FileRow>(`${this.#select} ${this.#joins()} WHERE f.id = $1${visible ? ` AND ${visible}` : ''}`, params);
    return rows[0] ? toFile(rows[0]) : null;
  }

  /**
   * GET /api/files: newest first, or with `search` best match first (name words weigh more
   * than content words) with a snippet of the matching passage.
   */
  async list(db: SchemaDb, scope: AccessScope, q: FileListQuery): Promise<FileListPage> {
    const params: unknown[] = [];
    const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
    const where: string[] = [];
    const visible = visibilityCondition(scope, params);
    if (visible) where.push(visible);
    if (q.clientId !== undefined) where.push(`f.client_id = ${param(q.clientId)}`);
    if (q.reportTypeId !== undefined) where.push(`f.report_type_id = ${param(q.reportTypeId)}`);
    if (q.fileType !== undefined) where.push(`f.file_type = ${param(q.fileType)}`);
    if (q.startDate) where.push(dateBoundCondition(q.startDate, 'start', param));
    if (q.endDate) where.push(dateBoundCondition(q.endDate, 'end', param));

    const query = q.search ? toTsQuery(q.search) : null;
    if (q.search && !query) return { json: '[]', files: [], total: 0, capped: false };
    if (!query) {
      const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
      // Without dates the per-group counters answer exactly (they carry every column the filter reads).
      const countSql = q.startDate || q.endDate
        ? `SELECT count(*)::int AS total FROM files f ${filter}`
        : `SELECT coalesce(sum(f.files), 0)::int AS total FROM file_counts f ${filter}`;
      const countParams = [...params];
      const [page, count] = await Promise.all([
        db.query<{ page: string }>(
          `SELECT coalesce(json_agg(p.file ORDER BY p.uploaded_at DESC, p.id DESC), '[]')::text AS page FROM (
             SELECT f.id, f.uploaded_at, ${PORTAL_FILE_JSON} AS file ${this.#joins()} ${filter}
             ORDER BY f.uploaded_at DESC, f.id DESC LIMIT ${param(q.limit)} OFFSET ${param(q.offset)}) p`, params),
        db.query<{ total: number }>(countSql, countParams),
      ]);
      const json = page.rows[0]?.page ?? '[]';
      return { json, get files() { return JSON.parse(json) as PortalFile[]; }, total: count.rows[0]?.total ?? 0, capped: false };
    }

    const filters = where.length ? where.join(' AND ') : 'true';
    const filterValues = [...params];
    const tsquery = `to_tsquery('simple', ${param(query)})`;
    // Date bounds are not in the per-group counters the plan sizes its window with: a dated
    // search is planned for the whole firm and takes no window.
    const dated = Boolean(q.startDate || q.endDate);
    const planScope: SearchPlanScope = { windowed: !dated, share: !dated && where.length ? { condition: filters, values: filterValues } : null };
    // The candidates under the plan's planner settings in a transaction of their own; the page
    // after it, planned as usual (it reads 25 rows by id).
    const ranked = await db.transaction(async (tx) => {
      const plan = await this.#searchPlan(tx, query, planScope);
      // The newest matching files (within `condition`), at most SEARCH_CANDIDATES, ranked: their ids in order.
      const candidates = async (condition: string, values: unknown[]) => (await tx.query<{ id: number }>(
        `WITH candidates AS MATERIALIZED (
           SELECT f.id, f.uploaded_at, f.rank_vector FROM files f WHERE ${condition}
           ORDER BY f.uploaded_at DESC, f.id DESC LIMIT ${SEARCH_CANDIDATES})
         SELECT id FROM candidates ORDER BY ts_rank(rank_vector, ${tsquery}) DESC, uploaded_at DESC, id DESC`, values)).rows;
      if (plan.shape === 'walk') return candidates(`(${filters} AND f.search_vector @@ ${tsquery}) IS TRUE`, params);
      const matching = `f.search_vector @@ ${tsquery} AND ${filters}`;
      if (plan.since) {
        // Every file outside the window is older than every file in it: a window holding all
        // the candidates a search takes holds the same ones the whole firm would give.
        const inWindow = await candidates(`${matching} AND f.uploaded_at >= $${params.length + 1}::timestamptz`, [...params, plan.since]);
        if (inWindow.length === SEARCH_CANDIDATES) return inWindow;
      }
      return candidates(matching, params);
    });
    const total = ranked.length;
    const pageIds = ranked.slice(q.offset, q.offset + q.limit).map((r) => r.id);
    if (pageIds.length === 0) return { json: '[]', files: [], total, capped: total >= SEARCH_CANDIDATES };
    const page = await db.query<FileRow & { snippet: string | null }>(
      `SELECT ${COLUMNS},
         CASE WHEN f.id = ANY($3::int[]) AND fc.extracted_text <> ''
           THEN ts_headline('simple', left(fc.extracted_text, ${SNIPPET_SOURCE_CHARS}), to_tsquery('simple', $1), '${HEADLINE_OPTIONS}') END AS snippet
       FROM files f LEFT JOIN file_contents fc ON fc.file_id = f.id
         LEFT JOIN ${this.#clients} c ON c.id = f.client_id LEFT JOIN ${this.#reportTypes} r ON r.id = f.report_type_id
       WHERE f.id = ANY($2::int[])`, [query, pageIds, pageIds.slice(0, CONTENT_SNIPPETS_PER_PAGE)]);
    const byId = new Map(page.rows.map((row) => [row.id, row]));
    const words = searchWords(q.search!);
    const files = pageIds.flatMap((id) => {
      const row = byId.get(id);
      if (!row) return [];
      // The passage of the content that matched; else the name with its matching words marked.
      const snippet = row.snippet?.includes(SNIPPET_MARK.start) ? row.snippet : highlightName(row.original_name, words);
      return [{ ...toPortalFile(row), snippet }];
    });
    return { json: JSON.stringify(files), files, total, capped: total >= SEARCH_CANDIDATES };
  }

  /**
   * How to find the newest matches, decided in one round trip by the migrations'
   * files_search_plan, which also sets the plan's planner settings for the transaction.
   * A document's vector is stored out of line, and the planner prices reading it like any
   * operator, so it must not choose: when a fair share of the files match (PostgreSQL's
   * own estimate, from its statistics), walking the newest files and testing the cheap
   * conditions before the vector finds enough within a few thousand rows; when few match,
   * the GIN index lists them without reading any vector. The crossing point is where
   * reading 1/d vectors costs what visiting d·N rows does (d ≈ 0.15 at 100,000 files).
   * Between the two (enough matches in all, too sparse to walk) the index's list is
   * narrowed to a window of the newest files expected to hold WINDOW_SPARE times the
   * candidates (`since`), which spares fetching and sorting every older match; a window that
   * holds fewer gives way to the whole firm.
   *
   * A caller who sees or asks for a share of the files (a CPA's lists, a client filter) needs
   * 1/share times the matches: `scope.share` (the list's conditions) gives that share from the
   * per-group counters, and the candidates and density the plan weighs are scaled by it, so
   * the walk, the index and the window are chosen for the files this caller can find.
   */
  async #searchPlan(tx: Queryable, query: string, scope: SearchPlanScope): Promise<{ shape: 'walk' | 'bitmap'; since?: string | null }> {
    const values = scope.share ? [...scope.share.values] : [];
    const param = (value: unknown) => { values.push(value); return `$${values.length}`; };
    const share = scope.share
      ? `(SELECT CASE WHEN coalesce(sum(f.files), 0) = 0 THEN 1
           ELSE greatest(coalesce(sum(f.files) FILTER (WHERE ${scope.share.condition}), 0), 1)::float8 / sum(f.files) END FROM file_counts f)`
      : '1::float8';
    const { rows } = await tx.query<{ plan: { shape: 'walk' | 'bitmap'; since?: string | null } }>(
      `SELECT files_search_plan(to_tsquery('simple', ${param(query)}), least(ceil(${param(SEARCH_CANDIDATES)} / s.share), 1e9)::int,
         ${param(WALK_MIN_DENSITY)} / s.share, ${param(WINDOW_SPARE)}) AS plan FROM (SELECT ${share} AS share) s`, values);
    const plan = rows[0]!.plan;
    return scope.windowed ? plan : { shape: plan.shape };
  }

  async delete(tx: Queryable, id: number): Promise<boolean> {
    return (await tx.query('DELETE FROM files WHERE id = $1', [id])).rowCount > 0;
  }

  async deleteMany(tx: Queryable, ids: readonly number[]): Promise<void> {
    await tx.query('DELETE FROM files WHERE id = ANY($1::int[])', [ids]);
  }

  /** Ids of the files the scope may see whose content was never extracted. */
  async unprocessedIds(db: Queryable, scope: AccessScope): Promise<number[]> {
    const params: unknown[] = [];
    const visible = visibilityCondition(scope, params);
    const { rows } = await db.query<{ id: number }>(`SELECT f.id FROM files f WHERE f.processed_at IS NULL${visible ? ` AND ${visible}` : ''} ORDER BY f.id`, params);
    return rows.map((r) => r.id);
  }

  /** Files of one client (it was deleted in the directory), at most `limit` at a time. */
  async ofClient(db: Queryable, clientId: number, limit: number): Promise<StoredFile[]> {
    const { rows } = await db.query<FileRow>(`${this.#select} ${this.#joins()} WHERE f.client_id = $1 ORDER BY f.id LIMIT $2`, [clientId, limit]);
    return rows.map(toFile);
  }

  /**
   * Stores extracted text once per file (the first extraction wins) and folds it into
   * the search vector; false when the file is gone or already processed.
   */
  async saveContent(tx: Queryable, fileId: number, text: string, indexedChars: number): Promise<{ processedAt: string } | null> {
    const { rows } = await tx.query<{ processed_at: Date | string }>(
      `UPDATE files SET processed_at = now(),
         search_vector = ${NAME_VECTOR('original_name')} || setweight(to_tsvector('simple', ${WORDS_SQL('left($2::text, $3)')}), 'B'),
         rank_vector = ${NAME_VECTOR('original_name')} || setweight(to_tsvector('simple', ${WORDS_SQL(`left($2::text, least($3, ${RANK_CONTENT_CHARS}))`)}), 'B')
       WHERE id = $1 AND processed_at IS NULL RETURNING processed_at`,
      [fileId, text, indexedChars],
    );
    if (!rows[0]) return null;
    await tx.query(
      `INSERT INTO file_contents (file_id, extracted_text, processed_at) VALUES ($1, $2, $3)
       ON CONFLICT (file_id) DO UPDATE SET extracted_text = EXCLUDED.extracted_text, processed_at = EXCLUDED.processed_at`,
      [fileId, text, rows[0].processed_at],
    );
    return { processedAt: iso(rows[0].processed_at) };
  }
}
