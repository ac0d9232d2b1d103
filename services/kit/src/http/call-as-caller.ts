import { DomainError, Unavailable, type ErrorKind } from '../errors.ts';
import { TENANT_HEADER } from '../service-module.ts';

const KIND_OF_STATUS: Record<number, ErrorKind> = { 400: 'invalid', 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 429: 'rate_limited' };

/** Who calls: the caller's own token and firm, so the other service's access rules apply to them. */
export interface Caller { token: string; shortName: string }

/**
 * Calls another service on its port as the caller (their token and firm); its refusals
 * (400, 401, 403, 404, 409, 429) come back as the same kind of error with its message, anything
 * else as 503. `names.service` names it in the 503; `names.refused` stands in for a missing message.
 */
export async function callAsCaller<T = unknown>(
  url: string, caller: Caller, request: { method: 'GET' | 'POST'; body?: unknown }, names: { service: string; refused: string },
): Promise<T> {
  let r: Response;
  try {
    r = await fetch(url, {
      method: request.method,
      headers: { authorization: `Bearer ${caller.token}`, [TENANT_HEADER]: caller.shortName, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new Unavailable(`The ${names.service} service is unavailable. Please try again.`);
  }
  const reply = (await r.json().catch(() => ({}))) as { message?: string };
  if (r.ok) return reply as T;
  const kind = KIND_OF_STATUS[r.status];
  if (kind) throw new DomainError(kind, reply.message ?? names.refused);
  throw new Unavailable(`The ${names.service} service answered ${r.status}. Please try again.`);
}
