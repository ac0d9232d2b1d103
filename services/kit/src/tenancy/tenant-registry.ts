import { Unavailable } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { INTERNAL_TENANTS_PATH, TENANT_LIST_VERSION_HEADER, type TenantEventPayload } from './tenant-events.ts';

/** Bound on the names remembered as missing (then forgotten all at once). */
const MAX_REMEMBERED_MISSES = 10_000;

/**
 * A service's view of the firms (short name → schema, active flag) for services other
 * than identity, which owns them. It is a polled snapshot rather than an event-fed
 * table: every replica needs every change, and a competing-consumer queue would give
 * each change to one replica only. A name missing from the snapshot is looked up in a
 * snapshot taken after the question was asked (a firm created a moment ago is found,
 * however recent the last poll); concurrent questions share one call, and a name that
 * was missing a moment ago (`minRefreshMs`) is not asked about again, so unknown names
 * cannot turn into a flood of calls to identity.
 */
export class TenantRegistry {
  /** The whole list, or null when it has not changed since the last answer (identityTenantChanges). */
  readonly #source: () => Promise<TenantEventPayload[] | null>;
  readonly #minRefreshMs: number;
  #byShortName = new Map<string, TenantEventPayload>();
  /** Names recently asked about and not found, with when. */
  readonly #misses = new Map<string, number>();
  /** Refreshes started so far: one numbered above a question's count read the list after it. */
  #started = 0;
  #loading: { number: number; done: Promise<void> } | null = null;

  constructor(options: { source: () => Promise<TenantEventPayload[] | null>; minRefreshMs?: number }) {
    this.#source = options.source;
    this.#minRefreshMs = options.minRefreshMs ?? 250;
  }

  /** The firm with this short name, active or not; null when identity does not know it. */
  async find(shortName: string): Promise<TenantEventPayload | null> {
    const known = this.#byShortName.get(shortName);
    if (known) return known;
    const missedAt = this.#misses.get(shortName);
    if (missedAt !== undefined && Date.now() - missedAt < this.#minRefreshMs) return null;
    const askedAfter = this.#started;
    // A refresh already under way may have read the list before this firm existed.
    while (this.#loading && this.#loading.number <= askedAfter) await this.#loading.done.catch(() => undefined);
    await this.refresh();
    const found = this.#byShortName.get(shortName) ?? null;
    if (found) {
      this.#misses.delete(shortName);
    } else {
      if (this.#misses.size >= MAX_REMEMBERED_MISSES) this.#misses.clear();
      this.#misses.set(shortName, Date.now());
    }
    return found;
  }

  /** Every active firm in the snapshot (loaded first if no load ever started): what background work visits. */
  async active(): Promise<TenantEventPayload[]> {
    if (this.#started === 0) await this.refresh();
    return [...this.#byShortName.values()].filter((t) => t.isActive);
  }

  /** Reloads the snapshot; concurrent callers share one call. */
  refresh(): Promise<void> {
    if (!this.#loading) {
      const loading = {
        number: ++this.#started,
        done: this.#source()
          .then((list) => { if (list) this.#byShortName = new Map(list.map((t) => [t.shortName, t])); })
          .finally(() => { if (this.#loading === loading) this.#loading = null; }),
      };
      this.#loading = loading;
    }
    return this.#loading.done;
  }

  /** Refreshes every `intervalMs` until stopped; a failed poll keeps the last snapshot. */
  poll(intervalMs: number, logger: Logger): { stop(): void } {
    const timer = setInterval(() => {
      this.refresh().catch((err: unknown) => logger.warn({ err: String(err) }, 'tenant snapshot not refreshed'));
    }, intervalMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }
}

/** Identity's internal listing of every firm (service port only), whole. */
export function identityTenantSource(identityUrl: () => string): () => Promise<TenantEventPayload[]> {
  return async () => (await fetchTenantList<TenantEventPayload>(identityUrl(), null)).list!;
}

/**
 * Identity's firm list as changes: the whole list on the first call and whenever it has
 * changed since the previous answer, null while it has not (identity then answers a
 * one-row question with 304 and no body). What polling registries use: at 1,000 firms the
 * list is ~170 KB, read by the gateway and every service several times a second.
 */
export function identityTenantChanges<T = TenantEventPayload>(identityUrl: () => string): () => Promise<T[] | null> {
  let version: string | null = null;
  return async () => {
    const answer = await fetchTenantList<T>(identityUrl(), version);
    version = answer.version;
    return answer.list;
  };
}

/** One call of identity's listing: the list (null: unchanged since `since`) and its version (null: an identity without versions). */
export async function fetchTenantList<T>(identityUrl: string, since: string | null): Promise<{ list: T[] | null; version: string | null }> {
  let r: Response;
  try {
    const query = since === null ? '' : `?since=${encodeURIComponent(since)}`;
    r = await fetch(`${identityUrl}${INTERNAL_TENANTS_PATH}${query}`, { signal: AbortSignal.timeout(5000) });
  } catch {
    throw new Unavailable('The identity service is unavailable. Please try again.');
  }
  if (r.status === 304) return { list: null, version: since };
  if (!r.ok) throw new Unavailable(`The identity service answered ${r.status}. Please try again.`);
  return { list: (await r.json()) as T[], version: r.headers.get(TENANT_LIST_VERSION_HEADER) };
}
