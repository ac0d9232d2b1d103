import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import { REQUEST_UPLOAD_ACCEPT } from '@ledgerline/contracts/media-types.ts';

export const PUBLIC_PAGE_PATH = '/document-request/';

const page = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
// The file input offers what the files service takes (one list, in the contracts).
const script = readFileSync(new URL('./page.js', import.meta.url), 'utf8').replace('__REQUEST_UPLOAD_ACCEPT__', REQUEST_UPLOAD_ACCEPT);

/**
 * The page a link opens (PUBLIC_BASE_URL/document-request/{token}): a static page with no
 * data of its own (the script reads the token from the address and calls the public link
 * calls), so it needs no sign-in, no shell and no federated remote to load on a phone.
 */
export function createPublicPageRouter(): Router {
  const router = express.Router();
  router.get(`${PUBLIC_PAGE_PATH}assets/page.js`, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(script);
  });
  router.get(`${PUBLIC_PAGE_PATH}:token`, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('html').send(page);
  });
  return router;
}
