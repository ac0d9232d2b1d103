import { csvDocument } from '../csv-cell.ts';
import type { ReadableContext } from './portability.ts';

/** A column of a readable table: its header and how a row shows in it. */
export type ReadableColumn<Row> = readonly [header: string, value: (row: Row) => unknown];

/** Writes `rows` as one CSV entry of the readable copy (every cell through the product's one CSV cell function). */
export async function writeReadableCsv<Row>(ctx: Pick<ReadableContext, 'write'>, name: string, columns: readonly ReadableColumn<Row>[], rows: readonly Row[]): Promise<void> {
  const body = Buffer.from(csvDocument(columns.map(([header]) => header), rows.map((row) => columns.map(([, value]) => value(row)))));
  await ctx.write(name, body.length, body);
}

// One formatter per zone: making one costs far more than using it, and a firm has thousands of rows.
const formatters = new Map<string, Intl.DateTimeFormat>();
const formatterOf = (timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) formatters.set(timeZone, f = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }));
  return f;
};

/** A timestamp as the firm's calendar day and time ('2026-11-29 14:05'), or '' when there is none. */
export function firmDateTime(value: Date | string | null, timeZone: string): string {
  if (value === null) return '';
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(new Date(value)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
