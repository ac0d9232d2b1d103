import { Button } from 'primereact/button';
import type { TrackerSignedDocument } from '@ledgerline/contracts/compliance.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { viewFile } from '@ledgerline/ui/file-access.ts';

/** "Form 8879 2026 signed 03/12/2027": what the item's linked signature request signed, and when (issue 41). */
export const signedDocumentLabel = (d: TrackerSignedDocument): string => `${d.title} signed ${formatDate(d.signedAt)}`;

/** The item's signed document, opening the sealed PDF (a report of the client) on a click. */
export function SignedDocumentChip({ document }: { document: TrackerSignedDocument | null }) {
  if (!document) return null;
  const label = signedDocumentLabel(document);
  return <Button className="compliance-signed" size="small" text icon="pi pi-verified" label={label} aria-label={`Open the signed document: ${label}`}
    onClick={() => { void viewFile({ id: document.fileId, originalName: `${document.title} - signed.pdf` }); }} />;
}
