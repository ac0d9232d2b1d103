import type { Company } from '@ledgerline/contracts/identity.contracts.ts';

export type AccessUrlCompany = Pick<Company, 'shortName' | 'urlPattern' | 'customDomain' | 'customSubdomain'>;

/** The parts of the browser's location the access URL is built from. */
export interface PortalLocation {
  protocol: string;
  host: string;
  origin: string;
}

/**
 * Spec 000 §3 "Tenant access URL": subdomain pattern with a subdomain gives
 * {subdomain}.{current host}; domain pattern with a domain gives {domain}; otherwise
 * {origin}/{shortName}. Hosts get the page's scheme so the link opens.
 */
export function tenantAccessUrl(company: AccessUrlCompany, location: PortalLocation): string {
  if (company.urlPattern === 'subdomain' && company.customSubdomain) return `${location.protocol}//${company.customSubdomain}.${location.host}`;
  if (company.urlPattern === 'domain' && company.customDomain) {
    return /^https?:\/\//i.test(company.customDomain) ? company.customDomain : `${location.protocol}//${company.customDomain}`;
  }
  return `${location.origin}/${company.shortName}`;
}

/** Where the firm signs in: the access URL plus /login. */
export const tenantLoginUrl = (company: AccessUrlCompany, location: PortalLocation): string => `${tenantAccessUrl(company, location)}/login`;
