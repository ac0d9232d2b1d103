import { isClientRole, type StoredUser } from './auth-storage.ts';
import { ClientOrgName } from './client-org-name.tsx';
import { canSwitchTenant, TenantSelector } from './tenant-selector.tsx';

/** The header's centre (spec 000 "Shell"): the tenant selector, or a Client user's organisation. */
export function HeaderCenter({ user, pathname }: { user: StoredUser; pathname: string }) {
  if (isClientRole(user.role)) return <ClientOrgName user={user} />;
  if (canSwitchTenant(user)) return <TenantSelector pathname={pathname} />;
  return null;
}
