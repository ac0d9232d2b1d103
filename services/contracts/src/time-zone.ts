import { z } from 'zod';

export const TIME_ZONE_MESSAGE = 'Time zone must be an IANA time zone name such as Asia/Kolkata or America/New_York';

/**
 * The IANA zone name itself when the runtime knows it, else null. The name is kept as given:
 * ICU would rename some (Asia/Kolkata → Asia/Calcutta), and both Node and browsers accept either.
 */
export function knownTimeZone(name: string): string | null {
  // Offsets ('+05:30') and abbreviations ('IST', 'EST') are refused: they say nothing about summer time.
  if (!/^(UTC|[A-Za-z]+(\/[A-Za-z0-9_+-]+)+)$/.test(name)) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

/** A firm's time zone in a payload: an IANA name. */
export const timeZoneSchema = z.string({ error: TIME_ZONE_MESSAGE }).trim().max(64, TIME_ZONE_MESSAGE)
  .transform((v, ctx) => {
    const zone = knownTimeZone(v);
    if (!zone) ctx.addIssue({ code: 'custom', message: TIME_ZONE_MESSAGE });
    return zone ?? v;
  });
