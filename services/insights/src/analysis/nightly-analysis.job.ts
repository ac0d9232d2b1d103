import type { JobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import type { AnalysisService } from './analysis.service.ts';

export const NIGHTLY_JOB = 'nightly-analysis';

/** The next time the clock reads `hourUtc`:00 UTC after `now`. */
export function nextNightly(now: Date, hourUtc: number): Date {
  const next = new Date(now);
  next.setUTCHours(hourUtc % 24, 0, 0, 0);
  if (next <= now) next.setUTCDate(next.getUTCDate() + 1);
  return next;
}

/**
 * Analyses every client of the firm, then books the next night's run in the same
 * transaction. The key names the night: the scheduler deletes the row of the run that
 * just finished, and a key of its own keeps the next one from being that row.
 */
export function nightlyAnalysisJob(deps: { analysis: AnalysisService; jobs: JobQueue; hourUtc: number; logger: Logger }): JobHandler {
  return async (tx, _job, firm) => {
    const result = await deps.analysis.analyzeFirm(tx, firm.shortName);
    const next = nextNightly(new Date(), deps.hourUtc);
    await deps.jobs.schedule(tx, { kind: NIGHTLY_JOB, key: `${NIGHTLY_JOB}:${next.toISOString().slice(0, 10)}`, runAt: next, payload: {} });
    deps.logger.info({ tenant: firm.shortName, ...result }, 'nightly compliance analysis done');
  };
}
