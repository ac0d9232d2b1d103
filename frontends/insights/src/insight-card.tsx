import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Tag } from 'primereact/tag';
import type { ComplianceInsight, InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { confidenceText, insightActions, PRIORITY_LABELS, PRIORITY_SEVERITY, STATUS_LABELS, TYPE_ICONS, TYPE_LABELS } from './insight-view.ts';

export interface InsightCardProps {
  insight: ComplianceInsight;
  /** Null: the viewer reads only (Client users). */
  onMove: ((insight: ComplianceInsight, status: InsightStatus) => void) | null;
  busy: boolean;
  /** Bulk selection (staff): whether this card is selected, and how to toggle it. */
  selected?: boolean;
  onSelect?: ((insight: ComplianceInsight, selected: boolean) => void) | null;
}

/** One insight (spec 001 §2 card): what it is about, how sure, what to do, who reviewed it. */
export function InsightCard({ insight, onMove, busy, selected = false, onSelect = null }: InsightCardProps) {
  const actions = insightActions(insight.status);
  return (
    <article className="insight-card" aria-label={insight.title}>
      <header className="insight-card__head">
        {onSelect && (
          <Checkbox inputId={`insight-select-${insight.id}`} checked={selected} onChange={(e) => onSelect(insight, !!e.checked)}
            aria-label={`Select "${insight.title}"`} className="insight-card__select" />
        )}
        <i className={`insight-card__icon insight-card__icon--${insight.insightType} ${TYPE_ICONS[insight.insightType]}`} role="img" aria-label={TYPE_LABELS[insight.insightType]} />
        <div className="insight-card__heading">
          <h3 className="insight-card__title">{insight.title}</h3>
          <p className="insight-card__subject">
            {insight.clientName && <span><i className="pi pi-building" aria-hidden="true" /> {insight.clientName}</span>}
            {insight.fileName && <span><i className="pi pi-file" aria-hidden="true" /> {insight.fileName}</span>}
          </p>
        </div>
        <div className="insight-card__badges">
          <Tag value={PRIORITY_LABELS[insight.priority]} severity={PRIORITY_SEVERITY[insight.priority]} />
          <Tag value={STATUS_LABELS[insight.status]} severity="secondary" />
          <span className="insight-card__confidence">{confidenceText(insight.confidence)}</span>
        </div>
      </header>
      <p className="insight-card__description">{insight.description}</p>
      <div className="insight-card__action">
        <strong>Recommended Action</strong>
        <p>{insight.recommendedAction}</p>
      </div>
      <footer className="insight-card__foot">
        <dl className="insight-card__dates">
          <dt>Created</dt><dd>{formatDate(insight.createdAt)}</dd>
          {insight.reviewedAt && <><dt>Reviewed</dt><dd>{formatDate(insight.reviewedAt)}</dd></>}
          {insight.reviewedByName && <><dt>Reviewed by</dt><dd>{insight.reviewedByName}</dd></>}
        </dl>
        {onMove && (
          <div className="insight-card__buttons">
            {actions.review && <Button label="Mark Reviewed" icon="pi pi-eye" size="small" outlined disabled={busy} onClick={() => onMove(insight, 'reviewed')} />}
            {actions.actUpon && <Button label="Mark Acted Upon" icon="pi pi-check" size="small" disabled={busy} onClick={() => onMove(insight, 'acted_upon')} />}
            {actions.dismiss && <Button label="Dismiss" icon="pi pi-times" size="small" severity="secondary" text disabled={busy} onClick={() => onMove(insight, 'dismissed')} />}
          </div>
        )}
      </footer>
    </article>
  );
}
