import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { renderSVG } from 'uqr';
import type { TotpSetupResponse } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { FormField } from './form-field.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';

export interface TotpEnrolmentProps {
  /** POST …/mfa/totp/setup. */
  start(): Promise<TotpSetupResponse>;
  /** POST …/mfa/totp/confirm; resolves with the recovery codes (none where a Keycloak realm keeps the authenticator), or rejects with the message to show. */
  confirm(code: string): Promise<string[]>;
  /** After the user ticked "I saved them", or at once when there are no codes to keep. */
  onDone(): void;
  doneLabel: string;
}

/**
 * Setting up an authenticator app, the same on the sign-in page (a firm that requires one)
 * and in Security: scan the QR code or type the key, confirm with a code, keep the recovery codes.
 */
export function TotpEnrolment({ start, confirm, onDone, doneLabel }: TotpEnrolmentProps) {
  const [setup, setSetup] = useState<TotpSetupResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  useEffect(() => {
    let live = true;
    start().then((s) => { if (live) setSetup(s); }, (err: unknown) => { if (live) setError(failureReason(err)); });
    return () => { live = false; };
    // Started once per mount: a second setup call would replace the secret being scanned.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={onDone} doneLabel={doneLabel} />;
  if (!setup) return error ? <Message severity="error" text={error} className="mfa-banner" /> : <p role="status">Preparing your authenticator setup...</p>;
  return (
    <div className="totp-enrolment">
      <ol className="totp-enrolment__steps">
        <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Authy…) and scan this code.</li>
      </ol>
      <QrCode text={setup.otpauthUrl} />
      <p className="totp-enrolment__manual">
        Cannot scan? Enter this key: <code data-testid="totp-secret">{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
      </p>
      <CodeForm
        label="Code from the app"
        submitLabel="Confirm"
        error={error}
        onSubmit={async (code) => {
          setError(null);
          try {
            const recoveryCodes = await confirm(code);
            if (recoveryCodes.length) setCodes(recoveryCodes);
            else onDone();
          } catch (err) {
            setError(failureReason(err));
          }
        }}
      />
    </div>
  );
}

function QrCode({ text }: { text: string }) {
  // uqr draws the code as plain SVG rectangles from our own otpauth URL: nothing to sanitise.
  const svg = useMemo(() => renderSVG(text, { border: 2 }), [text]);
  return <div className="totp-enrolment__qr" role="img" aria-label="QR code for your authenticator app" dangerouslySetInnerHTML={{ __html: svg }} />;
}

/** Shown once: the codes, to copy or download, and a checkbox before going on. */
export function RecoveryCodesPanel({ codes, onDone, doneLabel }: { codes: string[]; onDone(): void; doneLabel: string }) {
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="recovery-codes">
      <p>
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ol className="recovery-codes__list" data-testid="recovery-codes">
        {codes.map((c) => <li key={c}><code>{c}</code></li>)}
      </ol>
      <div className="recovery-codes__actions">
        <Button type="button" label={copied ? 'Copied' : 'Copy'} icon="pi pi-copy" outlined onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))} />
        <Button type="button" label="Download" icon="pi pi-download" outlined onClick={download} />
      </div>
      <div className="recovery-codes__saved">
        <Checkbox inputId="recovery-codes-saved" checked={saved} onChange={(e) => setSaved(Boolean(e.checked))} />
        <label htmlFor="recovery-codes-saved">I saved them</label>
      </div>
      <Button type="button" label={doneLabel} disabled={!saved} onClick={onDone} className="login-form__submit" />
    </div>
  );
}

/** One code field and its button (authenticator codes, recovery codes). */
export function CodeForm({ label, submitLabel, error, onSubmit, recovery = false }: { label: string; submitLabel: string; error: string | null; onSubmit(code: string): Promise<void>; recovery?: boolean }) {
  const [code, setCode] = useState('');
  const [pending, setPending] = useState(false);
  const [missing, setMissing] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMissing(!code.trim());
    if (!code.trim()) return;
    setPending(true);
    try {
      await onSubmit(code.trim());
    } finally {
      setPending(false);
    }
  };
  return (
    <form className="login-form" onSubmit={submit} noValidate>
      {error && <Message severity="error" text={error} className="login-form__banner" />}
      <FormField label={label} htmlFor="mfa-code" error={missing ? 'Code is required' : undefined}>
        <InputText
          id="mfa-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
          autoFocus
        />
      </FormField>
      <Button type="submit" className="login-form__submit" label={submitLabel} loading={pending} />
    </form>
  );
}
