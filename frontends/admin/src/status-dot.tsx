/** The green or grey dot of an active or inactive tenant, with its word for screen readers and tests. */
export function StatusDot({ active, showLabel = false }: { active: boolean; showLabel?: boolean }) {
  const label = active ? 'Active' : 'Inactive';
  return (
    <span className="status-dot" title={label}>
      <span className={active ? 'status-dot__dot status-dot__dot--active' : 'status-dot__dot'} aria-hidden="true" />
      <span className={showLabel ? 'status-dot__label' : 'sr-only'}>{label}</span>
    </span>
  );
}
