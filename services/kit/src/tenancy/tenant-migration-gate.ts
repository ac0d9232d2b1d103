import express, { type Router } from 'express';
import { TENANT_HEADER } from '../service-module.ts';

/** What a firm's request is told while its schema is still being brought up to date. */
export const FIRM_MIGRATING_MESSAGE = "This firm's data is being updated after an upgrade. Try again in a few seconds.";
/** Seconds a client is told to wait before it asks again (Retry-After). */
export const FIRM_MIGRATING_RETRY_SECONDS = 5;

/** A service's background migrations since its start (INTERNAL_MIGRATION_PROGRESS_PATH answers it). */
export interface TenantMigrationProgress {
  /** Firms found behind at start. */
  behind: number;
  /** Of those, firms still closed: not migrated yet, or their migration failed (logged; "Refresh schema" retries). */
  pending: number;
  /** The short names of the firms still closed. */
  firms: string[];
}

/**
 * The firms a service is still migrating in the background after its start (issue 45): the
 * service listens at once, and a request for one of these firms is answered 503 with
 * Retry-After until its schema is current; every other firm is served meanwhile. Before,
 * each service migrated every firm before it listened, one service after another, so the
 * whole installation was closed for as long as the slowest firm took.
 */
export class TenantMigrationGate {
  /** Short name (what a request names) of each firm still closed, by its schema name (what a migration names). */
  readonly #pending = new Map<string, string>();
  #total = 0;

  /** Firms found behind at start, closed until their schema is migrated. */
  close(firms: readonly { shortName: string; schemaName: string }[]): void {
    for (const f of firms) this.#pending.set(f.schemaName, f.shortName);
    this.#total += firms.length;
  }

  /** The firm's schema is current (the background catch-up, a tenant event, or the admin's refresh): its requests pass again. */
  opened(schemaName: string): void {
    this.#pending.delete(schemaName);
  }

  isMigrating(shortName: string | undefined): boolean {
    if (shortName === undefined || this.#pending.size === 0) return false;
    for (const closed of this.#pending.values()) if (closed === shortName) return true;
    return false;
  }

  /** For logs and the admin console: how many firms were behind at start, how many still are, and which (short names). */
  progress(): TenantMigrationProgress {
    return { behind: this.#total, pending: this.#pending.size, firms: [...this.#pending.values()].sort() };
  }

  /** Answers 503 for a request in a firm still migrating (the gateway names the firm in TENANT_HEADER). */
  router(): Router {
    const router = express.Router();
    router.use((req, res, next) => {
      if (!this.isMigrating(req.header(TENANT_HEADER))) return next();
      res.setHeader('Retry-After', String(FIRM_MIGRATING_RETRY_SECONDS));
      res.status(503).json({ message: FIRM_MIGRATING_MESSAGE });
    });
    return router;
  }
}
