import { useEffect } from 'react';

export const PRODUCT_NAME = 'Ledgerline';

/** The tab title: the page, then the firm when one is known, then the product ('Clients · Harbor & Pine · Ledgerline'). */
export function documentTitle(page: string, firm?: string | null): string {
  return [page, firm, PRODUCT_NAME].filter(Boolean).join(' · ');
}

/** Keeps the tab title in step with the page shown. */
export function useDocumentTitle(page: string, firm?: string | null): void {
  const title = documentTitle(page, firm);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
