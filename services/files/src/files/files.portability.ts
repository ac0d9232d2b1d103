import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, NotFound } from '@ledgerline/kit/errors.ts';
import type { ServicePortability } from '@ledgerline/kit/portability/portability.ts';
import { UnknownEntry } from '@ledgerline/kit/portability/portability.ts';
import { exportTables, inSnapshot, TableImporter } from '@ledgerline/kit/portability/table-portability.ts';

const OBJECT_ENTRY = /^objects\/([0-9a-f-]{36})$/;
const PAGE = 500;

/**
 * The files service's part of a firm: its tables (files with their extracted text and
 * search vectors) and the bytes of every file kept in the object store. Object keys name
 * the firm's schema (`files/<schema>/<uuid>`): the archive holds only the uuid, and the
 * import files the bytes under the new firm's schema. Files kept in a client's Google
 * Drive stay there; their rows come along.
 */
export const filesPortability: ServicePortability = {
  async export(ctx) {
    // The rows and the list of their objects from one snapshot; the bytes are read after it
    // (objects never change under a key, and PGlite waits while a snapshot is open). The
    // list is the one thing held: about a hundred bytes per stored file.
    const objects = await inSnapshot(ctx.db, async (snapshot) => {
      await exportTables(snapshot, ctx.migrationSets, ctx.tables, (name, body) => ctx.write(name, body.length, body), {
        columns: { files: { storage_key: `CASE WHEN t.storage = 'object' THEN ${objectName('t.storage_key')} ELSE t.storage_key END` } },
      });
      const listed: { key: string; name: string }[] = [];
      for await (const o of storedObjects(snapshot)) listed.push(o);
      return listed;
    });
    for (const { key, name } of objects) {
      const { size } = await ctx.storage.stat(key).catch((err: unknown) => {
        throw err instanceof NotFound ? new Conflict(DELETED_DURING_EXPORT) : err;
      });
      await ctx.write(`objects/${name}`, size, await ctx.storage.get(key));
    }
  },
  async import(ctx) {
    const tables = new TableImporter(ctx.db, ctx.tables);
    for await (const entry of ctx.entries) {
      if (await tables.accept(entry)) continue;
      const name = OBJECT_ENTRY.exec(entry.name)?.[1];
      if (!name) throw new UnknownEntry(ctx.service, entry.name);
      await ctx.storage.put(objectKey(ctx.db.schema, name), entry.body);
    }
    await ctx.db.query(`UPDATE files SET storage_key = $1 || storage_key WHERE storage = 'object'`, [objectKey(ctx.db.schema, '')]);
  },
  async discard(ctx) {
    for await (const { name } of storedObjects(ctx.db)) {
      await ctx.storage.delete(objectKey(ctx.db.schema, name)).catch((err: unknown) => { if (!(err instanceof NotFound)) throw err; });
    }
  },
};

const DELETED_DURING_EXPORT = 'A file was deleted while the firm was being exported; start the export again.';

const objectKey = (schema: string, name: string) => `files/${schema}/${name}`;
/** The uuid at the end of an object key (also of a bare uuid, as an unfinished import has it). */
const objectName = (column: string) => `regexp_replace(${column}, '^.*/', '')`;

async function* storedObjects(db: Queryable): AsyncGenerator<{ key: string; name: string }> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<{ id: number; key: string; name: string }>(
      `SELECT id, storage_key AS key, ${objectName('storage_key')} AS name FROM files
       WHERE storage = 'object' AND id > $1 ORDER BY id LIMIT ${PAGE}`, [after]);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}
