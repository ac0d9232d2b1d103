import type { Fixture } from '../fixture.ts';
import type { LoadClient } from './client.ts';
import type { Recorder } from './metrics.ts';

/** What one virtual user's iteration gets: the client, the run's fixture, checks and its own state. */
export interface VuContext {
  vu: number;
  iteration: number;
  http: LoadClient;
  fixture: Fixture;
  recorder: Recorder;
  check(name: string, ok: boolean): boolean;
  /** Per-VU state a scenario keeps across iterations (a socket, a session id), closed at the end. */
  state: Map<string, unknown>;
  onClose(close: () => void | Promise<void>): void;
}

/**
 * One thing people do in the product. `weight` is how often a virtual user does it,
 * relative to the others; `groups` are the endpoint groups its requests are timed under,
 * each with the p95 (ms) the thresholds hold it to.
 */
export interface Scenario {
  name: string;
  weight: number;
  groups: Record<string, { p95Ms: number }>;
  run(ctx: VuContext): Promise<void>;
}

/** Any item of a list, by a VU's iteration, so each VU walks the whole list in turn. */
export const pick = <T>(list: readonly T[], ctx: VuContext): T => list[(ctx.vu * 7 + ctx.iteration) % list.length]!;
