import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { fileTextPath, type FileText } from '@ledgerline/contracts/files.contracts.ts';
import type { FileService } from './file.service.ts';
import { FILE_MESSAGES } from './file-rules.ts';

const readText = async (db: Queryable, fileId: number): Promise<string> => {
  const r = await db.query<{ text: string }>('SELECT extracted_text AS text FROM file_contents WHERE file_id = $1', [fileId]);
  return r.rows[0]?.text ?? '';
};

/**
 * GET /internal/files/:id/text on the service port only (the gateway never routes
 * /internal): the chat service forwards the asking user's token, so the file is
 * readable exactly when the user could open it here (same 404 for hidden and missing).
 */
export function createFileTextRouter(deps: { tokens: TokenVerifier; tenants: ServiceTenants; service: FileService }): Router {
  const router = express.Router();
  router.get(fileTextPath(':id'), authenticate(deps.tokens), async (req, res) => {
    const t = await deps.tenants.ofRequest(res);
    const file = await deps.service.visible(t, parsePathId(String(req.params.id), FILE_MESSAGES.notFound));
    const version = file.processedAt;
    const have = typeof req.query.have === 'string' ? req.query.have : undefined;
    const reply: FileText = {
      file: { id: file.id, originalName: file.originalName, clientId: file.clientId, clientName: file.clientName, fileType: file.fileType },
      version,
      ...(version !== null && have !== version ? { text: await readText(t.db, file.id) } : {}),
    };
    res.setHeader('Cache-Control', 'no-store');
    res.json(reply);
  });
  return router;
}
