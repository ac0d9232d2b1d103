/**
 * Result parsing both adapters share, so a row looks the same on PGlite and PostgreSQL.
 * Left alone, `pg` returns int8 as a string and `date` as a local-midnight Date, while
 * PGlite returns int8 as a number and `date` as a UTC-midnight Date.
 */
const INT8_OID = 20;
const DATE_OID = 1082;

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Counts and bigserial ids as plain numbers; a bigint only beyond 2^53, where a number would be wrong. */
function parseInt8(text: string): number | bigint {
  const value = BigInt(text);
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

/** Calendar dates (due dates, tax years) stay `YYYY-MM-DD`: no time zone can shift them a day. */
function parseDate(text: string): string {
  return text;
}

export const TYPE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [INT8_OID]: parseInt8,
  [DATE_OID]: parseDate,
};
