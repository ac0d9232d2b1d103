import { Card } from 'primereact/card';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { ClientFieldSettingsForm } from './client-field-settings-form.tsx';
import { useClientFieldSettings } from './client-field-settings.query.ts';
import { FirmExportTab } from './firm-export-tab.tsx';
import { FirmTimeZoneForm } from './firm-time-zone-form.tsx';
import { SecuritySettingsTab } from './security-settings-tab.tsx';

/** /settings and /{tenant}/settings (spec 000 §2 "Settings"). */
export function SettingsPage() {
  const settings = useClientFieldSettings();
  const isAdmin = useCanAdministerFirm();
  return (
    <section className="directory-page">
      <PageHeading title="Settings" subtitle="Configure how your firm's portal works" />
      <Card>
        <PageTabView className="settings-tabs">
          <TabPanel header="Client Fields" leftIcon="pi pi-list">
            {settings.isPending && <ProgressSpinner className="directory-page__spinner" aria-label="Loading" />}
            {settings.isError && <Message severity="error" text={failureReason(settings.error)} className="page-error" />}
            {/* Keyed by save time so a saved (or first created) record resets the form to it. */}
            {settings.data && <ClientFieldSettingsForm key={`${settings.data.id}-${settings.data.updatedAt}`} settings={settings.data} />}
          </TabPanel>
          {isAdmin && (
            <TabPanel header="Firm" leftIcon="pi pi-clock">
              <FirmTimeZoneForm />
            </TabPanel>
          )}
          {isAdmin && (
            <TabPanel header="Security" leftIcon="pi pi-shield">
              <SecuritySettingsTab />
            </TabPanel>
          )}
          {isAdmin && (
            <TabPanel header="Export" leftIcon="pi pi-download">
              <FirmExportTab />
            </TabPanel>
          )}
          <TabPanel header="User Settings" leftIcon="pi pi-user">
            <p className="settings-placeholder">User settings will be implemented here</p>
          </TabPanel>
          <TabPanel header="System" leftIcon="pi pi-server">
            <p className="settings-placeholder">System settings will be implemented here</p>
          </TabPanel>
        </PageTabView>
      </Card>
    </section>
  );
}
