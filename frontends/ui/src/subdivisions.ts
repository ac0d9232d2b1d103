import { CLIENT_STATES, type ClientJurisdiction } from '@ledgerline/contracts/directory.contracts.ts';
import { SUBDIVISION_NAMES, subdivisionLabel } from '@ledgerline/contracts/subdivision-names.ts';

/** The names live in contracts (the services print them too). */
export { subdivisionLabel };

export interface Subdivision { code: string; name: string }

/** A jurisdiction's subdivisions by name, as its select lists them. */
export function subdivisionsOf(jurisdiction: ClientJurisdiction): Subdivision[] {
  return CLIENT_STATES[jurisdiction].map((code) => ({ code, name: SUBDIVISION_NAMES.get(code) ?? code })).sort((a, b) => (a.name < b.name ? -1 : 1));
}
