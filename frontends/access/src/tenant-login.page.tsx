import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useNavigate, useParams } from 'react-router-dom';
import type { LoginRequest } from '@ledgerline/contracts/auth.contracts.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { initials } from '@ledgerline/ui/user-display.ts';
import { LoginForm } from './login-form.tsx';
import { LoginFrame } from './login-frame.tsx';
import { fetchTenantInfo, NETWORK_ERROR, requestLogin, type TenantInfo } from './login.api.ts';
import { useSignIn } from './use-sign-in.ts';

/** /{tenant}/login (spec 000 §2): the firm's own, branded sign-in. */
export function TenantLoginPage() {
  const shortName = useParams().tenant ?? '';
  const info = useQuery({ queryKey: ['tenant-info', shortName], queryFn: ({ signal }) => fetchTenantInfo(shortName, signal) });
  if (info.isPending) {
    return (
      <div className="page-message" role="status">
        Loading...
      </div>
    );
  }
  if (info.isError) {
    return (
      <LoginFrame mark={<i className="pi pi-exclamation-triangle" />} title="Sign in" subtitle={shortName}>
        <Message severity="error" text={NETWORK_ERROR} className="login-form__banner" />
        <Button label="Try Again" icon="pi pi-refresh" className="login-form__submit" onClick={() => void info.refetch()} />
      </LoginFrame>
    );
  }
  return info.data ? <TenantLoginForm tenant={info.data} /> : <TenantNotFound />;
}

function TenantLoginForm({ tenant }: { tenant: TenantInfo }) {
  const signIn = useSignIn();
  const [error, setError] = useState<string | null>(null);

  const submit = async (credentials: LoginRequest) => {
    setError(null);
    const outcome = await requestLogin(`/api/${encodeURIComponent(tenant.shortName)}/auth/login`, credentials);
    if (!outcome.ok) {
      setError(outcome.reason === 'network' ? NETWORK_ERROR : (outcome.message ?? 'Login failed'));
      return;
    }
    showToast({ severity: 'success', summary: 'Login Successful', detail: `Welcome to ${tenant.name}` });
    signIn({ ...outcome.response, tenant: outcome.response.tenant ?? tenant }, `/${tenant.shortName}/dashboard`);
  };

  return (
    <LoginFrame mark={<span className="login-card__initials">{initials(tenant.name)}</span>} title={tenant.name} subtitle="Sign in to your firm's portal">
      <LoginForm
        submitLabel="Sign In"
        onSubmit={submit}
        banner={error && <Message severity="error" text={error} className="login-form__banner" />}
      />
    </LoginFrame>
  );
}

function TenantNotFound() {
  const navigate = useNavigate();
  return (
    <LoginFrame
      mark={<i className="pi pi-exclamation-circle" />}
      title="Tenant Not Found"
      subtitle="This firm's portal does not exist or is not active."
    >
      <Button label="Go to Main Site" icon="pi pi-home" className="login-form__submit" onClick={() => navigate('/')} />
    </LoginFrame>
  );
}
