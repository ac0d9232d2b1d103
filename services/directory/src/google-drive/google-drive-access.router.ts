import express, { type Router } from 'express';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { Forbidden } from '@ledgerline/kit/errors.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { DRIVE_ACCESS_ASSERTION_HEADER, driveAccessPath, type DriveAccessAssertion } from '@ledgerline/contracts/directory.contracts.ts';
import { CLIENT_NOT_FOUND } from '../clients/client.store.ts';
import type { GoogleDriveService } from './google-drive.service.ts';

/**
 * GET /internal/clients/:id/google-drive/access on the service port only (the gateway
 * routes /api and a few named paths, never /internal), for the files service alone: it
 * sends an assertion signed with the key both services derive from the portal's master
 * key, naming the firm and the client, after checking its own caller's reach. A user's
 * token is not enough, whoever the user: a Drive access token opens the client's whole
 * folder.
 */
export function createGoogleDriveAccessRouter(deps: { drive: GoogleDriveService; tenants: ServiceTenants; assertions: TokenSigner<DriveAccessAssertion> }): Router {
  const { drive, tenants, assertions } = deps;
  const router = express.Router();

  router.get(driveAccessPath(':id'), async (req, res) => {
    const clientId = parsePathId(req.params.id, CLIENT_NOT_FOUND);
    const assertion = req.header(DRIVE_ACCESS_ASSERTION_HEADER);
    if (!assertion) throw new Forbidden('Google Drive access is for the files service only.');
    const claims = assertions.verify(assertion);
    if (!claims || claims.c !== clientId) throw new Forbidden('This service assertion is invalid or has expired.');
    const t = await tenants.byName(claims.t);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await drive.accessFor(t, clientId));
  });
  return router;
}
