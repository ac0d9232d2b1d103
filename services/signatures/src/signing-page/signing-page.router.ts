import { readFileSync } from 'node:fs';
import type { Router } from 'express';
import { createPublicLinkPageRouter } from '@ledgerline/kit/http/public-link-page.ts';

export const SIGNING_PAGE_PATH = '/sign/';

/**
 * The page a signing link opens (PUBLIC_BASE_URL/sign/{token}), and a signed-in Client
 * user's (…/sign/portal/{firm}/{request id}): the kit's public link page (the chrome it shares
 * with the document request page) with the signing steps' own styles and script; the script
 * reads the address and calls the signing calls.
 */
export function createSigningPageRouter(): Router {
  return createPublicLinkPageRouter({
    basePath: SIGNING_PAGE_PATH,
    title: 'Review and sign',
    styles: readFileSync(new URL('./page.css', import.meta.url), 'utf8'),
    script: readFileSync(new URL('./page.js', import.meta.url), 'utf8'),
    // A Client user signing signed in: the page calls their own /signing calls with the portal's stored sign-in.
    pagePaths: [':token', 'portal/:firm/:id'],
  });
}
