/* What the screens that start or show signature requests (the signatures remote, the tracker) share. */

/** What "Request signature" on a tracker item fills in the signatures page's create dialog. */
export interface SignaturePrefill {
  clientId: number;
  reportTypeId: number;
  trackerItemId: number;
  title: string;
}

/** The signatures page with its create dialog open and filled in (the dialog lives in the signatures remote). */
export function newSignatureRequestPath(prefill: SignaturePrefill): string {
  const q = new URLSearchParams({ new: '1', clientId: String(prefill.clientId), reportTypeId: String(prefill.reportTypeId), trackerItemId: String(prefill.trackerItemId), title: prefill.title });
  return `/signatures?${q.toString()}`;
}

const idParam = (q: URLSearchParams, key: string): number | null => {
  const n = Number(q.get(key));
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** The prefill a /signatures?new=1… address asks for; null when it asks for no dialog. Ids that are not ids are left out. */
export function readSignaturePrefill(search: string): Partial<SignaturePrefill> | null {
  const q = new URLSearchParams(search);
  if (q.get('new') !== '1') return null;
  return {
    ...(idParam(q, 'clientId') ? { clientId: idParam(q, 'clientId')! } : {}),
    ...(idParam(q, 'reportTypeId') ? { reportTypeId: idParam(q, 'reportTypeId')! } : {}),
    ...(idParam(q, 'trackerItemId') ? { trackerItemId: idParam(q, 'trackerItemId')! } : {}),
    ...(q.get('title') ? { title: q.get('title')!.slice(0, 200) } : {}),
  };
}
