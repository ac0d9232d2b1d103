import type { ReactNode } from 'react';

export interface PageHeadingProps {
  title: string;
  subtitle?: string;
  /** Buttons on the right, e.g. 'Add User'. */
  actions?: ReactNode;
}

/** The title row at the top of a page's content area. */
export function PageHeading({ title, subtitle, actions }: PageHeadingProps) {
  return (
    <div className="page-heading">
      <div>
        <h2 className="page-heading__title">{title}</h2>
        {subtitle && <p className="page-heading__subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="page-heading__actions">{actions}</div>}
    </div>
  );
}
