import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { rateLimit } from 'express-rate-limit';
import { createProxyMiddleware, type RequestHandler as ProxyHandler } from 'http-proxy-middleware';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { bearerToken } from '@ledgerline/kit/auth/token-verifier.ts';
import { canActInTenant } from '@ledgerline/kit/auth/roles.ts';
import { Forbidden, NotFound, TooLarge } from '@ledgerline/kit/errors.ts';
import { errorMiddleware, notFoundHandler } from '@ledgerline/kit/http/error-middleware.ts';
import { httpMetrics, metricsHandler } from '@ledgerline/kit/http/metrics.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { CLIENT_ADDRESS_HEADER, TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { SHORT_NAME_PATTERN } from '@ledgerline/contracts/identity.contracts.ts';
import { createApiDocsRouter } from './api-docs.router.ts';
import type { GatewayConfig } from './gateway.config.ts';
import type { RouteTable, RouteTarget } from './route-table.ts';
import type { TenantDirectory } from './tenant-directory.ts';
import { createUpstreamProxy } from './upstream-proxy.ts';

export interface GatewayOptions {
  config: GatewayConfig;
  routes: RouteTable;
  services: () => RouteTarget[];
  tenants: TenantDirectory;
  tokens: TokenVerifier;
  logger: Logger;
  /** Serves the built frontends when no FRONTENDS_URL is configured. */
  frontends: express.Router | null;
}

export interface Gateway {
  app: Express;
  /** Attach to the HTTP server's 'upgrade' event (websockets for /socket.io). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends every proxied websocket: shutdown's first step, as they would keep the server from closing. */
  closeUpgrades(): void;
  close(): void;
}

