import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Password } from 'primereact/password';
import { loginRequestSchema, type LoginRequest } from '@ledgerline/contracts/auth.contracts.ts';
import { readFirstPaintSignIn, removeFirstPaint, type FirstPaintChoice, type FirstPaintSignIn } from '@ledgerline/ui/first-paint.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { validateForm, type FieldErrors } from '@ledgerline/ui/form-validation.ts';

export interface LoginFormProps {
  submitLabel: string;
  /** Resolves once the attempt is over; the button reads 'Signing in...' until then. */
  onSubmit(credentials: LoginRequest): Promise<void>;
  /** Above the fields: the tenant login's error banner. */
  banner?: ReactNode;
  /** The form of the gateway's first HTML this one takes over (ui/first-paint.ts). */
  firstPaint?: FirstPaintSignIn | null;
  /** The passkey or e-mail button of that page was pressed before the app ran. */
  onFirstPaintChoice?(choice: FirstPaintChoice): void;
}

/** Username and password with the spec's required-field messages (spec 000 §5). */
export function LoginForm({ submitLabel, onSubmit, banner, firstPaint, onFirstPaintChoice }: LoginFormProps) {
  const [values, setValues] = useState<LoginRequest>({ username: firstPaint?.username ?? '', password: firstPaint?.password ?? '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const [sendTakenOver, setSendTakenOver] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // Before the first paint with this form: the gateway's copy goes, the cursor comes back, a
  // sent form is sent, a pressed button goes on. The copy is read again here: React may render
  // a lazily loaded page in slices, and what was typed or pressed between that render and this
  // commit counts too.
  useLayoutEffect(() => {
    if (!firstPaint) return;
    const latest = readFirstPaintSignIn() ?? firstPaint;
    removeFirstPaint();
    setValues({ username: latest.username, password: latest.password });
    document.getElementById(latest.focused === 'password' ? 'login-password' : 'login-username')?.focus();
    if (latest.chosen) onFirstPaintChoice?.(latest.chosen);
    else if (latest.submitted) setSendTakenOver(true);
  }, [firstPaint]);
  // Sent once the form holds the values taken over.
  useEffect(() => {
    if (sendTakenOver) form.current?.requestSubmit();
  }, [sendTakenOver]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateForm(loginRequestSchema, values);
    setErrors(checked.ok ? {} : checked.errors);
    if (!checked.ok) return;
    setPending(true);
    try {
      await onSubmit(checked.data);
    } finally {
      setPending(false);
    }
  };

  const set = (field: keyof LoginRequest) => (value: string) => setValues((current) => ({ ...current, [field]: value }));

  return (
    <form ref={form} className="login-form" onSubmit={submit} noValidate>
      {banner}
      <FormField label="Username" htmlFor="login-username" error={errors.username}>
        <InputText
          id="login-username"
          value={values.username}
          onChange={(event) => set('username')(event.target.value)}
          autoComplete="username"
          invalid={Boolean(errors.username)}
          autoFocus
        />
      </FormField>
      <FormField label="Password" htmlFor="login-password" error={errors.password}>
        <Password
          inputId="login-password"
          value={values.password}
          onChange={(event) => set('password')(event.target.value)}
          autoComplete="current-password"
          invalid={Boolean(errors.password)}
          feedback={false}
          toggleMask
        />
      </FormField>
      <Button type="submit" className="login-form__submit" label={pending ? 'Signing in...' : submitLabel} icon="pi pi-sign-in" loading={pending} />
    </form>
  );
}
