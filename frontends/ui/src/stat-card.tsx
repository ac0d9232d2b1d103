export interface StatCardProps {
  label: string;
  value: number;
  /** A primeicons class, e.g. 'pi pi-clock'. */
  icon: string;
}

/** One figure of a screen's row of stat cards (Tasks, AI Compliance Insights). */
export function StatCard({ label, value, icon }: StatCardProps) {
  return (
    <div className="stat-card">
      <i className={icon} aria-hidden="true" />
      <div><span className="stat-card__value">{value}</span><span className="stat-card__label">{label}</span></div>
    </div>
  );
}
