import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Forbidden, NotFound } from '@ledgerline/kit/errors.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { FILE_TEXT_ASSERTION_HEADER, fileTextPath, type FileText, type FileTextAssertion } from '@ledgerline/contracts/files.contracts.ts';
import type { FileService } from './file.service.ts';
import type { FileStore, StoredFile } from './file.store.ts';
import { FILE_MESSAGES } from './file-rules.ts';

const readText = async (db: Queryable, fileId: number): Promise<string> => {
  const r = await db.query<{ text: string }>('SELECT extracted_text AS text FROM file_contents WHERE file_id = $1', [fileId]);
  return r.rows[0]?.text ?? '';
};

const reply = async (db: Queryable, file: StoredFile, have: string | undefined): Promise<FileText> => {
  const version = file.processedAt;
  return {
    file: { id: file.id, originalName: file.originalName, clientId: file.clientId, clientName: file.clientName, fileType: file.fileType },
    version,
    ...(version !== null && have !== version ? { text: await readText(db, file.id) } : {}),
  };
};

/**
 * GET /internal/files/:id/text on the service port only (the gateway never routes
 * /internal). The chat service forwards the asking user's token, so the file is readable
 * exactly when the user could open it here (same 404 for hidden and missing). The
 * insights service, reading reports with no user behind it, sends a service assertion
 * naming the firm and the file instead (FILE_TEXT_ASSERTION_HEADER).
 */
export function createFileTextRouter(deps: { tokens: TokenVerifier; tenants: ServiceTenants; service: FileService; files: FileStore; assertions: TokenSigner<FileTextAssertion> }): Router {
  const router = express.Router();
  const path = fileTextPath(':id');
  router.get(path, async (req, res, next) => {
    const assertion = req.header(FILE_TEXT_ASSERTION_HEADER);
    if (!assertion) { next(); return; }
    const fileId = parsePathId(String(req.params.id), FILE_MESSAGES.notFound);
    const claims = deps.assertions.verify(assertion);
    if (!claims || claims.f !== fileId) throw new Forbidden('This service assertion is invalid or has expired.');
    const t = await deps.tenants.byName(claims.t);
    const file = await deps.files.find(t.db, fileId);
    if (!file) throw new NotFound(FILE_MESSAGES.notFound);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await reply(t.db, file, undefined));
  });
  router.get(path, authenticate(deps.tokens, deps.tenants.checkCaller), async (req, res) => {
    const t = await deps.tenants.ofRequest(res);
    // A document waiting for payment is not read to its client's user by chat either.
    const file = await deps.service.openable(t, parsePathId(String(req.params.id), FILE_MESSAGES.notFound));
    const have = typeof req.query.have === 'string' ? req.query.have : undefined;
    res.setHeader('Cache-Control', 'no-store');
    res.json(await reply(t.db, file, have));
  });
  return router;
}
