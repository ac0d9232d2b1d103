import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const gatewayConfigSpec = {
  port: field('PORT', env.port(8080), 'port the gateway (the whole product) listens on'),
  jsonMaxBytes: field('GATEWAY_JSON_MAX_BYTES', env.int(1024 * 1024, 1), 'largest non-upload request body accepted'),
  uploadMaxBytes: field('GATEWAY_UPLOAD_MAX_BYTES', env.int(5 * 1024 ** 3, 1), 'largest multipart (upload) request body accepted'),
  rateLimitPerMinute: field('GATEWAY_RATE_LIMIT_PER_MINUTE', env.int(1200, 1), 'API requests per client IP per minute'),
  tenantPollMs: field('GATEWAY_TENANT_POLL_MS', env.int(1000, 100), 'how often the tenant routing snapshot is refreshed (a deactivated firm is refused within this)'),
  frontendsUrl: field('FRONTENDS_URL', env.optionalUrl(), 'distributed mode: the frontend image service; unset serves frontends/*/dist'),
  upstreamMaxSockets: field('GATEWAY_UPSTREAM_MAX_SOCKETS', env.int(256, 1), 'keep-alive sockets per upstream service'),
};

export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec>;
export const loadGatewayConfig = (e: NodeJS.ProcessEnv = process.env): GatewayConfig => loadConfig(gatewayConfigSpec, e);
