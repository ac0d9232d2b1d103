import { useState } from 'react';
import type { DataTablePageEvent } from 'primereact/datatable';
import { fileListPath, type FileListFilters } from './documents.api.ts';
import { useFiles, type FilesQueryOptions } from './documents.queries.ts';
import { FILE_PAGE_ROWS, firstRowWithin, hasSeveralPages, positionUnder, type PagePosition } from './file-paging.ts';

/**
 * A file table's list, one page of 25 asked of the server at a time. `table` holds the
 * DataTable's lazy paging props; a change of any filter starts again from the first page.
 */
export function usePagedFiles(filters: FileListFilters, options: FilesQueryOptions = {}) {
  const filtersUrl = fileListPath(filters);
  const [stored, setStored] = useState<PagePosition>({ filtersUrl, first: 0 });
  const position = positionUnder(stored, filtersUrl);
  // Adjusted while rendering (React's pattern for state that follows its inputs), so going
  // back to earlier filters starts from their first page too, not where they were left.
  if (position !== stored) setStored(position);
  const { first } = position;

  const query = useFiles(fileListPath({ ...filters, limit: FILE_PAGE_ROWS, offset: first }), options);
  const reply = query.isPlaceholderData ? undefined : query.data;
  if (reply) {
    // Past the end (the last page's rows were deleted): move to what is now the last page.
    const within = firstRowWithin(first, reply.total);
    if (within !== first) setStored({ filtersUrl, first: within });
  }

  const total = query.data?.total ?? 0;
  return {
    query,
    rows: query.data?.files ?? [],
    total,
    capped: query.data?.capped ?? false,
    /** A first load, or rows of the previous page or filters shown while the new ones come. */
    loading: query.isFetching && (!query.data || query.isPlaceholderData),
    table: {
      lazy: true,
      paginator: hasSeveralPages(total),
      rows: FILE_PAGE_ROWS,
      first,
      totalRecords: total,
      onPage: (event: DataTablePageEvent) => setStored({ filtersUrl, first: event.first }),
    },
  };
}
