import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { useRef } from 'react';
import type { DraftItem } from './request-view.ts';

/** Keys for new rows of a checklist (React needs one per row; titles may repeat or be empty). */
export function useDraftKeys(): (item: Omit<DraftItem, 'key'>) => DraftItem {
  const next = useRef(1);
  return (item) => ({ ...item, key: next.current++ });
}

/**
 * A checklist being written (a new request's items, a template's): a title per item, whether
 * it is required, and with `descriptions` a line that says more; rows added and removed.
 */
export function ChecklistEditor({ items, onChange, draft, error, descriptions = false }: {
  items: readonly DraftItem[];
  onChange(items: DraftItem[]): void;
  draft(item: Omit<DraftItem, 'key'>): DraftItem;
  error?: string | undefined;
  descriptions?: boolean;
}) {
  const setItem = (key: number, change: Partial<DraftItem>) => onChange(items.map((i) => (i.key === key ? { ...i, ...change } : i)));
  return (
    <fieldset className="request-form__items">
      <legend>Items *</legend>
      {error && <small className="form-field__error" role="alert">{error}</small>}
      {items.map((item, index) => (
        <div className={descriptions ? 'request-form__item request-form__item--described' : 'request-form__item'} key={item.key}>
          <InputText aria-label={`Item ${index + 1} title`} value={item.title} placeholder="Title" onChange={(e) => setItem(item.key, { title: e.target.value })} />
          <span className="request-form__required">
            <Checkbox inputId={`checklist-item-${item.key}-required`} checked={item.required} onChange={(e) => setItem(item.key, { required: !!e.checked })} />
            <label htmlFor={`checklist-item-${item.key}-required`}>Required</label>
          </span>
          <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remove item ${index + 1}`}
            onClick={() => onChange(items.filter((i) => i.key !== item.key))} />
          {descriptions && (
            <InputText className="request-form__description" aria-label={`Item ${index + 1} description`} placeholder="Description (optional)"
              value={item.description ?? ''} onChange={(e) => setItem(item.key, { description: e.target.value || null })} />
          )}
        </div>
      ))}
      <Button type="button" label="Add Item" icon="pi pi-plus" text size="small"
        onClick={() => onChange([...items, draft({ title: '', description: null, required: true })])} />
    </fieldset>
  );
}
