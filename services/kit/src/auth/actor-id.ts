import type { PortalClaims } from './claims.ts';

/**
 * The user id a firm's records store for the bearer (uploadedById, an activity's userId).
 * Platform administrators are numbered in the platform's own table, so their ids overlap
 * the firm's user ids: they are stored negated, and a firm user with the same number is
 * never credited with (or shown as the author of) what an administrator did.
 */
export function actorId(claims: PortalClaims): number {
  const id = Number(claims.sub);
  return claims.platformAdmin ? -id : id;
}

/** What a firm's records show as the bearer's name: the full name, else the username. */
export const actorName = (claims: PortalClaims): string => claims.fullName?.trim() || claims.username;
