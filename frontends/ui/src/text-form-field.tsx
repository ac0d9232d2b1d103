import { InputText } from 'primereact/inputtext';
import { FormField } from './form-field.tsx';

export interface TextFormFieldProps {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** Fields checked live mark themselves touched when left. */
  onBlur?(): void;
  error?: string | undefined;
  hint?: string | undefined;
  placeholder?: string | undefined;
  type?: 'text' | 'email' | 'tel';
  /** Identifiers such as tax numbers are only ever upper-case: the input forces it while typing. */
  upperCase?: boolean;
  autoFocus?: boolean;
}

/** A labelled text input with its validation message: the most common row of every form. */
export function TextFormField({ id, label, value, onChange, onBlur, error, hint, placeholder, type = 'text', upperCase, autoFocus }: TextFormFieldProps) {
  return (
    <FormField label={label} htmlFor={id} error={error} hint={hint}>
      <InputText
        id={id}
        type={type}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(upperCase ? event.target.value.toUpperCase() : event.target.value)}
        onBlur={onBlur}
        invalid={Boolean(error)}
        autoFocus={autoFocus}
        autoComplete="off"
      />
    </FormField>
  );
}
