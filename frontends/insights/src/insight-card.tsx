import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Menu } from 'primereact/menu';
import { Tag } from 'primereact/tag';
import { useRef } from 'react';
import { Link } from 'react-router-dom';
import type { ComplianceInsight, InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import {
  confidenceText, insightActions, insightItems, insightLeads, PRIORITY_LABELS, PRIORITY_SEVERITY, STATUS_LABELS, TYPE_ICONS, TYPE_LABELS, type InsightItem,
} from './insight-view.ts';

/** What a card's lead buttons do (staff): file the matched item, make a task, ask the client for an item's documents. */
export interface InsightLeadHandlers {
  markFiled(insight: ComplianceInsight, item: InsightItem): void;
  createTask(insight: ComplianceInsight): void;
  requestDocuments(insight: ComplianceInsight, item: InsightItem): void;
}

export interface InsightCardProps {
  insight: ComplianceInsight;
  /** Null: the viewer reads only (Client users). */
  onMove: ((insight: ComplianceInsight, status: InsightStatus) => void) | null;
  /** Null: no lead buttons (Client users). */
  onLead?: InsightLeadHandlers | null;
  busy: boolean;
  /** Bulk selection (staff): whether this card is selected, and how to toggle it. */
  selected?: boolean;
  onSelect?: ((insight: ComplianceInsight, selected: boolean) => void) | null;
}

/** "Request documents": one period asks at once; several offer their periods to choose from. */
function RequestDocumentsButton({ insight, items, onRequest, busy }: { insight: ComplianceInsight; items: InsightItem[]; onRequest: InsightLeadHandlers['requestDocuments']; busy: boolean }) {
  const menu = useRef<Menu>(null);
  if (items.length === 1) {
    return <Button label="Request documents" icon="pi pi-inbox" size="small" outlined disabled={busy} onClick={() => onRequest(insight, items[0]!)} />;
  }
  return (<>
    <Menu popup ref={menu} id={`insight-request-${insight.id}`} model={items.map((item) => ({ label: item.period, command: () => onRequest(insight, item) }))} />
    <Button label="Request documents" icon="pi pi-inbox" size="small" outlined disabled={busy} aria-haspopup aria-controls={`insight-request-${insight.id}`}
      onClick={(e) => menu.current?.toggle(e)} />
  </>);
}

/** One insight (spec 001 §2 card): what it is about, how sure, what to do, who reviewed it, and where it leads. */
export function InsightCard({ insight, onMove, onLead = null, busy, selected = false, onSelect = null }: InsightCardProps) {
  const actions = insightActions(insight.status);
  const items = insightItems(insight);
  const leads = insightLeads(insight);
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
            {insight.clientName && (
              <Link to={inCurrentFirm(`/compliance?client=${insight.clientId}`)} className="insight-card__link" aria-label={`${insight.clientName}'s compliance`}>
                <i className="pi pi-building" aria-hidden="true" /> {insight.clientName}
              </Link>
            )}
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
      {items.length > 0 && (
        <ul className="insight-card__periods" aria-label="Periods">
          {items.map((item) => (
            <li key={item.trackerItemId}>
              <Link to={inCurrentFirm(`/compliance?item=${item.trackerItemId}`)} className="insight-card__period" aria-label={`Open ${item.period} in the compliance tracker`}>{item.period}</Link>
            </li>
          ))}
        </ul>
      )}
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
            {onLead && leads.markFiled && <Button label="Mark filed" icon="pi pi-check-square" size="small" disabled={busy} onClick={() => onLead.markFiled(insight, items[0]!)} />}
            {onLead && leads.createTask && <Button label="Create task" icon="pi pi-plus" size="small" outlined disabled={busy} onClick={() => onLead.createTask(insight)} />}
            {onLead && leads.requestDocuments && <RequestDocumentsButton insight={insight} items={items} onRequest={onLead.requestDocuments} busy={busy} />}
            {actions.review && <Button label="Mark Reviewed" icon="pi pi-eye" size="small" outlined disabled={busy} onClick={() => onMove(insight, 'reviewed')} />}
            {actions.actUpon && <Button label="Mark Acted Upon" icon="pi pi-check" size="small" disabled={busy} onClick={() => onMove(insight, 'acted_upon')} />}
            {actions.dismiss && <Button label="Dismiss" icon="pi pi-times" size="small" severity="secondary" text disabled={busy} onClick={() => onMove(insight, 'dismissed')} />}
          </div>
        )}
      </footer>
    </article>
  );
}
