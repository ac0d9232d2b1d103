import type { Queryable, SchemaDb } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';
import type { AiPassage } from './ai-assistant.ts';

/** A passage is a run of whole lines up to this long (a longer line is cut at a space). */
export const PASSAGE_MAX_CHARS = 600;

/**
 * PostgreSQL's `english` configuration for questions in natural language: 'What is the
 * total?' looks for `total`, not for `what` or `the`, and 'totals' finds 'Total'.
 */
const TEXT_SEARCH_CONFIG = 'english';

/** `q.query`: any word of the question ($2) may match (OR); the rank rewards passages holding more of them. */
const QUESTION_QUERY = `q AS (
  SELECT (SELECT string_agg(quote_literal(l), ' | ') FROM unnest(tsvector_to_array(to_tsvector('${TEXT_SEARCH_CONFIG}', $2))) AS l)::tsquery AS query
)`;

export interface RankedPassage extends AiPassage {
  rank: number;
}

/**
 * Splits text into passages of whole lines, remembering the line each starts on. Within a
 * passage, lines are joined by '\n' (so line numbers can be counted in it) and the pieces
 * of one cut line by a space.
 */
export function splitPassages(text: string, maxChars = PASSAGE_MAX_CHARS): AiPassage[] {
  const passages: AiPassage[] = [];
  let current = '';
  let startLine = 1;
  let lastLine = 0;
  const flush = () => {
    if (current.trim()) passages.push({ line: startLine, text: current });
    current = '';
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const lineNo = i + 1;
    for (const piece of cutLine(raw, maxChars)) {
      if (current && current.length + 1 + piece.length > maxChars) flush();
      if (!current) {
        startLine = lineNo;
        current = piece;
      } else {
        // A blank line at the start of a passage is dropped by trim() below, never counted.
        current += (lastLine === lineNo ? ' ' : '\n'.repeat(lineNo - lastLine)) + piece;
      }
      lastLine = lineNo;
    }
    if (!current.trim()) current = ''; // leading blank lines: the passage starts at the next line with text
  });
  flush();
  return passages;
}

function cutLine(line: string, maxChars: number): string[] {
  if (line.length <= maxChars) return [line];
  const out: string[] = [];
  let rest = line;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const at = space > maxChars / 2 ? space : maxChars;
    out.push(rest.slice(0, at));
    rest = rest.slice(at).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

export interface PassageIndex {
  /** Tenant-scoped tables `<service>_passage_sources` and `<service>_passages`: include in the service's migrations. */
  migrations: ServiceMigrations;
  /**
   * Makes the index hold `text` for the source at `version` (e.g. when its text was
   * extracted); a no-op when it already does. Concurrent callers index once.
   */
  ensure(db: SchemaDb, sourceId: number, version: string, text: string): Promise<void>;
  /** The version the index holds for the source, if any. */
  version(db: Queryable, sourceId: number): Promise<string | null>;
  /** The source's passages best matching the question, best first (none match: empty). */
  rank(db: Queryable, sourceId: number, question: string, limit: number): Promise<RankedPassage[]>;
  /** The source's first passages in document order (context for questions about the whole document). */
  leading(db: Queryable, sourceId: number, limit: number): Promise<AiPassage[]>;
  /** Forgets a source (e.g. the file was deleted). */
  drop(tx: Queryable, sourceId: number): Promise<void>;
}

/**
 * DESIGN §7 "ai": retrieval by PostgreSQL full-text ranking over a document's passages,
 * the same on PGlite and PostgreSQL. Passages and their vectors are kept per source
 * version, so a question on a 1 MB document ranks through a GIN index instead of
 * re-parsing the text every time.
 */
export function createPassageIndex(service: string): PassageIndex {
  if (!/^[a-z][a-z0-9_]*$/.test(service)) throw new Error(`Invalid service name for a table: ${service}`);
  const sources = `${service}_passage_sources`;
  const passages = `${service}_passages`;

  return {
    migrations: {
      service: `${service}-passages`,
      scope: 'tenant',
      migrations: [{
        id: '001_passages',
        sql: `CREATE TABLE ${sources} (source_id integer PRIMARY KEY, version text NOT NULL);
          CREATE TABLE ${passages} (
            source_id integer NOT NULL REFERENCES ${sources} (source_id) ON DELETE CASCADE,
            ordinal integer NOT NULL,
            line integer NOT NULL,
            content text NOT NULL,
            vector tsvector NOT NULL,
            PRIMARY KEY (source_id, ordinal)
          );
          CREATE INDEX ${passages}_vector ON ${passages} USING gin (vector);`,
      }],
    },

    async ensure(db, sourceId, version, text) {
      if (await this.version(db, sourceId) === version) return;
      await db.transaction(async (tx) => {
        await tx.query(`INSERT INTO ${sources} (source_id, version) VALUES ($1, '') ON CONFLICT (source_id) DO NOTHING`, [sourceId]);
        // The row lock serialises concurrent first questions; the loser finds the work done.
        const locked = await tx.query<{ version: string }>(`SELECT version FROM ${sources} WHERE source_id = $1 FOR UPDATE`, [sourceId]);
        if (locked.rows[0]?.version === version) return;
        await tx.query(`DELETE FROM ${passages} WHERE source_id = $1`, [sourceId]);
        const split = splitPassages(text);
        if (split.length) {
          await tx.query(
            `INSERT INTO ${passages} (source_id, ordinal, line, content, vector)
             SELECT $1, p.ordinal, p.line, p.content, to_tsvector('${TEXT_SEARCH_CONFIG}', p.content)
             FROM unnest($2::int[], $3::text[]) WITH ORDINALITY AS p(line, content, ordinal)`,
            [sourceId, split.map((p) => p.line), split.map((p) => p.text)],
          );
        }
        await tx.query(`UPDATE ${sources} SET version = $2 WHERE source_id = $1`, [sourceId, version]);
      });
    },

    async version(db, sourceId) {
      const r = await db.query<{ version: string }>(`SELECT version FROM ${sources} WHERE source_id = $1`, [sourceId]);
      return r.rows[0]?.version || null;
    },

    async rank(db, sourceId, question, limit) {
      const r = await db.query<{ line: number; content: string; rank: number }>(
        `WITH ${QUESTION_QUERY}
         SELECT p.line, p.content, ts_rank(p.vector, q.query, 1) AS rank
         FROM ${passages} p, q
         WHERE p.source_id = $1 AND q.query IS NOT NULL AND p.vector @@ q.query
         ORDER BY rank DESC, p.ordinal
         LIMIT $3`,
        [sourceId, question, limit],
      );
      return r.rows.map((row) => ({ line: row.line, text: row.content, rank: Number(row.rank) }));
    },

    async leading(db, sourceId, limit) {
      const r = await db.query<{ line: number; content: string }>(
        `SELECT line, content FROM ${passages} WHERE source_id = $1 ORDER BY ordinal LIMIT $2`, [sourceId, limit]);
      return r.rows.map((row) => ({ line: row.line, text: row.content }));
    },

    async drop(tx, sourceId) {
      await tx.query(`DELETE FROM ${sources} WHERE source_id = $1`, [sourceId]);
    },
  };
}
