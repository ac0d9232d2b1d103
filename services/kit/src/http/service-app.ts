import express, { type Express, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';
import { rejectControlCharacters } from './control-characters.ts';
import { errorMiddleware, notFoundHandler } from './error-middleware.ts';
import { httpMetrics, metricsHandler } from './metrics.ts';

export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

export interface ServiceAppOptions {
  name: string;
  logger: Logger;
  routers: Router[];
  readiness: HealthCheck[];
  /** Served at /openapi.json for the gateway's aggregated docs. */
  openapi?: () => unknown;
  jsonLimitBytes?: number;
  /** Paths (prefixes) whose JSON bodies are also kept as received, in `rawBody` (a webhook's signature is over the bytes). */
  rawBodyPaths?: readonly string[];
}

/** The bytes of a JSON body as received, on the paths that asked for them (ServiceAppOptions.rawBodyPaths). */
export const rawBodyOf = (req: express.Request): Buffer | undefined => (req as express.Request & { rawBody?: Buffer }).rawBody;

/**
 * The HTTP shell every service shares: request ids, access logs, metrics, JSON bodies
 * with a size limit, health endpoints, the service's routers, JSON 404 and the one
 * error middleware.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const { name, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  // Forwarded headers are the gateway's to judge (TRUSTED_PROXIES); a service takes the
  // client's address from the gateway's own header only (clientAddress).
  app.set('trust proxy', false);

  app.use((req, res, next) => {
    const requestId = req.header('x-request-id') ?? randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.debug({ reqId: requestId, method: req.method, url: req.originalUrl, status: res.statusCode, ms }, 'request');
    });
    next();
  });
  app.use(httpMetrics(name));

  app.get('/healthz', (_req, res) => { res.json({ status: 'ok', service: name }); });
  app.get('/readyz', async (_req, res) => {
    const results = await Promise.allSettled(options.readiness.map((c) => c.check()));
    const failed = results
      .map((r, i) => (r.status === 'rejected' ? `${options.readiness[i]?.name}: ${String(r.reason)}` : null))
      .filter((x): x is string => x !== null);
    res.status(failed.length ? 503 : 200).json({ status: failed.length ? 'unavailable' : 'ready', service: name, failed });
  });
  app.get('/metrics', metricsHandler);
  if (options.openapi) {
    const doc = options.openapi;
    app.get('/openapi.json', (_req, res) => { res.json(doc()); });
  }

  const rawPaths = options.rawBodyPaths ?? [];
  app.use(express.json({
    limit: options.jsonLimitBytes ?? 1024 * 1024,
    verify: rawPaths.length
      ? (req, _res, buf) => { if (rawPaths.some((p) => req.url?.startsWith(p))) (req as typeof req & { rawBody?: Buffer }).rawBody = Buffer.from(buf); }
      : undefined,
  }));
  app.use(rejectControlCharacters);
  for (const router of options.routers) app.use(router);
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));
  return app;
}
