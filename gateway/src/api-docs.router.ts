import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import type { RouteTarget } from './route-table.ts';

interface OpenApiDoc { paths?: Record<string, Record<string, unknown>> }

const CACHE_MS = 30_000;

/**
 * `/api/docs`: one OpenAPI document merged from every service's /openapi.json (each
 * path listed in its unprefixed form; the tenant-prefixed `/api/{tenant}/…` form is
 * documented once in the description), rendered by Swagger UI.
 */
export function createApiDocsRouter(services: () => RouteTarget[]): Router {
  const router = express.Router();
  let cached: { at: number; doc: unknown } | null = null;

  router.get('/api/docs/openapi.json', async (_req, res) => {
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const paths: Record<string, unknown> = {};
      const unreachable: string[] = [];
      await Promise.all(services().map(async (s) => {
        try {
          const r = await fetch(`${s.url}/openapi.json`, { signal: AbortSignal.timeout(3000) });
          const doc = (await r.json()) as OpenApiDoc;
          Object.assign(paths, doc.paths ?? {});
        } catch {
          unreachable.push(s.service);
        }
      }));
      cached = {
        at: Date.now(),
        doc: {
          openapi: '3.1.0',
          info: {
            title: 'Ledgerline portal API',
            version: '1',
            description: 'Every tenant-scoped path also exists as /api/{tenant}/… (tenant short name).'
              + ' Send `Authorization: Bearer <token>`.'
              + (unreachable.length ? ` Services not reachable when this was built: ${unreachable.join(', ')}.` : ''),
          },
          components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
          security: [{ bearer: [] }],
          paths,
        },
      };
    }
    res.json(cached.doc);
  });

  const swaggerDir = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json').replace(/package\.json$/, '');
  router.use('/api/docs/assets', express.static(swaggerDir, { maxAge: '1d', index: false }));
  router.get('/api/docs', (_req, res) => {
    res.type('html').send(`<!doctype html><html><head><meta charset="utf-8"><title>Ledgerline API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/docs-init.js"></script></body></html>`);
  });
  // Inline scripts would need a CSP exception; a tiny static init script does not.
  router.get('/api/docs/assets/docs-init.js', (_req, res) => {
    res.type('js').send("window.ui = SwaggerUIBundle({ url: '/api/docs/openapi.json', dom_id: '#ui' });");
  });
  return router;
}
