/** Where the reports page remembers its 'Display All Reports' checkbox, like the chosen report type. */
export const DISPLAY_ALL_REPORTS_KEY = 'displayAllReports';

export function readDisplayAllReports(): boolean {
  return localStorage.getItem(DISPLAY_ALL_REPORTS_KEY) === 'true';
}

export function saveDisplayAllReports(displayAll: boolean): void {
  localStorage.setItem(DISPLAY_ALL_REPORTS_KEY, String(displayAll));
}

/** The note under a search that found nothing in the chosen report type but found files in others. */
export function otherTypesMatchNote(count: number, search: string): string {
  return `${count} ${count === 1 ? 'file' : 'files'} in other report types ${count === 1 ? 'matches' : 'match'} '${search}'.`;
}
