import type { ReactNode } from 'react';
import { formatCount } from '@ledgerline/ui/count-format.ts';

export interface SummaryCardProps {
  title: string;
  icon: string;
  /** Null while the figure's service does not answer: shown as a dash, never as a made-up number. */
  value: number | null;
  caption: ReactNode;
}

/** One of the administrator dashboard's four figures. */
export function SummaryCard({ title, icon, value, caption }: SummaryCardProps) {
  return (
    <section className="summary-card" aria-label={title}>
      <div className="summary-card__top">
        <h3 className="summary-card__title">{title}</h3>
        <i className={`${icon} summary-card__icon`} aria-hidden="true" />
      </div>
      <p className="summary-card__value">{value === null ? '—' : formatCount(value)}</p>
      <p className="summary-card__caption">{caption}</p>
    </section>
  );
}
