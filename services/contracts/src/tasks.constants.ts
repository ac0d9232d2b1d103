/*
 * Where a task's notification leads, apart from the schemas in tasks.contracts.ts: the
 * Dashboard's work panels link tasks on its first screen, without the validation library.
 */

/** The Tasks page opens the task named in this query parameter. */
export const TASK_LINK_PARAM = 'task';
export const taskActionUrl = (taskId: number): string => `/tasks?${TASK_LINK_PARAM}=${taskId}`;
