import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Router } from 'express';
import { z } from 'zod';
import type { TokenVerifier } from '../auth/token-verifier.ts';
import type { Database } from '../db/database.ts';
import type { ServiceMigrations } from '../db/migrations.ts';
import { tenantSchema } from '../db/tenant-schema.ts';
import { DomainError, Forbidden } from '../errors.ts';
import { authenticate, authOf, CHECKED_BY_IDENTITY } from '../http/authenticate.ts';
import { parseInput } from '../http/validate.ts';
import type { Logger } from '../logger.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { tablePortability, type ServicePortability } from './portability.ts';
import { tablesOwnedBy } from './service-tables.ts';
import { readTar, TarWriter } from './tar-archive.ts';

/** Every service's internal portability calls (service port only; identity runs firm exports and imports). */
export const INTERNAL_PORTABILITY_PATH = '/internal/portability';

/**
 * The last entry of a service's part when its export was refused between two entries
 * (`{ message }`): the firm export fails with that message instead of "truncated".
 */
export const EXPORT_REFUSED_ENTRY = '.export-refused.json';

const schemaQuery = z.object({ schemaName: z.string().min(1) });
const readableQuery = z.object({
  schemaName: z.string().min(1), shortName: z.string().min(1), timeZone: z.string().min(1),
  /** 'true' when the caller may see whole tax IDs (identity decides); anything else masks them. */
  revealTaxIds: z.enum(['true', 'false']).optional(),
});
const importQuery = z.object({ schemaName: z.string().min(1), sourceSchema: z.string().min(1) });

/**
 * Runs a service's portability hooks for identity: `GET export` streams the service's part
 * of a firm as a tar, `GET readable` its part of the firm's readable copy, `POST import` restores one from the request body, `POST discard`
 * removes what a failed import left outside the schema. Platform administrators only.
 */
export function createPortabilityRouter(deps: {
  service: string;
  db: Database;
  storage: ObjectStore;
  tokens: TokenVerifier;
  logger: Logger;
  migrations: readonly ServiceMigrations[];
  hooks?: ServicePortability;
}): Router {
  const hooks = deps.hooks ?? tablePortability;
  const { service, db, storage } = deps;
  let tables: Promise<string[]> | undefined;
  // Found once per process: the migrations do not change while it runs.
  const ownTables = () => (tables ??= tablesOwnedBy(db, deps.migrations).catch((err: unknown) => { tables = undefined; throw err; }));
  const migrationSets = deps.migrations.filter((s) => s.scope === 'tenant').map((s) => s.service);
  const router = express.Router();
  const admin: express.RequestHandler = (_req, res, next) => {
    if (!authOf(res).claims.platformAdmin) throw new Forbidden('Only platform administrators can move firms.');
    next();
  };

  router.get(`${INTERNAL_PORTABILITY_PATH}/export`, authenticate(deps.tokens, CHECKED_BY_IDENTITY), admin, async (req, res) => {
    const { schemaName } = parseInput(schemaQuery, req.query);
    const schema = db.forSchema(tenantSchema(schemaName));
    const owned = await ownTables();
    res.setHeader('content-type', 'application/x-tar');
    const out = new PassThrough();
    const sent = pipeline(out, res);
    const tar = new TarWriter(out);
    try {
      await hooks.export({ service, db: schema, storage, tables: owned, migrationSets, write: (name, size, body) => tar.add(name, size, body) });
      await tar.finish();
      out.end();
    } catch (err) {
      deps.logger.error({ err, schemaName }, 'export failed');
      if (err instanceof DomainError && tar.betweenEntries) {
        const refusal = Buffer.from(JSON.stringify({ message: err.message }));
        await tar.add(EXPORT_REFUSED_ENTRY, refusal.length, refusal);
        await tar.finish();
        out.end();
      } else {
        // Headers are gone: cutting the stream short is how the reader learns it failed (no end marker).
        out.destroy(err as Error);
      }
    }
    await sent.catch(() => undefined);
  });

  // The service's part of a firm's readable copy (ServicePortability.readable), as a tar.
  router.get(`${INTERNAL_PORTABILITY_PATH}/readable`, authenticate(deps.tokens, CHECKED_BY_IDENTITY), admin, async (req, res) => {
    const { schemaName, shortName, timeZone, revealTaxIds } = parseInput(readableQuery, req.query);
    res.setHeader('content-type', 'application/x-tar');
    const out = new PassThrough();
    const sent = pipeline(out, res);
    const tar = new TarWriter(out);
    try {
      await hooks.readable?.({ service, db: db.forSchema(tenantSchema(schemaName)), storage, shortName, timeZone, revealTaxIds: revealTaxIds === 'true',
        write: (name, size, body) => tar.add(name, size, body) });
      await tar.finish();
      out.end();
    } catch (err) {
      deps.logger.error({ err, schemaName }, 'readable copy failed');
      // Cut short: the reader learns it failed (no end marker).
      out.destroy(err as Error);
    }
    await sent.catch(() => undefined);
  });

  router.post(`${INTERNAL_PORTABILITY_PATH}/import`, authenticate(deps.tokens, CHECKED_BY_IDENTITY), admin, async (req, res) => {
    const { schemaName, sourceSchema } = parseInput(importQuery, req.query);
    await hooks.import({
      service, db: db.forSchema(tenantSchema(schemaName)), storage, tables: await ownTables(),
      sourceSchema: tenantSchema(sourceSchema), entries: readTar(req),
    });
    res.json({ imported: true });
  });

  // What the service owns that others name by id: the import's reference check.
  router.get(`${INTERNAL_PORTABILITY_PATH}/ids`, authenticate(deps.tokens, CHECKED_BY_IDENTITY), admin, async (req, res) => {
    const { schemaName } = parseInput(schemaQuery, req.query);
    res.json(await hooks.ids?.(db.forSchema(tenantSchema(schemaName))) ?? {});
  });

  // The migrations this version knows, so an archive from a newer one is refused before anything is made.
  router.get(`${INTERNAL_PORTABILITY_PATH}/migrations`, authenticate(deps.tokens, CHECKED_BY_IDENTITY), admin, (_req, res) => {
    res.json(Object.fromEntries(deps.migrations.filter((s) => s.scope === 'tenant').map((s) => [s.service, s.migrations.map((m) => m.id)])));
  });

  router.post(`${INTERNAL_PORTABILITY_PATH}/discard`, authenticate(deps.tokens, CHECKED_BY_IDENTITY), admin, async (req, res) => {
    const { schemaName } = parseInput(schemaQuery, req.query);
    await hooks.discard?.({ service, db: db.forSchema(tenantSchema(schemaName)), storage });
    res.json({ discarded: true });
  });
  return router;
}
