import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';

export const SIGNING_PAGE_PATH = '/sign/';

const page = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
const script = readFileSync(new URL('./page.js', import.meta.url), 'utf8');

/**
 * The page a signing link opens (PUBLIC_BASE_URL/sign/{token}), and a signed-in Client
 * user's (…/sign/portal/{firm}/{request id}): static, with no data of its own (the script
 * reads the address and calls the signing calls), so it needs no shell and no federated
 * remote to load on a phone.
 */
export function createSigningPageRouter(): Router {
  const router = express.Router();
  router.get(`${SIGNING_PAGE_PATH}assets/page.js`, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/javascript').send(script);
  });
  const send = (_req: express.Request, res: express.Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('html').send(page);
  };
  router.get(`${SIGNING_PAGE_PATH}:token`, send);
  // A Client user signing signed in: the page calls their own /signing calls with the portal's stored sign-in.
  router.get(`${SIGNING_PAGE_PATH}portal/:firm/:id`, send);
  return router;
}
