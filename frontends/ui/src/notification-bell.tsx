import { Button } from 'primereact/button';
import { OverlayPanel } from 'primereact/overlaypanel';
import { useRef } from 'react';
import { NOTIFICATION_BADGE_MAX, NOTIFICATION_POPOVER_LIMIT } from '@ledgerline/contracts/notifications.constants.ts';
import { NotificationList } from './notification-list.tsx';
import { useNotificationActions, useNotifications, useUnreadCount } from './notifications.api.ts';
import { useRealtimeNotifications } from '@ledgerline/ui/realtime-connection.ts';

export const badgeText = (count: number): string => (count > NOTIFICATION_BADGE_MAX ? `${NOTIFICATION_BADGE_MAX}+` : String(count));

/**
 * The bell with the unread badge ('99+' above 99) and the compact popover: the first 10
 * notifications and 'Mark all read' (spec 001 §2, §9). Mounted in the header for every
 * signed-in firm user; it also holds the tab's realtime connection open.
 */
export function NotificationBell() {
  useRealtimeNotifications(true);
  const panel = useRef<OverlayPanel>(null);
  const unread = useUnreadCount().data?.count ?? 0;
  const notifications = useNotifications().data ?? [];
  const { markAllRead } = useNotificationActions();
  return (
    <span className="notification-bell">
      <Button icon="pi pi-bell" text rounded aria-label="Notifications" onClick={(e) => panel.current?.toggle(e)} />
      {unread > 0 && <span className="notification-bell__badge" data-testid="notification-badge">{badgeText(unread)}</span>}
      <OverlayPanel ref={panel} className="notification-popover">
        <div className="notification-popover__header">
          <strong>Notifications</strong>
          <Button label="Mark all read" text size="small" disabled={unread === 0} onClick={() => markAllRead.mutate()} />
        </div>
        <NotificationList items={notifications.slice(0, NOTIFICATION_POPOVER_LIMIT)} onOpen={() => panel.current?.hide()} />
      </OverlayPanel>
    </span>
  );
}
