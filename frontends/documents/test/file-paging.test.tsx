import { beforeEach, describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DataTable } from 'primereact/datatable';
import { Column } from 'primereact/column';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { readsApiResource } from '@ledgerline/ui/api-invalidation.ts';
import { listTotal } from '@ledgerline/ui/list-page.ts';
import { fetchFilePage, type FilePage } from '../src/documents.queries.ts';
import { cappedMatchesNote, FILE_PAGE_ROWS, firstRowWithin, hasSeveralPages, positionUnder } from '../src/file-paging.ts';
import { usePagedFiles } from '../src/use-paged-files.ts';
import { installFetch, installLocalStorage } from '../../ui/test/browser-globals.ts';

const acme = { id: 1, name: 'Acme', shortName: 'acme', isActive: true };

const file = (id: number): PortalFile => ({ id, originalName: `file-${id}.pdf` }) as PortalFile;

describe('file paging', () => {
  beforeEach(() => {
    installLocalStorage().setItem('currentTenant', JSON.stringify(acme));
  });

  it('reads the total, and whether a search capped it, from the reply headers', () => {
    expect(listTotal(new Headers({ 'X-Total-Count': '100000' }), 25)).toEqual({ total: 100_000, capped: false });
    expect(listTotal(new Headers({ 'X-Total-Count': '1000', 'X-Total-Count-Capped': 'true' }), 25)).toEqual({ total: 1000, capped: true });
    expect(listTotal(new Headers({ 'X-Total-Count': '0' }), 0)).toEqual({ total: 0, capped: false });
    // Without a readable count the table knows only the rows it received.
    expect(listTotal(new Headers(), 7)).toEqual({ total: 7, capped: false });
    expect(listTotal(new Headers({ 'X-Total-Count': 'many' }), 3)).toEqual({ total: 3, capped: false });
  });

  it('starts from the first page when any filter changes, and keeps the page otherwise', () => {
    const paged = { filtersUrl: '/api/acme/files?clientId=3', first: 50 };
    expect(positionUnder(paged, '/api/acme/files?clientId=3')).toBe(paged);
    expect(positionUnder(paged, '/api/acme/files?clientId=4')).toEqual({ filtersUrl: '/api/acme/files?clientId=4', first: 0 });
  });

  it('moves to the last page when the position lies past the end', () => {
    expect(FILE_PAGE_ROWS).toBe(25);
    expect(firstRowWithin(50, 51)).toBe(50);
    expect(firstRowWithin(50, 50)).toBe(25);
    expect(firstRowWithin(50, 26)).toBe(25);
    expect(firstRowWithin(25, 0)).toBe(0);
    expect(firstRowWithin(0, 0)).toBe(0);
  });

  it('shows the paginator only with more than one page', () => {
    expect(hasSeveralPages(25)).toBe(false);
    expect(hasSeveralPages(26)).toBe(true);
    expect(cappedMatchesNote(1000)).toBe('Showing the 1,000 best matches');
  });

  it('fetches a page with the stored token and reads its total', async () => {
    localStorage.setItem('token', 'cpa.token');
    const requests = installFetch(() => new Response(JSON.stringify([file(1), file(2)]), {
      headers: { 'Content-Type': 'application/json', 'X-Total-Count': '1000', 'X-Total-Count-Capped': 'true' },
    }));
    const page = await fetchFilePage('/api/acme/files?search=gst&limit=25&offset=25');
    expect(page).toEqual({ files: [file(1), file(2)], total: 1000, capped: true });
    expect(requests[0]!.url).toBe('/api/acme/files?search=gst&limit=25&offset=25');
    expect(new Headers(requests[0]!.init.headers).get('Authorization')).toBe('Bearer cpa.token');
  });

  it('fails like every other call on a non-OK reply', async () => {
    installFetch(() => new Response('{"message":"Dates must be YYYY-MM-DD or an ISO timestamp with a time zone"}', { status: 400 }));
    const error = await fetchFilePage('/api/acme/files?startDate=x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
  });

  describe('usePagedFiles', () => {
    const firstPageKey = '/api/acme/files?clientId=3&fileType=report&limit=25&offset=0';

    function renderTable(cached: FilePage) {
      const queryClient = new QueryClient();
      queryClient.setQueryData([firstPageKey], cached);
      function Table() {
        const files = usePagedFiles({ clientId: 3, fileType: 'report' }, { enabled: false });
        return (
          <DataTable {...files.table} value={files.rows} dataKey="id" className="files-table">
            <Column header="File Name" field="originalName" />
          </DataTable>
        );
      }
      return renderToStaticMarkup(<QueryClientProvider client={queryClient}><Table /></QueryClientProvider>);
    }

    it('keys the first page by its URL, which invalidating "files" reaches', () => {
      const html = renderTable({ files: [file(1)], total: 1, capped: false });
      expect(html).toContain('file-1.pdf');
      expect(readsApiResource([firstPageKey], ['files'])).toBe(true);
    });

    it('pages the server total with a paginator, and shows none for a single page', () => {
      const rows = Array.from({ length: 25 }, (_, index) => file(index + 1));
      const several = renderTable({ files: rows, total: 60, capped: false });
      expect(several).toContain('p-paginator');
      // Three pages of 25 for 60 files, though only the first 25 rows were received.
      expect(several.match(/class="p-paginator-page /g)).toHaveLength(3);
      expect(several.match(/file-\d+\.pdf/g)).toHaveLength(25);
      expect(renderTable({ files: rows, total: 25, capped: false })).not.toContain('p-paginator');
    });
  });
});
