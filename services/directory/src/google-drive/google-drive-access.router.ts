import express, { type Request, type Response, type Router } from 'express';
import { canReadClient } from '@ledgerline/kit/access/access-scope.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import type { ServiceTenants, TenantHandle } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { idParamSchema } from '@ledgerline/contracts/identity.contracts.ts';
import { DRIVE_ACCESS_ASSERTION_HEADER, driveAccessPath, type DriveAccessAssertion } from '@ledgerline/contracts/directory.contracts.ts';
import { CLIENT_NOT_FOUND } from '../clients/client.store.ts';
import type { GoogleDriveService } from './google-drive.service.ts';

/**
 * GET /internal/clients/:id/google-drive/access on the service port only (the gateway
 * routes /api and a few named paths, never /internal). Two callers: a user's request the
 * files service forwards (their bearer token; they must be able to read the client), or
 * the files service's own background work with a service assertion signed by the key
 * both services derive from the portal's master key.
 */
export function createGoogleDriveAccessRouter(deps: { drive: GoogleDriveService; tokens: TokenVerifier; tenants: ServiceTenants; assertions: TokenSigner<DriveAccessAssertion> }): Router {
  const { drive, tenants, assertions } = deps;
  const router = express.Router();
  const user = authenticate(deps.tokens);

  const forUser = async (req: Request, res: Response, clientId: number): Promise<TenantHandle> => {
    await new Promise<void>((resolve, reject) => {
      Promise.resolve(user(req, res, (err?: unknown) => (err ? reject(err) : resolve()))).catch(reject);
    });
    const t = await tenants.ofRequest(res);
    // As everywhere: a client outside the caller's list answers as missing.
    if (!canReadClient(t.scope, clientId)) throw new NotFound(CLIENT_NOT_FOUND);
    return t;
  };

  router.get(driveAccessPath(':id'), async (req, res) => {
    const clientId = parseInput(idParamSchema, req.params.id);
    const assertion = req.header(DRIVE_ACCESS_ASSERTION_HEADER);
    let t: TenantHandle;
    if (assertion) {
      const claims = assertions.verify(assertion);
      if (!claims || claims.c !== clientId) throw new Forbidden('This service assertion is invalid or has expired.');
      t = await tenants.byName(claims.t);
    } else {
      t = await forUser(req, res, clientId);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(await drive.accessFor(t, clientId));
  });
  return router;
}
