import type { ReactNode } from 'react';
import type { StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { useViewer } from './use-viewer.ts';

/** Renders its page once the viewer and their firm are known: 'Loading...' until then (spec 001 §2). */
export function ViewerGate({ subject, children }: { subject: string; children: (user: StoredUser, tenant: string) => ReactNode }) {
  const viewer = useViewer();
  if (viewer.status === 'loading') {
    return (
      <div className="dashboard-loading" role="status">
        Loading...
      </div>
    );
  }
  if (viewer.status === 'no-tenant') {
    return <EmptyState icon="pi pi-building" title="No tenant selected" text={`Select a tenant in the header to see its ${subject}.`} />;
  }
  return children(viewer.user, viewer.tenant);
}
