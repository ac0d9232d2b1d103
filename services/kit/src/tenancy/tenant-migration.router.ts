import express, { type Router } from 'express';
import { z } from 'zod';
import type { TokenVerifier } from '../auth/token-verifier.ts';
import type { Database } from '../db/database.ts';
import { migrateTenant, type ServiceMigrations } from '../db/migrations.ts';
import { Forbidden } from '../errors.ts';
import { authenticate, authOf } from '../http/authenticate.ts';
import { parseInput } from '../http/validate.ts';
import { INTERNAL_MIGRATE_PATH } from './tenant-events.ts';

const bodySchema = z.object({ schemaName: z.string().min(1) });

/**
 * Every service migrates its own tables in a tenant schema when identity asks (tenant
 * creation and the spec's "refresh schema"). Only platform administrators may ask; the
 * path is on the service port only.
 */
export function createTenantMigrationRouter(db: Database, tokens: TokenVerifier, sets: readonly ServiceMigrations[]): Router {
  const router = express.Router();
  router.post(INTERNAL_MIGRATE_PATH, authenticate(tokens), async (req, res) => {
    if (!authOf(res).claims.platformAdmin) throw new Forbidden('Only platform administrators can migrate tenant schemas.');
    const { schemaName } = parseInput(bodySchema, req.body);
    res.json({ actions: await migrateTenant(db, schemaName, sets) });
  });
  return router;
}
