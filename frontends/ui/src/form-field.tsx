import type { ReactNode } from 'react';

export interface FormFieldProps {
  label: string;
  htmlFor: string;
  error?: string | undefined;
  hint?: string | undefined;
  children: ReactNode;
}

/** A labelled control with its validation message underneath. */
export function FormField({ label, htmlFor, error, hint, children }: FormFieldProps) {
  return (
    <div className={error ? 'form-field form-field--invalid' : 'form-field'}>
      <label htmlFor={htmlFor} className="form-field__label">
        {label}
      </label>
      {children}
      {error ? (
        <small className="form-field__error" role="alert">
          {error}
        </small>
      ) : (
        hint && <small className="form-field__hint">{hint}</small>
      )}
    </div>
  );
}
