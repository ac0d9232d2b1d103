import { useEffect, useState } from 'react';
import { IconField } from 'primereact/iconfield';
import { InputIcon } from 'primereact/inputicon';
import { InputText } from 'primereact/inputtext';

/** The content search waits for a pause in typing before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

/** The typed search text and the settled one the file list asks for. */
export function useContentSearch() {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(input.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input]);
  return { input, setInput, search };
}

/** The labelled 'Search' box over file contents of the document screens. */
export function ContentSearchField({ id, value, onChange }: { id: string; value: string; onChange(value: string): void }) {
  return (
    <div className="files-filter files-filter--wide">
      <label htmlFor={id} className="files-filter__label">Search</label>
      <IconField iconPosition="left">
        <InputIcon className="pi pi-search" />
        <InputText id={id} value={value} onChange={(event) => onChange(event.target.value)} placeholder="Search file contents..." />
      </IconField>
    </div>
  );
}
