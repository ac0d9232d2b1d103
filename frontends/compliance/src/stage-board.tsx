import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { useEffect, useState, type DragEvent } from 'react';
import type { ComplianceItem } from '@ledgerline/contracts/compliance.contracts.ts';
import type { Stage } from '@ledgerline/contracts/stages.contracts.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { trackerDate } from './compliance-view.ts';
import { BOARD_LIMIT, useBoardItems, useMoveStage, usePipelines, useStagePushes, useUsers } from './compliance.api.ts';
import { boardColumns, DUE_WINDOWS, dueRange, outstanding, type DueWindow } from './stage-board.ts';

/** The drag's payload type: an item id. */
const DRAGGED_ITEM = 'application/x-ledgerline-item';

function StageCard({ item, stages, onMove }: { item: ComplianceItem; stages: readonly Stage[]; onMove(item: ComplianceItem, stage: string): void }) {
  const what = `${item.clientName} ${item.reportTypeName} ${item.period}`;
  const left = outstanding(item);
  return (
    <article className={`stage-card stage-card-${item.id}`} aria-label={what} draggable
      onDragStart={(e) => { e.dataTransfer.setData(DRAGGED_ITEM, String(item.id)); e.dataTransfer.effectAllowed = 'move'; }}>
      <strong className="stage-card__client">{item.clientName}</strong>
      <span className="stage-card__return">{item.reportTypeName} · {item.period}</span>
      <span className="stage-card__due">Due {trackerDate(item.status === 'extended' && item.extendedDueDate ? item.extendedDueDate : item.dueDate)}</span>
      <span className="stage-card__assignee"><i className="pi pi-user" aria-hidden="true" /> {item.assignedToName ?? 'Unassigned'}</span>
      {left && <span className="stage-card__outstanding">{left}</span>}
      {/* The move without a drag (a phone, a keyboard): a plain select is light on a board of hundreds of cards. */}
      <select className="stage-card__menu" aria-label={`Stage: ${what}`} value={item.stage ?? ''} onChange={(e) => onMove(item, e.target.value)}>
        {stages.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
      </select>
    </article>
  );
}

/**
 * The Board (issue 42): one report type's pipeline as columns of stages, its items as cards
 * (client, return, due date, assignee, what is outstanding), moved by drag or a card's stage
 * menu. Below 768 px the columns become a list grouped by stage (compliance.css).
 */
export function StageBoard({ clientId }: { clientId: number | undefined }) {
  const pipelines = usePipelines(true).data;
  const [reportTypeId, setReportTypeId] = useState<number | undefined>(undefined);
  const [assignedToId, setAssignedToId] = useState<number | undefined>(undefined);
  const [dueWindow, setDueWindow] = useState<DueWindow>('any');
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const today = useFirmToday();
  const users = useUsers(true).data.filter((u) => !isClientRole(u.role));
  useEffect(() => {
    if (reportTypeId === undefined && pipelines.length) setReportTypeId(pipelines[0]!.reportTypeId);
  }, [pipelines, reportTypeId]);
  const pipeline = pipelines.find((p) => p.reportTypeId === reportTypeId);
  const range = today ? dueRange(dueWindow, today) : {};
  const board = useBoardItems({ clientId, reportTypeId, assignedToId, ...range }, pipeline !== undefined && (dueWindow === 'any' || !!today));
  const move = useMoveStage();
  useStagePushes();

  const onMove = (item: ComplianceItem, stage: string) => {
    if (item.stage === stage) return;
    const to = pipeline?.stages.find((s) => s.id === stage)?.name ?? stage;
    move.mutate({ id: item.id, stage }, {
      onSuccess: () => showToast({ severity: 'success', summary: 'Stage Changed', detail: `${item.clientName} ${item.reportTypeName} ${item.period}: ${to}` }),
      onError: (e) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(e) ?? 'Failed to change the stage' }),
    });
  };
  const onDrop = (e: DragEvent, stage: string) => {
    e.preventDefault();
    setDropTarget(null);
    const id = Number(e.dataTransfer.getData(DRAGGED_ITEM));
    const item = board.items.find((i) => i.id === id);
    if (item) onMove(item, stage);
  };

  if (!pipelines.length) return <p className="compliance-muted">No report types yet: add one in the directory to see its stages here.</p>;
  const columns = pipeline ? boardColumns(pipeline.stages, board.items) : [];
  return (
    <div className="stage-board-view">
      <div className="compliance-filters">
        <Dropdown aria-label="Report type" value={reportTypeId} options={pipelines.map((p) => ({ label: p.reportTypeName, value: p.reportTypeId }))} onChange={(e) => setReportTypeId(e.value)} filter />
        <Dropdown aria-label="Assignee" value={assignedToId ?? 'all'}
          options={[{ label: 'Anyone', value: 'all' }, { label: 'Unassigned', value: 0 }, ...users.map((u) => ({ label: u.fullName || u.username, value: u.id }))]}
          onChange={(e) => setAssignedToId(e.value === 'all' ? undefined : e.value)} />
        <Dropdown aria-label="Due" value={dueWindow} options={[...DUE_WINDOWS]} onChange={(e) => setDueWindow(e.value)} />
      </div>
      {board.total > BOARD_LIMIT && <Message severity="info" text={`Showing the first ${BOARD_LIMIT} of ${board.total} items: narrow the board with its filters.`} />}
      <div className="stage-board" role="list" aria-label="Stages">
        {columns.map(({ stage, items }) => (
          <section key={stage.id} role="listitem" aria-label={stage.name} className={`stage-column stage-column-${stage.id}${dropTarget === stage.id ? ' stage-column--target' : ''}`}
            onDragOver={(e) => { e.preventDefault(); e.dataTransfer.dropEffect = 'move'; setDropTarget(stage.id); }}
            onDragLeave={() => setDropTarget((t) => (t === stage.id ? null : t))}
            onDrop={(e) => onDrop(e, stage.id)}>
            <h3 className="stage-column__title">{stage.name} <span className="stage-column__count">{items.length}</span></h3>
            {stage.clientName ? <small className="stage-column__client">Client sees: {stage.clientName}</small> : <small className="stage-column__client">Hidden from clients</small>}
            <div className="stage-column__cards">
              {items.map((i) => <StageCard key={i.id} item={i} stages={pipeline!.stages} onMove={onMove} />)}
              {!items.length && <p className="stage-column__empty">No items</p>}
            </div>
          </section>
        ))}
      </div>
    </div>
  );
}
