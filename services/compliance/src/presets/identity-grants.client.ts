import { Forbidden, Invalid, Unavailable } from '@ledgerline/kit/errors.ts';
import { TENANT_HEADER } from '@ledgerline/kit/service-module.ts';
import type { TenantRequest } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import type { ReportAccessGrant } from '@ledgerline/contracts/identity.contracts.ts';

/**
 * Report access belongs to identity (DESIGN §2): a calendar's new report types are granted through
 * identity's own call (POST /api/users/{id}/report-access, Admin), with the caller's token, so its
 * rules hold and its user.upserted event tells every service's read model.
 */
export class IdentityGrants {
  readonly #identityUrl: () => string;

  constructor(identityUrl: () => string) {
    this.#identityUrl = identityUrl;
  }

  async grant(t: TenantRequest, userId: number, reportTypeIds: readonly number[]): Promise<ReportAccessGrant> {
    let r: Response;
    try {
      r = await fetch(`${this.#identityUrl()}/api/users/${userId}/report-access`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.token}`, [TENANT_HEADER]: t.shortName, 'content-type': 'application/json' },
        body: JSON.stringify({ reportTypeIds }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw new Unavailable('The identity service is unavailable. Please try again.');
    }
    const json = (await r.json().catch(() => null)) as (ReportAccessGrant & { message?: string }) | null;
    if (r.status === 403) throw new Forbidden(json?.message ?? 'Only an Admin can grant report types.');
    if (r.status === 400 || r.status === 404) throw new Invalid(json?.message ?? 'Identity refused the grant.');
    if (!r.ok || !json) throw new Unavailable(`The identity service answered ${r.status}. Please try again.`);
    return json;
  }
}
