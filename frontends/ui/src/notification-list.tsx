import { Button } from 'primereact/button';
import { useNavigate } from 'react-router-dom';
import type { Notification } from '@ledgerline/contracts/notifications.contracts.ts';
import { formatDate } from './date-format.ts';
import { inCurrentFirm } from './tenant-path.ts';
import { useNotificationActions } from './notifications.api.ts';

const ICONS: Record<string, string> = { success: 'pi pi-check-circle', warning: 'pi pi-exclamation-triangle', error: 'pi pi-times-circle' };

/** Notifications as the bell's popover and the tasks screen's panel list them (spec 001 §2, §4). */
export function NotificationList({ items, onOpen }: { items: readonly Notification[]; onOpen?(): void }) {
  const { markRead, remove } = useNotificationActions();
  const navigate = useNavigate();
  if (items.length === 0) return <p className="notification-list__empty">No notifications</p>;
  // Clicking reads it and follows its link (§4), inside the current firm's paths.
  const open = (n: Notification) => {
    if (!n.isRead) markRead.mutate(n.id);
    if (n.actionUrl) {
      navigate(inCurrentFirm(n.actionUrl));
      onOpen?.();
    }
  };
  return (
    <ul className="notification-list">
      {items.map((n) => (
        <li key={n.id} className={`notification-list__item${n.isRead ? '' : ' notification-list__item--unread'}`} data-notification-id={n.id}>
          <i className={`notification-list__icon ${ICONS[n.type] ?? 'pi pi-info-circle'}`} aria-hidden="true" />
          <button type="button" className="notification-list__body" onClick={() => open(n)}>
            <span className="notification-list__title">{n.title}</span>
            <span className="notification-list__message">{n.message}</span>
            <span className="notification-list__time">{formatDate(n.createdAt, { withTime: true })}</span>
          </button>
          {!n.isRead && <Button icon="pi pi-check" text rounded size="small" aria-label="Mark as read" onClick={() => markRead.mutate(n.id)} />}
          <Button icon="pi pi-trash" text rounded size="small" severity="danger" aria-label="Delete notification" onClick={() => remove.mutate(n.id)} />
        </li>
      ))}
    </ul>
  );
}
