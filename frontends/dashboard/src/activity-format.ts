import type { ActivityLog } from '@ledgerline/contracts/activity.contracts.ts';
import type { ActivityAction } from '@ledgerline/contracts/activity.constants.ts';

/** The feed's icon column, one per action of spec 001 §9. */
export const ACTION_ICONS: Readonly<Record<ActivityAction, string>> = {
  upload: 'pi pi-upload',
  download: 'pi pi-download',
  view: 'pi pi-eye',
  chat: 'pi pi-comments',
  delete: 'pi pi-trash',
  update: 'pi pi-pencil',
};

/** Names of the actions in charts, breakdowns and the action filter. */
export const ACTION_LABELS: Readonly<Record<ActivityAction, string>> = {
  upload: 'Uploads',
  download: 'Downloads',
  view: 'Views',
  chat: 'AI Chats',
  delete: 'Deletions',
  update: 'Updates',
};

const ACTION_VERBS: Readonly<Record<ActivityAction, string>> = {
  upload: 'Uploaded',
  download: 'Downloaded',
  view: 'Viewed',
  chat: 'Asked AI about',
  delete: 'Deleted',
  update: 'Updated',
};

/**
 * The Activity column: what happened to which file ('Viewed Q1 Return.pdf'). An entry about no
 * file (a request sent, a stage moved, a document signed) is the sentence its service wrote
 * ('Sent "Engagement letter 2027" for signature'), not "Updated Sent …".
 */
export function activityText(log: Pick<ActivityLog, 'action' | 'fileName' | 'details'>): string {
  if (!log.fileName && log.details) return log.details;
  return `${ACTION_VERBS[log.action] ?? log.action} ${log.fileName ?? 'a file'}`;
}

/** Whether a row offers view and download: it names a file that still exists. */
export function hasViewableFile(log: Pick<ActivityLog, 'action' | 'fileId' | 'fileName' | 'fileDeleted'>): boolean {
  return log.fileId !== null && log.fileName !== null && log.action !== 'delete' && !log.fileDeleted;
}

/** The row names a file that has been deleted since (its own delete entry says so already). */
export function namesDeletedFile(log: Pick<ActivityLog, 'action' | 'fileDeleted'>): boolean {
  return log.fileDeleted && log.action !== 'delete';
}
