import express from 'express';
import helmet from 'helmet';
import { createProxyMiddleware, type RequestHandler as ProxyHandler } from 'http-proxy-middleware';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { PortalClaims } from '@ledgerline/kit/auth/claims.ts';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { bearerToken } from '@ledgerline/kit/auth/token-verifier.ts';
import { canActInTenant } from '@ledgerline/kit/auth/roles.ts';
import { Forbidden, NotFound, TooLarge } from '@ledgerline/kit/errors.ts';
import { errorMiddleware, notFoundHandler, sendError } from '@ledgerline/kit/http/error-middleware.ts';
import { httpMetrics, metricsHandler } from '@ledgerline/kit/http/metrics.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { REALTIME_PATH } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { CLIENT_ADDRESS_HEADER, TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import { SHORT_NAME_PATTERN } from '@ledgerline/contracts/identity.contracts.ts';
import { createApiDocsRouter } from './api-docs.router.ts';
import { clientAddressResolver } from './client-address.ts';
import type { GatewayConfig } from './gateway.config.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { RouteTable, RouteTarget } from './route-table.ts';
import { HOME_FIRST_PAINT_SCRIPT_SOURCE } from './home-page.ts';
import { FIRST_PAINT_SCRIPT_SOURCE } from './sign-in-page.ts';
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
  /** The HTTP server's request listener. */
  handle: http.RequestListener;
  /** Attach to the HTTP server's 'upgrade' event (websockets for /socket.io). */
  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Ends every proxied websocket: shutdown's first step, as they would keep the server from closing. */
  closeUpgrades(): void;
  /** Ends the upstream connections (resolves once they are closed). */
  close(): Promise<void>;
}

const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * The edge: security headers, rate limits, body-size limits, token and tenant checks,
 * then a streaming proxy to the owning service over keep-alive connections. Services
 * always see the unprefixed `/api/…` path with the tenant in a trusted header.
 *
 * Every product request passes here, so API calls (all but the docs) take a direct path
 * without express's router: each step below is one function call. Everything else (health,
 * metrics, docs, other service paths, the frontends) goes through an express app.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const { config, routes, tenants, tokens, logger } = options;
  const upstream = createUpstreamProxy({ maxSocketsPerUpstream: config.upstreamMaxSockets, logger });
  const clientAddress = clientAddressResolver(config.trustedProxies);
  const setSecurityHeaders = securityHeadersSetter();
  const metrics = httpMetrics('gateway');
  const rateLimiter = new RateLimiter(config.rateLimitPerMinute, RATE_LIMIT_WINDOW_MS);

  /** Every request, whichever path takes it: services learn the client's address from this header alone. */
  const edge = (req: http.IncomingMessage, res: http.ServerResponse): string => {
    const address = clientAddress(req);
    req.headers[CLIENT_ADDRESS_HEADER] = address;
    setSecurityHeaders(res);
    return address;
  };

  // Synchronous unless a token is new to this process or a firm needs a fresh look: most
  // calls reach the upstream without waiting a turn of the event loop.
  const proxyApi = (req: http.IncomingMessage, res: http.ServerResponse, address: string): Promise<void> | void => {
    rateLimiter.take(address, res);
    const url = req.url ?? '/';
    const resolved = routes.resolveApi(url);
    const target = resolved.target;
    if (!target) throw new NotFound(`Not found: ${req.method} ${url.split('?')[0]}`);
    enforceBodyLimit(req, config);

    // A client never chooses the trusted tenant header itself.
    delete req.headers[TENANT_HEADER];
    if (resolved.pathTenant !== null && !SHORT_NAME_PATTERN.test(resolved.pathTenant)) throw new NotFound('Tenant not found');
    const named = resolved.pathTenant ?? tenants.resolveHost(req.headers.host);
    const admit = (claims: Readonly<PortalClaims> | undefined): Promise<void> | void => {
      const tenant = named ?? claims?.tenant ?? null;
      if (tenant && claims && !canActInTenant(claims, tenant)) throw new Forbidden('This account belongs to another firm.');
      const forward = () => {
        if (tenant) req.headers[TENANT_HEADER] = tenant;
        if (target.inProcess) {
          req.url = resolved.servicePath;
          target.inProcess(req, res);
        } else {
          upstream.forward(target, req, res, resolved.servicePath);
        }
      };
      if (!tenant || !tenants.isUnavailable(tenant)) return forward();
      return tenants.isUnavailableNow(tenant).then((gone) => {
        if (gone) throw new NotFound('Tenant not found');
        forward();
      });
    };
    const token = bearerToken(req.headers.authorization);
    if (!token) return admit(undefined);
    const claims = tokens.verifiedBefore(token);
    return claims ? admit(claims) : tokens.verify(token).then(admit);
  };

  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    edge(req, res);
    next();
  });
  // The API docs are the one part of /api served here; they count against the same limit.
  app.use('/api', (req, res, next) => {
    rateLimiter.take(req.headers[CLIENT_ADDRESS_HEADER] as string, res);
    next();
  });
  // A socket.io handshake opens a session on the realtime service: counted like an API call.
  app.use(REALTIME_PATH, (req, res, next) => {
    if (isRealtimeHandshake(req.originalUrl)) rateLimiter.take(req.headers[CLIENT_ADDRESS_HEADER] as string, res);
    next();
  });
  app.use(metrics);
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

  const upgrades = createUpgradeProxies(routes, logger);
  return {
    handle(req, res) {
      if (!isProxiedApiPath(req.url ?? '/')) {
        app(req, res);
        return;
      }
      const address = edge(req, res);
      metrics(req as express.Request, res as express.Response, noop);
      const fail = (err: unknown) => {
        if (res.headersSent) req.socket.destroy();
        else sendError(err, res, logger, { url: req.url });
      };
      try {
        proxyApi(req, res, address)?.catch(fail);
      } catch (err) {
        fail(err);
      }
    },
    upgrade(req, socket, head) {
      // A websocket that opens a session (no polling session to upgrade) counts like a polling handshake.
      if (isRealtimeHandshake(req.url ?? '/') && !rateLimiter.admits(clientAddress(req))) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
        return;
      }
      upgrades.upgrade(req, socket, head);
    },
    closeUpgrades: upgrades.closeAll,
    async close() {
      rateLimiter.stop();
      upgrades.close();
      await upstream.close();
    },
  };
}

