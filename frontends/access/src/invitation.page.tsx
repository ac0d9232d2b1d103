import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { Password } from 'primereact/password';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { INVITATION_INVALID, userPasswordSchema, type InvitationInfo } from '@ledgerline/contracts/identity.contracts.ts';
import { initials } from '@ledgerline/contracts/initials.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { LoginFrame } from './login-frame.tsx';
import { NETWORK_ERROR, postPublic } from './login.api.ts';

/**
 * /{tenant}/invitation?token= (issue 40): the page an invitation e-mail links to. The person
 * chooses a password; a Client user of a firm that allows it may instead sign in with a code
 * e-mailed to them. The link works once, for 7 days.
 */
export function InvitationPage() {
  const shortName = useParams().tenant ?? '';
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const authBase = `/api/${encodeURIComponent(shortName)}/auth`;
  const info = useQuery({
    queryKey: ['invitation', shortName, token],
    retry: false,
    queryFn: async ({ signal }): Promise<InvitationInfo | null> => {
      const r = await fetch(`${authBase}/invitation?token=${encodeURIComponent(token)}`, { signal });
      if (r.status === 404 || r.status === 400) return null;
      if (!r.ok) throw new Error(NETWORK_ERROR);
      return (await r.json()) as InvitationInfo;
    },
  });
  const [done, setDone] = useState<string | null>(null);
  const loginPath = `/${encodeURIComponent(shortName)}/login`;

  if (info.isPending) return <div className="page-message" role="status">Loading...</div>;
  if (info.isError || !info.data) {
    return (
      <LoginFrame mark={<i className="pi pi-exclamation-triangle" />} title="Invitation" subtitle={shortName}>
        <Message severity="warn" text={info.isError ? NETWORK_ERROR : INVITATION_INVALID} className="login-form__banner" />
        <Link to={loginPath}>Go to sign in</Link>
      </LoginFrame>
    );
  }
  const invitation = info.data;
  return (
    <LoginFrame mark={initials(invitation.firmName)} title={`Welcome, ${invitation.fullName}`} subtitle={invitation.firmName}>
      {done ? (
        <>
          <Message severity="success" text={done} className="login-form__banner" />
          <Link to={loginPath} className="p-button login-form__submit" style={{ textDecoration: 'none', justifyContent: 'center' }}>Sign in</Link>
        </>
      ) : (
        <SetPasswordForm invitation={invitation} onDone={setDone} url={`${authBase}/invitation`} token={token} />
      )}
    </LoginFrame>
  );
}

function SetPasswordForm({ invitation, url, token, onDone }: { invitation: InvitationInfo; url: string; token: string; onDone(message: string): void }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const send = async (body: { token: string; password?: string }) => {
    setPending(true);
    const r = await postPublic<{ message: string }>(url, body);
    setPending(false);
    if (r.ok) onDone(r.response.message);
    else setFailure(r.message);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = userPasswordSchema.safeParse(password);
    const next = {
      ...(checked.success ? {} : { password: checked.error.issues[0]?.message ?? 'Password must be at least 6 characters' }),
      ...(checked.success && password !== repeat ? { repeat: 'The passwords do not match' } : {}),
    };
    setErrors(next);
    if (!next.password && !next.repeat) void send({ token, password });
  };

  return (
    <form className="login-form" onSubmit={submit} noValidate>
      <p className="invitation-page__note">
        Your username is <strong>{invitation.username}</strong>. Choose a password to sign in with.
      </p>
      {failure && <Message severity="error" text={failure} className="login-form__banner" />}
      <FormField label="New password" htmlFor="invitation-password" error={errors.password}>
        <Password inputId="invitation-password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" feedback={false} toggleMask invalid={Boolean(errors.password)} />
      </FormField>
      <FormField label="Repeat the password" htmlFor="invitation-repeat" error={errors.repeat}>
        <Password inputId="invitation-repeat" value={repeat} onChange={(e) => setRepeat(e.target.value)} autoComplete="new-password" feedback={false} toggleMask invalid={Boolean(errors.repeat)} />
      </FormField>
      <Button type="submit" className="login-form__submit" label={pending ? 'Saving...' : 'Set password'} icon="pi pi-check" loading={pending} />
      {invitation.emailCodeSignIn && (
        <>
          <p className="invitation-page__note">Or skip the password: you can always sign in with a code we e-mail to you.</p>
          <Button type="button" text className="login-form__submit" label="Sign in with an e-mailed code instead" disabled={pending} onClick={() => void send({ token })} />
        </>
      )}
    </form>
  );
}
