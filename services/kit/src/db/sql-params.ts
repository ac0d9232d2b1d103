/**
 * Positional parameters for SQL assembled from optional parts (filters, access scopes):
 * `p.add(value)` stores the value and returns its placeholder (`$3`), so conditions are
 * written in the order they are thought of and values are never spliced into the text.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
