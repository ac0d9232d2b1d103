/** The floating panels of PrimeReact's dropdown-like inputs, present only while one is open. */
const OPEN_PANEL = '.p-dropdown-panel, .p-multiselect-panel, .p-autocomplete-panel, .p-datepicker:not(.p-datepicker-inline), .p-cascadeselect-panel';

/**
 * Escape while a dropdown is open (Dropdown, MultiSelect, AutoComplete, Calendar) closes only
 * the dropdown. PrimeReact's dialogs close on any Escape that reaches the document, and the
 * dropdown has handled its own Escape on the way there (React listens on the root and on
 * portal containers, at or inside `body`), so `body` stops the event before the document.
 */
export function keepEscapeInOpenOverlays(body: HTMLElement): () => void {
  const listener = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && body.ownerDocument.querySelector(OPEN_PANEL)) event.stopPropagation();
  };
  body.addEventListener('keydown', listener);
  return () => body.removeEventListener('keydown', listener);
}
