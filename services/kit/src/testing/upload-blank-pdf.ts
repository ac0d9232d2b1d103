import { PDFDocument } from 'pdf-lib';

/**
 * Uploads a one-page US Letter PDF as a report of a client through the gateway and returns its
 * file id: the document the signature suites sign (any PDF does; its content is not read).
 */
export async function uploadBlankPdf(baseUrl: string, tenant: string, token: string, file: { clientId: number; reportTypeId?: number; name: string }): Promise<number> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const form = new FormData();
  form.set('fileType', 'report');
  form.set('clientId', String(file.clientId));
  if (file.reportTypeId !== undefined) form.set('reportTypeId', String(file.reportTypeId));
  form.append('file', new Blob([new Uint8Array(await doc.save())], { type: 'application/pdf' }), file.name);
  const r = await fetch(`${baseUrl}/api/${tenant}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (r.status !== 201) throw new Error(`upload of ${file.name}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
}
