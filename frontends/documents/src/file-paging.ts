import { formatCount } from '@ledgerline/ui/count-format.ts';

/**
 * The file tables page on the server: each page of 25 rows is its own request, and the
 * reply's X-Total-Count says how many files match in all (a firm may hold 100,000).
 */
export const FILE_PAGE_ROWS = 25;

/** The row the table starts at, and the filters (the list URL without paging) it was paged under. */
export interface PagePosition {
  filtersUrl: string;
  first: number;
}

/** Changing any filter starts again from the first page; otherwise the position stands. */
export function positionUnder(position: PagePosition, filtersUrl: string): PagePosition {
  return position.filtersUrl === filtersUrl ? position : { filtersUrl, first: 0 };
}

/** The start of the last page when `first` lies past the end, e.g. after the last page's rows were deleted. */
export function firstRowWithin(first: number, total: number): number {
  const lastPageFirst = Math.max(0, Math.ceil(total / FILE_PAGE_ROWS) - 1) * FILE_PAGE_ROWS;
  return Math.min(first, lastPageFirst);
}

/** The paginator shows only when there is more than one page. */
export function hasSeveralPages(total: number): boolean {
  return total > FILE_PAGE_ROWS;
}

/** Under a capped search's table: the pages hold only the best matches. */
export function cappedMatchesNote(total: number): string {
  return `Showing the ${formatCount(total)} best matches`;
}
