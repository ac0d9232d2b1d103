import { SESSIONS_REVOKED } from '@ledgerline/kit/access/user-access-read-model.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import type { RealtimeHub } from '@ledgerline/kit/realtime/realtime-hub.ts';
import { sessionRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import type { SecurityEventStore } from '../mfa/security-event.store.ts';
import { sessionMeetsPolicy } from '../mfa/mfa.service.ts';
import type { SecuritySettings } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import type { MfaSubject, SignInContext } from '../mfa/mfa-subject.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import { SessionStore } from './session.store.ts';

export interface SessionView {
  id: string;
  /** "Chrome on Windows", from the browser's user agent. */
  device: string;
  address: string | null;
  startedAt: string;
  lastSeenAt: string;
  method: string | null;
  current: boolean;
}

export interface SessionDeps { companies: CompanyStore; realtime: RealtimeHub; events: SecurityEventStore; tokenTtlSeconds: number; provider: IdentityProvider }

/**
 * Sign-in sessions (DESIGN §8 "sessions and factors"): every token of the built-in issuer
 * names one. Ending one marks it in identity (refused there at once), tells every other
 * service through the `sessions.revoked` event (their user-access read model refuses it
 * within about a second) and closes its sockets. A Keycloak firm's sessions are the realm's:
 * listed and ended there, and their tokens refused by `sid` the same way.
 */
export class SessionService {
  readonly store = new SessionStore();
  readonly #deps: SessionDeps;

  constructor(deps: SessionDeps) {
    this.#deps = deps;
  }

  async list(s: MfaSubject, currentId: string | undefined): Promise<SessionView[]> {
    const realm = s.company ? await this.#deps.provider.realmSessions(s.company.shortName, { id: s.userId, username: s.username }) : null;
    if (realm) {
      return realm.map((x) => ({ id: x.id, device: 'Keycloak sign-in', address: x.address, startedAt: x.startedAt, lastSeenAt: x.lastSeenAt, method: 'keycloak', current: x.id === currentId }));
    }
    return (await this.store.live(s.db, s.userId, this.#deps.tokenTtlSeconds)).map((x) => ({
      id: x.id, device: deviceOf(x.browser), address: x.address, startedAt: x.createdAt, lastSeenAt: x.lastSeenAt, method: x.method, current: x.id === currentId,
    }));
  }

  /** Ends one of the subject's sessions (404 for one that is not theirs or already ended), or all of them. */
  async revoke(s: MfaSubject, which: string | 'all', ctx: SignInContext, actorId: number | null = null, tx?: Queryable): Promise<string[]> {
    // A platform administrator acts in every firm: each firm's services hear of it. (Read before
    // the transaction: the embedded database has one connection, which the transaction holds.)
    const firms = s.company ? [s.company.shortName] : (await this.#deps.companies.list()).filter((c) => c.isActive).map((c) => c.shortName);
    // A Keycloak firm's sessions end in the realm first (outside the transaction: a remote call).
    const realmEnded = s.company && this.#deps.provider.kind !== 'builtin'
      ? await this.#deps.provider.endRealmSessions(s.company.shortName, { id: s.userId, username: s.username }, which === 'all' ? undefined : which)
      : null;
    const run = async (q: Queryable) => {
      if (realmEnded) await this.store.recordEndedRealmSessions(q, s.userId, realmEnded);
      const ids = realmEnded ?? await this.store.revoke(q, s.userId, which === 'all' ? undefined : which);
      if (which !== 'all' && ids.length === 0) throw new NotFound('Session not found');
      if (ids.length === 0) return ids;
      await enqueueEvents(q, firms.map((firm) => newEvent(SESSIONS_REVOKED, firm, { userId: s.userId, sessionIds: ids })));
      await this.#deps.events.record(q, { kind: 'sessions-revoked', userId: s.userId, username: s.username, method: which === 'all' ? 'all' : 'one', actorId, address: ctx.address, browser: ctx.browser });
      return ids;
    };
    const ids = tx ? await run(tx) : await s.db.transaction(run);
    this.disconnect(ids);
    return ids;
  }

  /**
   * A firm's new policy, applied to who is signed in now: every live session of a user it
   * asks for a second factor that began without one ends at once (identity refuses it at
   * once, the other services on the `sessions.revoked` event); their next sign-in goes
   * through the setup step. `keep` is the session that made the change (the Admin is not
   * signed out mid-change; their next sign-in asks them too). Answers the ended ids: the
   * caller closes their sockets once the transaction has committed (`disconnect`).
   */
  async endBelowPolicy(tx: Queryable, firm: string, policy: SecuritySettings, roles: ReadonlyMap<number, string>, keep: string | undefined, ctx: SignInContext, actorId: number): Promise<string[]> {
    const below = (await this.store.allLive(tx, this.#deps.tokenTtlSeconds))
      .filter((x) => x.id !== keep && roles.has(x.userId) && !sessionMeetsPolicy(policy, roles.get(x.userId)!, x.method));
    if (below.length === 0) return [];
    const ended = await this.store.revokeIds(tx, below.map((x) => x.id));
    const byUser = new Map<number, string[]>();
    for (const { id, userId } of ended) byUser.set(userId, [...(byUser.get(userId) ?? []), id]);
    await enqueueEvents(tx, [...byUser].map(([userId, sessionIds]) => newEvent(SESSIONS_REVOKED, firm, { userId, sessionIds })));
    for (const userId of byUser.keys()) {
      await this.#deps.events.record(tx, { kind: 'sessions-revoked', userId, username: null, method: 'policy', actorId, address: ctx.address, browser: ctx.browser });
    }
    return ended.map((x) => x.id);
  }

  /** Closes the sockets of ended sessions. */
  disconnect(ids: readonly string[]): void {
    for (const id of ids) this.#deps.realtime.disconnect(sessionRoom(id));
  }
}

/** A short, readable name of a browser and system from a user agent (no library: a label, not a fingerprint). */
export function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent) ? 'Edge' : /OPR\/|Opera/.test(userAgent) ? 'Opera' : /Firefox\//.test(userAgent) ? 'Firefox'
    : /Chrome\/|Chromium\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : /node|undici/i.test(userAgent) ? 'API client' : 'Browser';
  const system = /Windows/.test(userAgent) ? 'Windows' : /iPhone|iPad|iOS/.test(userAgent) ? 'iOS' : /Android/.test(userAgent) ? 'Android'
    : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : null;
  return system ? `${browser} on ${system}` : browser;
}
