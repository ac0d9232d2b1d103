import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';

/** The compliance service's durable jobs (reminders, and the one-off re-announcement of relabelled items). */
export const complianceJobs = createJobQueue('compliance');
