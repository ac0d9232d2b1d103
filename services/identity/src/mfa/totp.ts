import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as every authenticator app does it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** One step either side: a phone clock a little off, or a code typed as it changed. */
const WINDOW_STEPS = 1;

const totpOf = (secretBase32: string, issuer = '', label = '') =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

/** A new 160-bit secret (RFC 4226's recommended length), base32. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** What the QR code carries: otpauth://totp/<issuer>:<label>?secret=…&issuer=… */
export const otpauthUrl = (secretBase32: string, issuer: string, label: string): string => totpOf(secretBase32, issuer, label).toString();

/**
 * The 30-second step the code belongs to, or null when it matches none within the window.
 * The caller accepts it only if the step is newer than the last one accepted (no replay).
 */
export function totpStep(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32).validate({ token, timestamp: nowMs, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}

/** The current code (tests, and nothing else, need to compute one). */
export const totpCode = (secretBase32: string, nowMs = Date.now()): string => totpOf(secretBase32).generate({ timestamp: nowMs });
