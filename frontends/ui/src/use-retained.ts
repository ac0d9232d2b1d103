import { useState } from 'react';

/**
 * The last non-null value seen. A dialog is told to close by its target becoming null, but
 * it fades out for a moment: rendering the retained target keeps its title and fields from
 * flipping to the "add" form while it disappears.
 */
export function useRetained<T>(value: T | null): T | null {
  const [retained, setRetained] = useState(value);
  if (value !== null && value !== retained) setRetained(value);
  return value ?? retained;
}
