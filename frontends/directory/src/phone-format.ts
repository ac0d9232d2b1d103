import type { PhoneCountry } from '@ledgerline/contracts/directory.contracts.ts';

/** A country's national number length and how the firm's preset writes it (spec 000 §3 "Phone presets"). */
const PRESETS: Record<PhoneCountry, { code: string; lengths: readonly number[]; write(national: string): string }> = {
  US: { code: '1', lengths: [10], write: (n) => `(${n.slice(0, 3)})-${n.slice(3, 6)}-${n.slice(6)}` },
  CA: { code: '1', lengths: [10], write: (n) => `(${n.slice(0, 3)})-${n.slice(3, 6)}-${n.slice(6)}` },
  IN: { code: '91', lengths: [10], write: (n) => `+91${n}` },
  UK: { code: '44', lengths: [10, 11], write: (n) => `+44${n}` },
  AU: { code: '61', lengths: [9], write: (n) => `+61${n}` },
};

/**
 * A phone number as typed ('98765 43210', '+1 555 123 4567', '020 7946 0958') written in the
 * firm's format, when its digits make one number of that country (with or without the
 * country code or a trunk 0); anything else is left as typed for the validation to name.
 */
export function normalisePhone(typed: string, country: PhoneCountry): string {
  const preset = PRESETS[country];
  const digits = typed.replace(/\D/g, '');
  // Without the country code or the trunk 0 first: '020 7946 0958' is the UK's 20 7946 0958.
  const candidates = [digits.startsWith(preset.code) ? digits.slice(preset.code.length) : '', digits.startsWith('0') ? digits.slice(1) : '', digits];
  const national = candidates.find((candidate) => candidate && preset.lengths.includes(candidate.length));
  return national ? preset.write(national) : typed;
}

/** Groups of a stored number's national digits as people of that country write them. */
const READABLE: { pattern: RegExp; write(m: RegExpExecArray): string }[] = [
  // The spec's "(XXX)-XXX-XXXX" (US, Canada) as the North American plan writes it.
  { pattern: /^\((\d{3})\)-(\d{3})-(\d{4})$/, write: (m) => `(${m[1]}) ${m[2]}-${m[3]}` },
  { pattern: /^\+91(\d{5})(\d{5})$/, write: (m) => `+91 ${m[1]} ${m[2]}` },
  { pattern: /^\+44(7\d{3})(\d{6})$/, write: (m) => `+44 ${m[1]} ${m[2]}` },
  { pattern: /^\+44(20)(\d{4})(\d{4})$/, write: (m) => `+44 ${m[1]} ${m[2]} ${m[3]}` },
  { pattern: /^\+44(\d{4})(\d{6})$/, write: (m) => `+44 ${m[1]} ${m[2]}` },
  { pattern: /^\+61(4\d{2})(\d{3})(\d{3})$/, write: (m) => `+61 ${m[1]} ${m[2]} ${m[3]}` },
  { pattern: /^\+61(\d)(\d{4})(\d{4})$/, write: (m) => `+61 ${m[1]} ${m[2]} ${m[3]}` },
];

/**
 * A stored number as a client reads it (issue 40): "(212) 555-0147" rather than the firm's
 * "(212)-555-0147", "+91 98765 43210" rather than "+919876543210"; anything else as typed.
 */
export function readablePhone(stored: string): string {
  for (const { pattern, write } of READABLE) {
    const m = pattern.exec(stored.trim());
    if (m) return write(m);
  }
  return stored;
}
