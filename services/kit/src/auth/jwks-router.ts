import { Router } from 'express';
import type { TokenIssuer } from './token-issuer.ts';

export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * Serves the issuer's public keys. The max-age is short because a rotation must become
 * visible to verifiers behind HTTP caches quickly; verifiers keep their own longer cache
 * and refetch on an unknown kid anyway.
 */
export function createJwksRouter(issuer: Pick<TokenIssuer, 'jwks'>, options: { maxAgeSeconds?: number } = {}): Router {
  const maxAgeSeconds = options.maxAgeSeconds ?? 60;
  const router = Router();
  router.get(JWKS_PATH, async (_req, res) => {
    const jwks = await issuer.jwks();
    res.set('Cache-Control', `public, max-age=${maxAgeSeconds}`);
    res.type('application/jwk-set+json').send(JSON.stringify(jwks));
  });
  return router;
}
