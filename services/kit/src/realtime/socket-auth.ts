import { decodeJwt } from 'jose';
import type { Socket } from 'socket.io';
import { actorId } from '../auth/actor-id.ts';
import { canActInTenant } from '../auth/roles.ts';
import type { TokenVerifier } from '../auth/token-verifier.ts';
import { DomainError, Forbidden, Unauthenticated } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ServiceTenants } from '../tenancy/tenant-requests.ts';
import { firmRoom, userRoom } from './realtime-rooms.ts';

/** How often a connected socket's firm and user are checked again. */
const DEFAULT_RECHECK_MS = 60_000;

/** What the handshake establishes, kept on `socket.data`. */
export interface SocketIdentity {
  tenant: string;
  userId: number;
}

/** What a refused handshake tells the browser (`connect_error`'s `message` and `data.kind`). */
export interface RefusalData {
  kind: DomainError['kind'];
}

/**
 * The handshake is checked like an API call: `auth: { token, tenant? }` — the token verified,
 * the firm (named, else the token's own) one the token may act in and active, the user one the
 * firm's read model accepts (tenants.ofAuth). A refusal ends the handshake with the same
 * message the API would give. A connected socket is cut when its token expires, and when a
 * check every `recheckMs` finds the firm deactivated, the user deleted, or their role or
 * access lists changed, so a long-lived connection never outlives what let it in by more
 * than that.
 */
export function socketAuthMiddleware(deps: { tokens: TokenVerifier; tenants: ServiceTenants; logger: Logger; recheckMs?: number }) {
  const recheckMs = deps.recheckMs ?? DEFAULT_RECHECK_MS;
  return async (socket: Socket, next: (err?: Error) => void): Promise<void> => {
    try {
      const auth = (socket.handshake.auth ?? {}) as { token?: unknown; tenant?: unknown };
      if (typeof auth.token !== 'string' || !auth.token) throw new Unauthenticated();
      const claims = await deps.tokens.verify(auth.token);
      const tenant = typeof auth.tenant === 'string' && auth.tenant ? auth.tenant : claims.tenant;
      if (!tenant) throw new Forbidden('Select a tenant first.');
      if (!canActInTenant(claims, tenant)) throw new Forbidden('This account belongs to another firm.');
      // What the socket was let in with: a change of role or access lists cuts it like a deletion,
      // and the browser's reconnection starts over with what the user may see now.
      const admittedScope = JSON.stringify((await deps.tenants.ofAuth({ claims, tenant, token: auth.token })).scope);
      // Platform administrators are negated like everywhere a firm stores users (kit/auth/actor-id.ts).
      const userId = actorId(claims);
      const identity: SocketIdentity = { tenant, userId };
      socket.data.identity = identity;
      await socket.join([userRoom(tenant, userId), firmRoom(tenant)]);
      const exp = decodeJwt(auth.token).exp;
      const expiry = exp ? setTimeout(() => socket.disconnect(true), Math.max(0, exp * 1000 - Date.now())) : undefined;
      const recheck = setInterval(() => {
        deps.tenants.ofAuth({ claims, tenant, token: auth.token as string }).then((now) => {
          if (JSON.stringify(now.scope) !== admittedScope) socket.disconnect(true);
        }, (err: unknown) => {
          // Identity or the database briefly unavailable is not a refusal: the next check decides.
          if (err instanceof DomainError && err.kind !== 'unavailable') socket.disconnect(true);
        });
      }, recheckMs);
      expiry?.unref();
      recheck.unref();
      socket.once('disconnect', () => { clearTimeout(expiry); clearInterval(recheck); });
      next();
    } catch (err) {
      const refusal = err instanceof DomainError ? err : new Unauthenticated('Invalid authentication token. Please log in again.');
      if (!(err instanceof DomainError)) deps.logger.warn({ err: String(err) }, 'socket handshake failed');
      const e = new Error(refusal.message) as Error & { data: RefusalData };
      e.data = { kind: refusal.kind };
      next(e);
    }
  };
}
