import type { RequestListener } from 'node:http';

/**
 * Which service answers which API path. Built from the services' own descriptors
 * (`apiResources`), so adding a service never means editing the gateway.
 * Resource keys may span segments (`public/files`, `admin/chat-sessions`); the longest
 * match wins. Any first segment that is no resource's first segment is a tenant name.
 */
export interface RouteTarget {
  service: string;
  url: string;
  /**
   * The service's own request listener when it runs in the gateway's process (the embedded
   * default): API calls are handed to it directly instead of over a loopback HTTP hop, which
   * costs as much CPU again as the service's own work.
   */
  inProcess?: RequestListener;
}

export interface ResolvedApiPath {
  /** Tenant named in the path (`/api/{tenant}/…`), or null for unprefixed calls. */
  pathTenant: string | null;
  /** The path the service sees: always the unprefixed `/api/…` form (query kept). */
  servicePath: string;
  target: RouteTarget | null;
}

export class RouteTable {
  readonly #byKey = new Map<string, RouteTarget>();
  readonly #firstSegments = new Set<string>();
  readonly #otherPaths: { prefix: string; target: RouteTarget }[] = [];

  addService(target: RouteTarget, apiResources: readonly string[], otherPaths: readonly string[] = []): void {
    for (const key of apiResources) {
      const existing = this.#byKey.get(key);
      if (existing) throw new Error(`API resource "${key}" is claimed by both ${existing.service} and ${target.service}`);
      this.#byKey.set(key, target);
      this.#firstSegments.add(key.split('/')[0]!);
    }
    for (const prefix of otherPaths) this.#otherPaths.push({ prefix, target });
  }

  /** Names a tenant may not take, because they would shadow an API resource. */
  reservedNames(): ReadonlySet<string> {
    return this.#firstSegments;
  }

  resolveApi(url: string): ResolvedApiPath {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? '' : url.slice(q);
    const segments = path.split('/').slice(2).filter((s) => s.length > 0); // drop '' and 'api'
    let pathTenant: string | null = null;
    let rest = segments;
    if (segments.length > 0 && !this.#firstSegments.has(segments[0]!)) {
      // Left encoded: short names are plain a-z0-9, so anything else names no firm (and a
      // malformed %-escape is no reason to fail).
      pathTenant = segments[0]!;
      rest = segments.slice(1);
    }
    const servicePath = `/api/${rest.join('/')}${query}`;
    for (let n = Math.min(rest.length, 3); n > 0; n--) {
      const target = this.#byKey.get(rest.slice(0, n).join('/'));
      if (target) return { pathTenant, servicePath, target };
    }
    return { pathTenant, servicePath, target: null };
  }

  resolveOther(path: string): RouteTarget | null {
    return this.#otherPaths.find((o) => path.startsWith(o.prefix))?.target ?? null;
  }
}
