import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { FIELD_TYPES, type SignatureFieldType } from '@ledgerline/contracts/signatures.contracts.ts';
import { apiPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import {
  clampToPage, DEFAULT_FIELD_SIZE, nudge, pointsToScreen, screenToPoints, shownSize, scaleToWidth,
  type PageGeometry, type PlacedField, type ScreenRect,
} from './placement-geometry.ts';
import { signatureBlockAtEnd } from './signature-placement.ts';
import './placement-editor.css';

/*
 * The field placement editor of the create dialog (issue 41): the chosen PDF's pages rendered
 * by pdfjs, one at a time, fitted to the dialog's width; each field a box that is dragged to
 * move and resized from its corner (pointer events, so a finger works too), nudged with the
 * arrow keys (1 pt, Shift 10 pt), coloured and named by its signer. The boxes are kept in the
 * server's points (placement-geometry.ts), so what is saved is what the server draws.
 *
 * pdfjs (about 400 KB, and its worker) is imported here only, when the editor opens a PDF:
 * no other page loads it.
 */

type PdfDocument = import('pdfjs-dist').PDFDocumentProxy;

export interface EditorSigner { key: number; name: string }

const TYPE_LABEL: Record<SignatureFieldType, string> = { signature: 'Signature', initials: 'Initials', date: 'Date', text: 'Text', checkbox: 'Checkbox' };
/** One colour per signer (up to SIGNATURE_LIMITS.signers), dark enough for white text. */
const SIGNER_COLOURS = ['#1d4ed8', '#b91c1c', '#047857', '#7e22ce', '#b45309', '#0e7490', '#be185d', '#4d7c0f', '#475569', '#9a3412'];
export const signerColour = (index: number) => SIGNER_COLOURS[index % SIGNER_COLOURS.length]!;
const signerName = (s: EditorSigner | undefined, index: number) => s?.name.trim() || `Signer ${index + 1}`;

let nextFieldId = 1;

/** The client's PDF through the files call the documents screens use, rendered by pdfjs with its worker from the package. */
async function openPdf(fileId: number, opened: (task: { destroy(): Promise<void> }) => void): Promise<PdfDocument> {
  const [pdfjs, response] = await Promise.all([import(/* webpackChunkName: "pdfjs" */ 'pdfjs-dist'), apiRequest('GET', apiPath(`files/${fileId}`))]);
  pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();
  const task = pdfjs.getDocument({ data: new Uint8Array(await response.arrayBuffer()) });
  opened(task);
  return task.promise;
}

interface Drag { id: number; mode: 'move' | 'resize'; pointerId: number; startX: number; startY: number; start: ScreenRect }

export function PlacementEditor({ fileId, signers, value, onChange }: {
  fileId: number;
  signers: readonly EditorSigner[];
  value: readonly PlacedField[];
  onChange(next: PlacedField[]): void;
}) {
  const [pdf, setPdf] = useState<PdfDocument | null>(null);
  const [pages, setPages] = useState<PageGeometry[]>([]);
  const [failed, setFailed] = useState(false);
  const [pageNumber, setPageNumber] = useState(1);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [newType, setNewType] = useState<SignatureFieldType>('signature');
  const [newSignerKey, setNewSignerKey] = useState<number | null>(null);
  const [width, setWidth] = useState(0);
  const [drag, setDrag] = useState<(Drag & { rect: ScreenRect }) | null>(null);
  // The drag as the pointer handlers see it: a pointerup may come before React has rendered the last move.
  const dragging = useRef<Drag | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const rendered = useRef<Promise<void>>(Promise.resolve());
  // The latest value for the pointer handlers, which outlive a render.
  const latest = useRef(value);
  latest.current = value;

  useEffect(() => {
    let cancelled = false;
    // Destroying the loading task ends its worker and frees the document.
    let task: { destroy(): Promise<void> } | null = null;
    setPdf(null); setPages([]); setFailed(false); setPageNumber(1);
    openPdf(fileId, (t) => { task = t; if (cancelled) void t.destroy(); }).then(async (doc) => {
      const geometry = await Promise.all(Array.from({ length: doc.numPages }, async (_, i) => {
        const page = await doc.getPage(i + 1);
        return { view: [page.view[0]!, page.view[1]!, page.view[2]!, page.view[3]!] as const, rotation: page.rotate };
      }));
      if (cancelled) return;
      setPdf(doc); setPages(geometry);
      // Boxes of another document's pages cannot stay.
      if (latest.current.some((f) => f.page > doc.numPages)) onChange(latest.current.filter((f) => f.page <= doc.numPages));
    }).catch(() => { if (!cancelled) setFailed(true); });
    return () => { cancelled = true; void task?.destroy(); };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reopened for another file only
  }, [fileId]);

  // The page fits the editor's column, on a phone too.
  useLayoutEffect(() => {
    const el = frame.current;
    if (!el) return;
    // Less the frame's side padding, where the corner handles and labels stick out.
    const measure = () => setWidth(Math.max(0, el.clientWidth - 16));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [pdf]);

  const page = pages[pageNumber - 1];
  const scale = page && width > 0 ? scaleToWidth(page, width) : 0;

  useEffect(() => {
    if (!pdf || !page || !scale || !canvas.current) return;
    let task: { cancel(): void; promise: Promise<void> } | null = null;
    let cancelled = false;
    // pdfjs refuses a second render into a canvas still being drawn (a cancel settles later):
    // each render starts once the one before it has ended, or the page would stay blank after a resize.
    const before = rendered.current;
    rendered.current = (async () => {
      await before;
      const p = await pdf.getPage(pageNumber);
      if (cancelled || !canvas.current) return;
      const viewport = p.getViewport({ scale: scale * (window.devicePixelRatio || 1) });
      const c = canvas.current;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      task = p.render({ canvas: c, viewport });
      await task.promise;
    })().catch(() => undefined);
    return () => { cancelled = true; task?.cancel(); };
  }, [pdf, page, pageNumber, scale]);

  const signerKeys = signers.map((s) => s.key);
  const paletteSigner = newSignerKey !== null && signerKeys.includes(newSignerKey) ? newSignerKey : signers[0]?.key ?? null;
  const selected = value.find((f) => f.id === selectedId && signerKeys.includes(f.signerKey)) ?? null;
  const replace = (next: PlacedField) => onChange(latest.current.map((f) => (f.id === next.id ? next : f)));

  const add = () => {
    if (!page || paletteSigner === null) return;
    const size = DEFAULT_FIELD_SIZE[newType];
    const shown = shownSize(page);
    // In the middle of the page as shown, where the eye is; the user drags it from there.
    const rect = clampToPage({ left: (shown.width - size.width) / 2, top: (shown.height - size.height) / 2, width: size.width, height: size.height }, page, 1);
    const box = screenToPoints(rect, page, 1);
    const field: PlacedField = { id: nextFieldId++, signerKey: paletteSigner, type: newType, page: pageNumber, required: true, ...box };
    onChange([...value, field]);
    setSelectedId(field.id);
  };

  const remove = (id: number) => { onChange(value.filter((f) => f.id !== id)); setSelectedId(null); };

  const blocksAtEnd = () => {
    if (pages.length === 0) return;
    const blocks = signatureBlockAtEnd(pages.length, signers.length).map((f): PlacedField => ({
      id: nextFieldId++, signerKey: signerKeys[f.signerIndex]!, type: f.type, page: f.page, required: true, x: f.x, y: f.y, width: f.width, height: f.height,
    }));
    // The blocks replace the signatures placed so far; other fields stay.
    onChange([...value.filter((f) => f.type !== 'signature'), ...blocks]);
    setPageNumber(pages.length);
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>, field: PlacedField, mode: Drag['mode']) => {
    if (!page || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    (mode === 'move' ? event.currentTarget : event.currentTarget.parentElement)?.focus();
    setSelectedId(field.id);
    const start = pointsToScreen(field, page, scale);
    dragging.current = { id: field.id, mode, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, start };
    setDrag({ ...dragging.current, rect: start });
  };
  /** Where the dragged box is with the pointer at this event: each event measured from the drag's start, so none depends on another. */
  const draggedRect = (event: PointerEvent<HTMLElement>): (Drag & { rect: ScreenRect }) | null => {
    const d = dragging.current;
    if (!d || !page || event.pointerId !== d.pointerId) return null;
    const dx = event.clientX - d.startX;
    const dy = event.clientY - d.startY;
    const moved = d.mode === 'move'
      ? { ...d.start, left: d.start.left + dx, top: d.start.top + dy }
      : { ...d.start, width: d.start.width + dx, height: d.start.height + dy };
    return { ...d, rect: clampToPage(moved, page, scale) };
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const moved = draggedRect(event);
    if (moved) setDrag(moved);
  };
  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    const dropped = draggedRect(event);
    if (!dropped || !page) return;
    dragging.current = null;
    const field = latest.current.find((f) => f.id === dropped.id);
    if (field) replace({ ...field, ...screenToPoints(dropped.rect, page, scale) });
    setDrag(null);
  };
  /** A cancelled pointer (the browser took the gesture over) leaves the box where it was. */
  const onPointerCancel = (event: PointerEvent<HTMLElement>) => {
    if (dragging.current?.pointerId !== event.pointerId) return;
    dragging.current = null;
    setDrag(null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, field: PlacedField) => {
    if (!page) return;
    const step = event.shiftKey ? 10 : 1;
    const move: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const delta = move[event.key];
    if (delta) {
      event.preventDefault();
      replace(nudge(field, page, delta[0], delta[1]));
    } else if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(field.id);
    }
  };

  if (failed) return <p className="signature-form__error" role="alert">This PDF could not be shown. Choose signature blocks at the end of the last page instead.</p>;
  if (!pdf || !page) return <p className="placement-editor__loading">Loading the pages…</p>;

  const shown = shownSize(page);
  const onPage = value.filter((f) => f.page === pageNumber && signerKeys.includes(f.signerKey));
  const describe = (f: PlacedField) => {
    const i = signerKeys.indexOf(f.signerKey);
    return `${TYPE_LABEL[f.type]} for ${signerName(signers[i], i)}, page ${f.page}, x ${f.x} y ${f.y} pt, ${f.width} × ${f.height} pt`;
  };

  return (
    <div className="placement-editor">
      <div className="placement-editor__palette" role="group" aria-label="Add a field">
        <Dropdown inputId="placement-type" aria-label="Field type" value={newType} onChange={(e) => setNewType(e.value as SignatureFieldType)}
          options={FIELD_TYPES.map((t) => ({ label: TYPE_LABEL[t], value: t }))} />
        <Dropdown inputId="placement-signer" aria-label="For signer" value={paletteSigner} onChange={(e) => setNewSignerKey(e.value as number)}
          options={signers.map((s, i) => ({ label: signerName(s, i), value: s.key }))} />
        <Button type="button" label="Add field" icon="pi pi-plus" size="small" onClick={add} />
        <Button type="button" label="Blocks at the end" icon="pi pi-bolt" size="small" outlined onClick={blocksAtEnd}
          tooltip="A signature block per signer at the end of the last page, to move from there" />
      </div>
      <div className="placement-editor__pager">
        <Button type="button" icon="pi pi-chevron-left" text size="small" aria-label="Previous page" disabled={pageNumber <= 1} onClick={() => setPageNumber(pageNumber - 1)} />
        <span>Page {pageNumber} of {pages.length}</span>
        <Button type="button" icon="pi pi-chevron-right" text size="small" aria-label="Next page" disabled={pageNumber >= pages.length} onClick={() => setPageNumber(pageNumber + 1)} />
      </div>
      <div ref={frame} className="placement-editor__frame">
        <div className="placement-editor__page" style={{ width: shown.width * scale, height: shown.height * scale }}
          onPointerDown={() => setSelectedId(null)} data-scale={scale}>
          <canvas ref={canvas} aria-label={`Page ${pageNumber}`} style={{ width: shown.width * scale, height: shown.height * scale }} />
          {onPage.map((f) => {
            const index = signerKeys.indexOf(f.signerKey);
            const rect = drag?.id === f.id ? drag.rect : pointsToScreen(f, page, scale);
            const isSelected = f.id === selected?.id;
            return (
              <div key={f.id} role="button" tabIndex={0} aria-pressed={isSelected} aria-label={describe(f)} data-field-id={f.id}
                className={`placement-box placement-box--${f.type}${isSelected ? ' placement-box--selected' : ''}`}
                style={{ left: rect.left, top: rect.top, width: rect.width, height: rect.height, '--signer-colour': signerColour(index) } as CSSProperties}
                onPointerDown={(e) => onPointerDown(e, f, 'move')} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerCancel}
                onFocus={() => setSelectedId(f.id)} onKeyDown={(e) => onKeyDown(e, f)}>
                <span className="placement-box__label">{signerName(signers[index], index)} · {TYPE_LABEL[f.type]}</span>
                <span className="placement-box__handle" aria-hidden="true"
                  onPointerDown={(e) => onPointerDown(e, f, 'resize')} onPointerMove={(e) => { e.stopPropagation(); onPointerMove(e); }}
                  onPointerUp={(e) => { e.stopPropagation(); onPointerUp(e); }} onPointerCancel={(e) => { e.stopPropagation(); onPointerCancel(e); }} />
              </div>
            );
          })}
        </div>
      </div>
      <div className="placement-editor__selected" aria-live="polite">
        {selected ? (
          <>
            <span>{describe(selected)}</span>
            <span className="signature-form__check">
              <Checkbox inputId="placement-required" checked={selected.required} onChange={(e) => replace({ ...selected, required: !!e.checked })} />
              <label htmlFor="placement-required">Required</label>
            </span>
            <Button type="button" label="Delete field" icon="pi pi-trash" size="small" severity="danger" text onClick={() => remove(selected.id)} />
          </>
        ) : <span>Select a box to move it with the arrow keys (Shift: 10 pt), resize it from its corner, or delete it.</span>}
      </div>
    </div>
  );
}
