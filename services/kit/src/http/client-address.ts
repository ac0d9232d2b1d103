import type { Request } from 'express';
import { CLIENT_ADDRESS_HEADER } from '../service-module.ts';

/**
 * The address of the client behind a request to a service: what the gateway determined
 * (it alone decides which proxies' X-Forwarded-For to believe), else the connection's
 * own address (a caller on the service port itself).
 */
export function clientAddress(req: Request): string {
  return req.header(CLIENT_ADDRESS_HEADER) || req.socket.remoteAddress || 'unknown';
}
