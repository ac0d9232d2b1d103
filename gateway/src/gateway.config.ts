import { isIP } from 'node:net';
import { z } from 'zod';
import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

/** An IP address or a CIDR block (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrBlock = (entry: string): boolean => {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
};

export const gatewayConfigSpec = {
  port: field('PORT', env.port(8080), 'port the gateway (the whole product) listens on'),
  host: field('GATEWAY_HOST', env.string('0.0.0.0'), 'address the gateway listens on'),
  jsonMaxBytes: field('GATEWAY_JSON_MAX_BYTES', env.int(1024 * 1024, 1), 'largest non-upload request body accepted'),
  uploadMaxBytes: field('GATEWAY_UPLOAD_MAX_BYTES', env.int(5 * 1024 ** 3, 1), 'largest multipart (upload) request body accepted'),
  rateLimitPerMinute: field('GATEWAY_RATE_LIMIT_PER_MINUTE', env.int(1200, 1), 'API requests per client IP per minute'),
  tenantPollMs: field('GATEWAY_TENANT_POLL_MS', env.int(1000, 100), 'how often the tenant routing snapshot is refreshed (a deactivated firm is refused within this)'),
  frontendsUrl: field('FRONTENDS_URL', env.optionalUrl(), 'distributed mode: the frontend image service; unset serves frontends/*/dist'),
  trustedProxies: field('TRUSTED_PROXIES', z.string().default('')
    .transform((v) => v.split(',').map((e) => e.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine(isAddressOrBlock, 'each entry must be an IP address or a CIDR block'))),
  'comma-separated addresses or CIDR blocks of the reverse proxies in front of the gateway (e.g. the ingress controller), whose X-Forwarded-For is believed; empty (default): none, the client is the connection\'s address'),
  upstreamMaxSockets: field('GATEWAY_UPSTREAM_MAX_SOCKETS', env.int(256, 1), 'keep-alive sockets per upstream service'),
};

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec>;
export const loadGatewayConfig = (e: NodeJS.ProcessEnv = process.env): GatewayConfig => loadConfig(gatewayConfigSpec, e);
