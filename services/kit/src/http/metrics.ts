import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { RequestHandler } from 'express';

/** One registry per process: in `--target=all` every service's /metrics shows the same process. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by service, method, route and status',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
  registers: [metricsRegistry],
});

export function httpMetrics(service: string): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer({ service, method: req.method });
    res.on('finish', () => {
      // The matched route pattern keeps label cardinality bounded (no ids in labels).
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      end({ route: String(route), status: String(res.statusCode) });
    });
    next();
  };
}

export const metricsHandler: RequestHandler = async (_req, res) => {
  res.setHeader('Content-Type', metricsRegistry.contentType);
  res.send(await metricsRegistry.metrics());
};
