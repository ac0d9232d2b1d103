/**
 * The report type last chosen on the reports page, kept in localStorage (spec 001 §2 "Files
 * screen", §9; spec 000 §4 has the shell watch the same entry).
 */
export const SELECTED_REPORT_TYPE_KEY = 'selectedReportType';

export function readSelectedReportType(): number | null {
  try {
    const id = Number(localStorage.getItem(SELECTED_REPORT_TYPE_KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

export function saveSelectedReportType(id: number | null): void {
  try {
    if (id === null) localStorage.removeItem(SELECTED_REPORT_TYPE_KEY);
    else localStorage.setItem(SELECTED_REPORT_TYPE_KEY, String(id));
  } catch (error) {
    // Private modes may refuse storage; the choice then lasts only for this page.
    console.error('Failed to save the selected report type', error);
  }
}

/**
 * The stored choice if the user may still use that report type, else the first one they may
 * use; null when they have none. Several candidates are tried in order (a route's report
 * type, then the stored choice) before falling back to the first accessible one.
 */
export function restoreReportType(stored: number | null | readonly (number | null)[], accessibleIds: readonly number[]): number | null {
  const candidates = Array.isArray(stored) ? stored : [stored];
  for (const candidate of candidates) {
    if (candidate !== null && accessibleIds.includes(candidate)) return candidate;
  }
  return accessibleIds[0] ?? null;
}
