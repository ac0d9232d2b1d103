import { useMemo, useState } from 'react';
import { validateForm, type FieldErrors, type FormSchema, type Validation } from './form-validation.ts';

export interface LiveValidation<T> {
  /** Messages to show: fields the user has touched, every field once a submit was tried. */
  errors: FieldErrors;
  /** Marks a field as touched (on change or blur) so its message shows from now on. */
  touch(field: string): void;
  /** Shows every message and returns the check of the current values. */
  submit(): Validation<T>;
}

/**
 * Checks a form on every change with the schema its API parses with, without shouting at
 * fields the user has not reached yet. The schema must be stable (memoised) between renders.
 */
export function useLiveValidation<T>(schema: FormSchema<T>, values: unknown): LiveValidation<T> {
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const result = useMemo(() => validateForm(schema, values), [schema, values]);

  const allErrors = result.ok ? {} : result.errors;
  const errors = submitted ? allErrors : Object.fromEntries(Object.entries(allErrors).filter(([field]) => touched.has(field)));
  return {
    errors,
    touch: (field) => setTouched((current) => (current.has(field) ? current : new Set(current).add(field))),
    submit: () => {
      setSubmitted(true);
      return result;
    },
  };
}
