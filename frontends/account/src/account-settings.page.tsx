import { useMemo } from 'react';
import { Card } from 'primereact/card';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { readCurrentTenant, type StoredTenant, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { displayName } from '@ledgerline/ui/user-display.ts';
import { EmailPreferencesSection } from './email-preferences-section.tsx';
import { SecurityPanel } from './security-panel.tsx';

/** Account settings: who is signed in, which e-mails they receive (issue 40), and their sign-in security (issue 26). */
export function AccountSettingsPage() {
  const { state } = useAuth();
  const tenant = useMemo(() => readCurrentTenant(), []);
  // The shell's guard renders this page only for a signed-in user.
  if (state.status !== 'authenticated') return null;
  return (
    <div className="account-settings-page">
      <AccountDetails user={state.user} tenant={tenant} />
      {!state.user.platformAdmin && <EmailPreferencesSection userId={state.user.id} />}
      <SecurityPanel />
    </div>
  );
}

export function AccountDetails({ user, tenant }: { user: StoredUser; tenant: StoredTenant | null }) {
  return (
    <Card title="Account Settings" className="account-settings">
      <p>Your account details are managed by your firm administrator.</p>
      <dl className="details-list">
        <dt>Full Name</dt>
        <dd>{displayName(user)}</dd>
        <dt>Username</dt>
        <dd>{user.username}</dd>
        <dt>Role</dt>
        <dd>{user.role}</dd>
        <dt>Tenant</dt>
        <dd>{tenant ? `${tenant.name} (${tenant.shortName})` : 'No tenant selected'}</dd>
      </dl>
    </Card>
  );
}
