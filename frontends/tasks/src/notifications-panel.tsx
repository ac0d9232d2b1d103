import { Button } from 'primereact/button';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { NotificationList } from '@ledgerline/ui/notification-list.tsx';
import { useNotificationActions, useNotifications } from '@ledgerline/ui/notifications.api.ts';

/** The full notifications panel of the Tasks screen (spec 001 §2): All, Unread and Read with counts. */
export function NotificationsPanel() {
  const all = useNotifications().data ?? [];
  const { markAllRead } = useNotificationActions();
  const unread = all.filter((n) => !n.isRead);
  const read = all.filter((n) => n.isRead);
  return (
    <div className="notifications-panel">
      <div className="notifications-panel__header">
        <h3>Notifications</h3>
        <Button label="Mark all read" text size="small" disabled={unread.length === 0} onClick={() => markAllRead.mutate()} />
      </div>
      <PageTabView>
        <TabPanel header={`All (${all.length})`}><NotificationList items={all} /></TabPanel>
        <TabPanel header={`Unread (${unread.length})`}><NotificationList items={unread} /></TabPanel>
        <TabPanel header={`Read (${read.length})`}><NotificationList items={read} /></TabPanel>
      </PageTabView>
    </div>
  );
}
