import { Forbidden, Invalid, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ReportType } from '@ledgerline/contracts/directory.contracts.ts';

/**
 * Report types belong to the directory (DESIGN §2): a preset that needs one the firm lacks asks
 * the directory's own API to create it, with the caller's token, so the directory's rule (only
 * an Admin creates report types) and its unique names hold. A name taken meanwhile (409) is
 * looked up again rather than failing.
 */
export class DirectoryReportTypes {
  readonly #directoryUrl: () => string;

  constructor(directoryUrl: () => string) {
    this.#directoryUrl = directoryUrl;
  }

  async list(t: TenantRequest): Promise<ReportType[]> {
    return (await this.#call<ReportType[]>(t, 'GET')).body ?? [];
  }

  /** The existing report type of this name (any case), else a new one; `created` says which. */
  async ensure(t: TenantRequest, name: string, description: string): Promise<{ reportType: ReportType; created: boolean }> {
    const find = async () => (await this.list(t)).find((r) => r.name.toLowerCase() === name.toLowerCase());
    const existing = await find();
    if (existing) return { reportType: existing, created: false };
    const r = await this.#call<ReportType>(t, 'POST', { name, description });
    if (r.status === 201 && r.body) return { reportType: r.body, created: true };
    const raced = r.status === 409 ? await find() : undefined;
    if (raced) return { reportType: raced, created: false };
    throw new Unavailable(`The directory service answered ${r.status}. Please try again.`);
  }

  async #call<T>(t: TenantRequest, method: 'GET' | 'POST', body?: unknown): Promise<{ status: number; body: T | null }> {
    let r: Response;
    try {
      r = await fetch(`${this.#directoryUrl()}/api/report-types`, {
        method,
        headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new Unavailable('The directory service is unavailable. Please try again.');
    }
    const json = (await r.json().catch(() => null)) as (T & { message?: string }) | null;
    // The directory's refusal is the caller's answer: only an Admin may create report types.
    if (r.status === 403) throw new Forbidden(json?.message ?? 'Only an Admin can create the report types this preset needs.');
    if (r.status === 400) throw new Invalid(json?.message ?? 'The directory refused the report type.');
    if (!r.ok && r.status !== 409) throw new Unavailable(`The directory service answered ${r.status}. Please try again.`);
    return { status: r.status, body: r.ok ? json : null };
  }
}
