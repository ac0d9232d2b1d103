import type { APIOptions } from 'primereact/api';

/**
 * PrimeReact settings for every component of the shell and the remotes (they share the one
 * PrimeReact), closing accessibility gaps of the library once instead of per screen.
 */
export const PRIME_REACT_CONFIG: Partial<APIOptions> = {
  pt: {
    dropdown: {
      // The native <select> a Dropdown keeps for forms is a hidden, unlabelled duplicate of
      // the labelled combobox; the chevron "button" is not focusable and only repeats it.
      select: { 'aria-hidden': true },
      trigger: { 'aria-hidden': true },
    },
    datatable: {
      // A table wider than the screen scrolls inside its wrapper, which keyboard users must
      // be able to focus to scroll (WCAG 2.1.1).
      wrapper: { tabIndex: 0 },
    },
  },
};
