import type { FileType } from '@ledgerline/contracts/files.contracts.ts';

/** Labels of the file types (spec 001 §3) in tables and the upload dialog. */
export const FILE_TYPE_LABELS: Readonly<Record<FileType, string>> = {
  report: 'Report',
  company_document: 'Company Document',
  firm_document: 'Firm Document',
};

/** The file panel's choice (spec 001 §2): Reports or Company Documents. */
export const PANEL_FILE_TYPES: readonly { label: string; value: FileType }[] = [
  { label: 'Reports', value: 'report' },
  { label: 'Company Documents', value: 'company_document' },
];

/** Spec 001 §9: dates are picked and shown as MM/dd/yyyy (PrimeReact's 'mm/dd/yy'). */
export const CALENDAR_DATE_FORMAT = 'mm/dd/yy';

/**
 * The picked start and end days as the files query sends them (spec 001 §5): from the start
 * of the start day to 23:59:59.999 of the end day, both inclusive, in the user's own time
 * zone, sent as exact instants so the server draws the line where the user's calendar does.
 * A range picked backwards is put the right way round.
 */
export function dateRangeQuery(start: Date | null, end: Date | null): { startDate: string | null; endDate: string | null } {
  const [from, to] = start && end && end < start ? [end, start] : [start, end];
  return {
    startDate: from ? new Date(from.getFullYear(), from.getMonth(), from.getDate()).toISOString() : null,
    endDate: to ? new Date(to.getFullYear(), to.getMonth(), to.getDate(), 23, 59, 59, 999).toISOString() : null,
  };
}

/** Spec 001 §2 empty texts of the reports table. */
/**
 * The reports table's empty text (spec 001 §2); a content search that found nothing says so
 * rather than inviting an upload.
 */
export function emptyFilesMessage(reportTypeChosen: boolean, search = ''): string {
  if (search) return `No files match '${search}'${reportTypeChosen ? ' in this report type' : ''}.`;
  return reportTypeChosen ? 'No files found for this report type.' : 'No files found. Upload a file to get started.';
}

/** Spec 001 §2: one accessible client is chosen for the user; with several they pick. */
export function autoSelectedClient(clients: readonly { id: number }[] | undefined): number | null {
  return clients?.length === 1 ? clients[0]!.id : null;
}
