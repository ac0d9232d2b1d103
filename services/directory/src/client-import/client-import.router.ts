import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express, { type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { isDomainError } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { LazyEventStream, wantsEventStream } from '@ledgerline/kit/http/event-stream.ts';
import { receiveFile } from '@ledgerline/kit/http/receive-file.ts';
import { parseInput } from '@ledgerline/kit/http/validate.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import { CLIENT_IMPORT_EVENTS, CLIENT_IMPORT_MESSAGES, clientImportFieldsSchema, IMPORT_MAX_BYTES } from '@ledgerline/contracts/client-import.contracts.ts';
import { requireImporter } from '../access-rules.ts';
import type { ClientImportService } from './client-import.service.ts';
import { readImportFile } from './import-file.reader.ts';

/**
 * POST /api/clients/import (and /api/{tenant}/clients/import through the gateway): a CSV
 * or XLSX file, streamed to a temporary file and read whole (a sheet is checked whole
 * before any row is written). With `Accept: text/event-stream` it answers `progress`
 * events and then `result`, for the screen's progress bar.
 */
export function createClientImportRouter(deps: { api: ApiRegistry; imports: ClientImportService; tokens: TokenVerifier; tenants: ServiceTenants; logger: Logger }): Router {
  const router = express.Router();
  deps.api.route(router, {
    method: 'post', path: '/api/clients/import', before: [authenticate(deps.tokens, deps.tenants.checkCaller)],
    summary: 'Import clients and their contacts from a CSV or XLSX file (multipart: file, dryRun, mapping) (Admin, DTA); '
      + 'answers { rows, created, updated, errors: [{ row, field, message }], columns, contactsCreated }; with Accept: text/event-stream, progress events then result',
  }, async ({ req, res }) => {
    const t = await deps.tenants.ofRequest(res);
    requireImporter(t);
    const dir = await mkdtemp(join(tmpdir(), 'client-import-'));
    try {
      const { fields, file } = await receiveFile(req, 'file', join(dir, 'upload'), CLIENT_IMPORT_MESSAGES.noFile, {
        fieldBytes: 20_000, file: { bytes: IMPORT_MAX_BYTES, message: CLIENT_IMPORT_MESSAGES.tooLarge },
      });
      const options = parseInput(clientImportFieldsSchema, fields);
      const sheet = await readImportFile(file);
      if (!wantsEventStream(req)) return await deps.imports.run(t, sheet, options);
      const events = new LazyEventStream(res);
      try {
        const result = await deps.imports.run(t, sheet, { ...options, onProgress: (p) => events.send(CLIENT_IMPORT_EVENTS.progress, p) });
        events.send(CLIENT_IMPORT_EVENTS.result, result);
      } catch (error) {
        if (!events.started) throw error;
        if (!isDomainError(error)) deps.logger.error({ err: error }, 'client import failed while streaming');
        events.send(CLIENT_IMPORT_EVENTS.error, { message: isDomainError(error) ? error.message : 'The import failed. Please try again.' });
      }
      events.end();
      return undefined;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  return router;
}