const noop = () => {};

/** A request on the realtime path that opens an engine.io session (one that continues a session names its `sid`). */
function isRealtimeHandshake(url: string): boolean {
  const parsed = new URL(url, 'http://gateway');
  return (parsed.pathname === REALTIME_PATH || parsed.pathname.startsWith(`${REALTIME_PATH}/`)) && !parsed.searchParams.has('sid');
}

/** `/api` and below (the prefix matched without regard to case, as express would), but the API docs. */
function isProxiedApiPath(url: string): boolean {
  const prefix = url.slice(0, 9).toLowerCase();
  if (!prefix.startsWith('/api')) return false;
  const next = prefix[4];
  if (next !== undefined && next !== '/' && next !== '?') return false;
  return !(prefix === '/api/docs' && (url.length === 9 || url[9] === '/' || url[9] === '?'));
}

/**
 * The security headers (helmet's, with our CSP) computed once: none of them depends on
 * the request, so each response gets the same list without helmet running per request.
 */
function securityHeadersSetter(): (res: http.ServerResponse) => void {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => { headers.push([name, value]); },
    removeHeader: () => {},
  };
  helmet({
    contentSecurityPolicy: {
      directives: {
        // Module federation loads remote chunks from this origin only; the one inline script is
        // the firm sign-in page's hold on a form sent before the app runs (sign-in-page.ts).
        'script-src': ["'self'", FIRST_PAINT_SCRIPT_SOURCE, HOME_FIRST_PAINT_SCRIPT_SOURCE],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'frame-src': ["'self'", 'blob:'],
      },
    },
    crossOriginEmbedderPolicy: false,
    // The Google Drive setup opens Google's consent page in a popup the page must keep
    // watching ('Connecting...' until it closes); plain same-origin would sever it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  })({} as never, recorder as never, noop);
  return (res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}

/** Websocket upgrades (socket.io), proxied by http-proxy to the service owning the path. */
function createUpgradeProxies(routes: RouteTable, logger: Logger): { upgrade: Gateway['upgrade']; closeAll(): void; close(): void } {
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 10_000 });
  const proxies = new Map<string, ProxyHandler>();
  const proxyFor = (target: RouteTarget): ProxyHandler => {
    let p = proxies.get(target.url);
    if (!p) {
      p = createProxyMiddleware({
        target: target.url,
        agent,
        // Not `ws: true`: that makes the first proxy used subscribe to the server's
        // 'upgrade' event for every path. Upgrades are routed explicitly below.
        ws: false,
        ejectPlugins: true,
        plugins: [(proxyServer) => {
          proxyServer.on('error', (err, _req, socket) => {
            logger.warn({ err: String(err), service: target.service }, 'upstream unavailable');
            if ('destroy' in socket) socket.destroy();
          });
        }],
      });
      proxies.set(target.url, p);
    }
    return p;
  };
  const upgraded = new Set<Duplex>();
  return {
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
    closeAll() {
      for (const socket of upgraded) socket.destroy();
    },
    close() {
      agent.destroy();
    },
  };
}

function enforceBodyLimit(req: http.IncomingMessage, config: GatewayConfig): void {
  const length = Number(req.headers['content-length'] ?? 0);
  const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
  const max = multipart ? config.uploadMaxBytes : config.jsonMaxBytes;
  if (length > max) throw new TooLarge(`Request body is too large (limit ${max} bytes)`);
}