/**
 * The edge: security headers, rate limits, body-size limits, token and tenant checks,
 * then a streaming proxy to the owning service over keep-alive connections. Services
 * always see the unprefixed `/api/…` path with the tenant in a trusted header.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { config, routes, tenants, tokens, logger } = options;
  const upstream = createUpstreamProxy({ maxSocketsPerUpstream: config.upstreamMaxSockets, logger });
  const agent = new http.Agent({ keepAlive: true, maxSockets: config.upstreamMaxSockets, keepAliveMsecs: 10_000 });
  const proxies = new Map<string, ProxyHandler>();
  const proxyFor = (target: RouteTarget): ProxyHandler => {
    let p = proxies.get(target.url);
    if (!p) {
      p = createProxyMiddleware({
        target: target.url,
        agent,
        // No X-Forwarded-*: the gateway passes the client's address in its own header
        // (see the 'trust proxy' setting), which is all the services read.
        // Not `ws: true`: that makes the first proxy used subscribe to the server's
        // 'upgrade' event for every path. Upgrades are routed explicitly in upgrade().
        ws: false,
        // The default plugins log and re-dispatch every proxied request; on the hot path
        // we only need the error answer.
        ejectPlugins: true,
        plugins: [(proxyServer) => {
          proxyServer.on('error', (err, _req, res) => {
            logger.warn({ err: String(err), service: target.service }, 'upstream unavailable');
            if ('writeHead' in res && !res.headersSent) {
              res.writeHead(503, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ message: `The ${target.service} service is unavailable. Please try again.` }));
            } else {
              res.destroy();
            }
          });
        }],
      });
      proxies.set(target.url, p);
    }
    return p;
  };

  const app = express();
  app.disable('x-powered-by');
  // Only the configured proxies' X-Forwarded-For counts (TRUSTED_PROXIES): anyone else who
  // sends one would pick their own address for the rate limit and login throttle.
  app.set('trust proxy', config.trustedProxies.length ? config.trustedProxies : false);
  app.use((req, _res, next) => {
    // Services learn the client's address from this header alone.
    req.headers[CLIENT_ADDRESS_HEADER] = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    next();
  });
  app.use(helmet({
    contentSecurityPolicy: {
      directives: {
        // Module federation loads remote chunks from this origin only.
        'script-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'frame-src': ["'self'", 'blob:'],
      },
    },
    crossOriginEmbedderPolicy: false,
    // The Google Drive setup opens Google's consent page in a popup the page must keep
    // watching ('Connecting...' until it closes); plain same-origin would sever it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  }));
  app.use(httpMetrics('gateway'));
  app.get('/healthz', (_req, res) => { res.json({ status: 'ok', service: 'gateway' }); });
  app.get('/readyz', async (_req, res) => {
    const failed: string[] = [];
    await Promise.all(options.services().map(async (s) => {
      const r = await fetch(`${s.url}/readyz`, { signal: AbortSignal.timeout(2000) }).catch(() => null);
      if (!r?.ok) failed.push(s.service);
    }));
    res.status(failed.length ? 503 : 200).json({ status: failed.length ? 'unavailable' : 'ready', service: 'gateway', failed });
  });
  app.get('/metrics', metricsHandler);
  app.use(createApiDocsRouter(options.services));

  app.use('/api', rateLimit({
    windowMs: 60_000,
    limit: config.rateLimitPerMinute,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    message: { message: 'Too many requests. Please wait a moment and try again.' },
    // An X-Forwarded-For from a client that is not a trusted proxy is expected, and ignored.
    validate: { xForwardedForHeader: false },
  }));

  const apiProxy: RequestHandler = async (req, res, next) => {
    const resolved = routes.resolveApi(req.originalUrl);
    if (!resolved.target) throw new NotFound(`Not found: ${req.method} ${req.originalUrl.split("?")[0]}`);
    enforceBodyLimit(req, config);

    // A client never chooses the trusted tenant header itself.
    delete req.headers[TENANT_HEADER];
    if (resolved.pathTenant !== null && !SHORT_NAME_PATTERN.test(resolved.pathTenant)) throw new NotFound('Tenant not found');
    let tenant = resolved.pathTenant ?? tenants.resolveHost(req.headers.host);
    const token = bearerToken(req.headers.authorization);
    if (token) {
      const claims = await tokens.verify(token);
      tenant ??= claims.tenant;
      if (tenant && !canActInTenant(claims, tenant)) throw new Forbidden('This account belongs to another firm.');
    }
    if (tenant) {
      if (await tenants.isUnavailableNow(tenant)) throw new NotFound('Tenant not found');
      req.headers[TENANT_HEADER] = tenant;
    }
    upstream.forward(resolved.target, req, res, resolved.servicePath);
  };
  app.use('/api', apiProxy);

  app.use((req, res, next) => {
    const target = routes.resolveOther(req.path);
    if (!target) return next();
    upstream.forward(target, req, res, req.originalUrl);
  });

  if (config.frontendsUrl) {
    const frontendsTarget = { service: 'frontends', url: config.frontendsUrl };
    app.use((req, res) => upstream.forward(frontendsTarget, req, res, req.originalUrl));
  } else if (options.frontends) {
    app.use(options.frontends);
  }
  app.use(notFoundHandler);
  app.use(errorMiddleware(logger));

  const upgraded = new Set<Duplex>();
  return {
    app,
    upgrade(req, socket, head) {
      const target = routes.resolveOther(new URL(req.url ?? '/', 'http://gateway').pathname);
      const proxy = target ? proxyFor(target) : null;
      if (!proxy?.upgrade) {
        socket.destroy();
        return;
      }
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      proxy.upgrade(req, socket as never, head);
    },
    closeUpgrades() {
      for (const socket of upgraded) socket.destroy();
    },
    close() {
      agent.destroy();
      void upstream.close();
    },
  };
}

function enforceBodyLimit(req: express.Request, config: GatewayConfig): void {
  const length = Number(req.headers['content-length'] ?? 0);
  const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
  const max = multipart ? config.uploadMaxBytes : config.jsonMaxBytes;
  if (length > max) throw new TooLarge(`Request body is too large (limit ${max} bytes)`);
}
