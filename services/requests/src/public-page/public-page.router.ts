import { readFileSync } from 'node:fs';
import type { Router } from 'express';
import { createPublicLinkPageRouter } from '@ledgerline/kit/http/public-link-page.ts';
import { REQUEST_UPLOAD_ACCEPT } from '@ledgerline/contracts/media-types.ts';

export const PUBLIC_PAGE_PATH = '/document-request/';

/**
 * The page a link opens (PUBLIC_BASE_URL/document-request/{token}): the kit's public link
 * page (the chrome it shares with the signing page) with the upload page's own styles and
 * script; the script reads the token from the address and calls the public link calls.
 */
export function createPublicPageRouter(): Router {
  return createPublicLinkPageRouter({
    basePath: PUBLIC_PAGE_PATH,
    title: 'Upload documents',
    styles: readFileSync(new URL('./page.css', import.meta.url), 'utf8'),
    // The file input offers what the files service takes (one list, in the contracts).
    script: readFileSync(new URL('./page.js', import.meta.url), 'utf8').replace('__REQUEST_UPLOAD_ACCEPT__', REQUEST_UPLOAD_ACCEPT),
    pagePaths: [':token'],
  });
}
