/**
 * What screens without forms need of signature requests, apart from the schemas in
 * signatures.contracts.ts: the dashboard's home imports no schema (building zod's schemas
 * holds a phone's processor).
 */

/** The realtime event name of a request's change, pushed to the users who reach its client and report type. */
export const SIGNATURE_PUSH = 'signature-request.changed';

/** Where a signed-in Client user signs a request of theirs: the signing page on their portal sign-in (served beside the app, not one of its routes). */
export const portalSigningPath = (tenant: string, requestId: number): string => `/sign/portal/${encodeURIComponent(tenant)}/${requestId}`;
