/** The part of a tenant (company) record the gateway routes by. */
export interface TenantRoute {
  shortName: string;
  isActive: boolean;
  urlPattern: 'path' | 'subdomain' | 'domain';
  customDomain: string | null;
  customSubdomain: string | null;
}

/**
 * The gateway's read model of tenants: a snapshot polled from identity, so every gateway
 * replica sees every change without a queue of its own. It answers host-based tenant
 * resolution and refuses requests for firms known to be inactive or removed.
 */
export class TenantDirectory {
  readonly #byShortName = new Map<string, TenantRoute>();
  readonly #removed = new Set<string>();
  #refresh: (() => Promise<void>) | null = null;
  #inFlight: Promise<void> | null = null;

  replaceAll(routes: readonly TenantRoute[]): void {
    const next = new Map(routes.map((t) => [t.shortName, t]));
    for (const name of this.#byShortName.keys()) if (!next.has(name)) this.#removed.add(name);
    for (const name of next.keys()) this.#removed.delete(name);
    this.#byShortName.clear();
    for (const [k, v] of next) this.#byShortName.set(k, v);
  }

  /** Known inactive or removed: requests for it are refused at the edge. */
  isUnavailable(shortName: string): boolean {
    return this.#removed.has(shortName) || this.#byShortName.get(shortName)?.isActive === false;
  }

  /**
   * Like isUnavailable, but a firm the snapshot says is gone gets a fresh look first, so a
   * firm re-activated or re-created a moment ago is not refused until the next poll.
   * Concurrent look-ups share one refresh (and the API rate limit bounds them).
   */
  async isUnavailableNow(shortName: string): Promise<boolean> {
    if (!this.isUnavailable(shortName)) return false;
    if (this.#refresh) {
      this.#inFlight ??= this.#refresh().finally(() => { this.#inFlight = null; });
      await this.#inFlight;
    }
    return this.isUnavailable(shortName);
  }

  /** Tenant served under this Host header by a subdomain or domain URL pattern. */
  resolveHost(hostHeader: string | undefined): string | null {
    if (!hostHeader) return null;
    const host = hostHeader.toLowerCase().replace(/:\d+$/, '');
    for (const t of this.#byShortName.values()) {
      if (!t.isActive) continue;
      if (t.urlPattern === 'domain' && t.customDomain && host === t.customDomain.toLowerCase()) return t.shortName;
      if (t.urlPattern === 'subdomain' && t.customSubdomain && host.startsWith(`${t.customSubdomain.toLowerCase()}.`)) return t.shortName;
    }
    return null;
  }

  /**
   * Polls `source` until stopped; a failed poll keeps the last good snapshot, and so does an
   * answer of null (the list has not changed since the last one).
   */
  poll(source: () => Promise<TenantRoute[] | null>, intervalMs: number, onError: (err: unknown) => void): { stop(): void; refresh(): Promise<void> } {
    const refresh = async () => {
      try {
        const routes = await source();
        if (routes) this.replaceAll(routes);
      } catch (err) { onError(err); }
    };
    this.#refresh = refresh;
    const timer = setInterval(() => { void refresh(); }, intervalMs);
    timer.unref();
    void refresh();
    return { stop: () => clearInterval(timer), refresh };
  }
}
