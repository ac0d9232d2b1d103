import { Skeleton } from 'primereact/skeleton';
import { formatCount } from '@ledgerline/ui/count-format.ts';

export interface StatCardProps {
  title: string;
  icon: string;
  /** Undefined while loading: a placeholder, never a made-up 0. */
  value: number | undefined;
  note?: string;
}

/** One of the dashboard's summary cards. */
export function StatCard({ title, icon, value, note }: StatCardProps) {
  return (
    <section className="stat-card" aria-label={title}>
      <span className="stat-card__icon" aria-hidden="true">
        <i className={icon} />
      </span>
      <div>
        <h3 className="stat-card__title">{title}</h3>
        {value === undefined ? (
          <Skeleton width="4rem" height="2.25rem" className="stat-card__placeholder" />
        ) : (
          <p className="stat-card__value">{formatCount(value)}</p>
        )}
        {note && <p className="stat-card__note">{note}</p>}
      </div>
    </section>
  );
}
