/** A timestamp column as the API carries it (ISO 8601, UTC): PGlite and node-postgres hand back Dates, some paths text. */
export const isoInstant = (v: Date | string): string => new Date(v).toISOString();

/** A nullable timestamp column as the API carries it. */
export const isoInstantOrNull = (v: Date | string | null): string | null => (v === null ? null : isoInstant(v));
