import express, { type Router } from 'express';
import { z } from 'zod';
import type { TokenVerifier } from '../auth/token-verifier.ts';
import type { Database } from '../db/database.ts';
import { migrateTenant, type ServiceMigrations } from '../db/migrations.ts';
import { Forbidden } from '../errors.ts';
import { authenticate, authOf, CHECKED_BY_IDENTITY } from '../http/authenticate.ts';
import { parseInput } from '../http/validate.ts';
import { INTERNAL_MIGRATE_PATH, INTERNAL_MIGRATION_PROGRESS_PATH } from './tenant-events.ts';
import type { TenantMigrationGate } from './tenant-migration-gate.ts';

const bodySchema = z.object({
  schemaName: z.string().min(1),
  // An imported firm is first brought to the versions its archive was made at: the ids per
  // service to apply (a service missing here applies all of its own).
  only: z.record(z.string(), z.array(z.string())).optional(),
});

/**
 * Every service migrates its own tables in a tenant schema when identity asks (tenant
 * creation and the spec's "refresh schema"). Only platform administrators may ask; the
 * path is on the service port only.
 */
export function createTenantMigrationRouter(db: Database, tokens: TokenVerifier, sets: readonly ServiceMigrations[], gate?: TenantMigrationGate): Router {
  const router = express.Router();
  router.post(INTERNAL_MIGRATE_PATH, authenticate(tokens, CHECKED_BY_IDENTITY), async (req, res) => {
    if (!authOf(res).claims.platformAdmin) throw new Forbidden('Only platform administrators can migrate tenant schemas.');
    const { schemaName, only } = parseInput(bodySchema, req.body);
    const chosen = only ? sets.map((s) => (only[s.service] ? { ...s, migrations: s.migrations.filter((m) => only[s.service]!.includes(m.id)) } : s)) : sets;
    const actions = await migrateTenant(db, schemaName, chosen);
    // A firm closed since start because its migration failed opens once a refresh has run them all.
    if (!only) gate?.opened(schemaName);
    res.json({ actions });
  });
  // The firms this service still keeps closed since its start (none without a gate: identity migrates before it listens).
  router.get(INTERNAL_MIGRATION_PROGRESS_PATH, authenticate(tokens, CHECKED_BY_IDENTITY), (_req, res) => {
    if (!authOf(res).claims.platformAdmin) throw new Forbidden('Only platform administrators can see tenant schema migrations.');
    res.json(gate?.progress() ?? { behind: 0, pending: 0, firms: [] });
  });
  return router;
}
