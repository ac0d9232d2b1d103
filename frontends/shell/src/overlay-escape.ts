/** An open dropdown's input (aria-expanded) or its panel, wherever PrimeReact put it. */
const OPEN_OVERLAY = '[aria-expanded="true"], .p-dropdown-panel, .p-multiselect-panel, .p-autocomplete-panel, .p-datepicker';

/**
 * Escape in an open dropdown (Dropdown, MultiSelect, AutoComplete, Calendar) closes only the
 * dropdown. PrimeReact's dialogs close on any Escape that reaches the document, and the
 * dropdown has handled its own Escape on the way there (React listens on the root, inside
 * `body`), so `body` stops the event before it reaches the dialog's listener.
 */
export function keepEscapeInOpenOverlays(body: HTMLElement): () => void {
  const listener = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && event.target instanceof Element && event.target.closest(OPEN_OVERLAY)) event.stopPropagation();
  };
  body.addEventListener('keydown', listener);
  return () => body.removeEventListener('keydown', listener);
}
