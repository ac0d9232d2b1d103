import type { ReactNode } from 'react';

export interface EmptyStateProps {
  /** A primeicons class, e.g. 'pi pi-tags'. */
  icon: string;
  title?: string;
  text?: string;
  /** A button that gets the user going, e.g. 'Add Report Type'. */
  action?: ReactNode;
}

/** What a page shows instead of its list or details when there is nothing to show. */
export function EmptyState({ icon, title, text, action }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <i className={`empty-state__icon ${icon}`} aria-hidden="true" />
      {title && <h3 className="empty-state__title">{title}</h3>}
      {text && <p className="empty-state__text">{text}</p>}
      {action}
    </div>
  );
}
