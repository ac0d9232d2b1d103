import { Button } from 'primereact/button';
import { ConfirmDialog, confirmDialog } from 'primereact/confirmdialog';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { TabPanel } from 'primereact/tabview';
import { PageTabView } from '@ledgerline/ui/page-tab-view.tsx';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { INSIGHT_MESSAGES, INSIGHT_PRIORITIES, INSIGHT_STATUSES, type ComplianceInsight, type InsightBulkResult, type InsightStatus } from '@ledgerline/contracts/insights.contracts.ts';
import { taskActionUrl } from '@ledgerline/contracts/tasks.constants.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { useFailureToast } from '@ledgerline/ui/failure-toast.ts';
import { todayCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { canAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { StatCard } from '@ledgerline/ui/stat-card.tsx';
import { inCurrentFirm } from '@ledgerline/ui/tenant-path.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { InsightCard, type InsightLeadHandlers } from './insight-card.tsx';
import { RuleSettingsDialog } from './rule-settings-dialog.tsx';
import { emptyTabText, insightActions, insightStats, PRIORITY_LABELS, STATUS_LABELS, taskFromInsight } from './insight-view.ts';
import { useInsightClients, useInsightMutations, useInsights, type InsightFilters } from './insights.api.ts';

/** The AI Compliance Insights screen of spec 001 §2. */
export function InsightsPage() {
  const { state } = useAuth();
  if (state.status !== 'authenticated') return <p className="insights-login">{INSIGHT_MESSAGES.loginRequired}</p>;
  return <SignedInInsights role={state.user.role} userId={state.user.id} admin={canAdministerFirm(state.user)} />;
}

function SignedInInsights({ role, userId, admin }: { role: string; userId: number; admin: boolean }) {
  const [filters, setFilters] = useState<InsightFilters>({});
  const [tab, setTab] = useState(0);
  const [editingRules, setEditingRules] = useState(false);
  const insights = useInsights(filters);
  useFailureToast(insights, INSIGHT_MESSAGES.fetchFailed);
  const clients = useInsightClients().data ?? [];
  const { update, analyze, analyzeAll, bulk, undo, markFiled, createTask, requestDocuments } = useInsightMutations();
  const navigate = useNavigate();
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const readOnly = isClientRole(role);
  const list = insights.data ?? [];
  const stats = insightStats(list);
  const setFilter = <K extends keyof InsightFilters>(key: K, value: InsightFilters[K] | null) => setFilters((f) => ({ ...f, [key]: value ?? undefined }));
  const clientOptions = clients.map((c) => ({ label: c.name, value: c.id }));

  /** Dismissing closes an insight (§4): it is asked first, and can be undone from the toast for a while. */
  const confirmed = (status: InsightStatus, count: number, go: () => void) => {
    if (status !== 'dismissed') { go(); return; }
    confirmDialog({
      header: 'Dismiss insights', icon: 'pi pi-exclamation-triangle', defaultFocus: 'reject', acceptLabel: 'Dismiss', rejectLabel: 'Cancel',
      message: count === 1 ? 'Dismiss this insight? You can undo it from the message that follows.' : `Dismiss ${count} insights? You can undo it from the message that follows.`,
      accept: go,
    });
  };
  const failed = (fallback: string) => (err: unknown) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? fallback });
  /** A dismissal's toast offers Undo: the insights go back to where they were (the server allows it for a while, to the dismisser). */
  const undoable = (ids: number[], detail: string) => showToast({
    severity: 'success', summary: 'Success', detail,
    action: {
      label: 'Undo',
      run: () => undo.mutate(ids, {
        onSuccess: (r: InsightBulkResult) => showToast(r.refused.length
          ? { severity: 'warn', summary: 'Not undone', detail: r.refused[0]!.message }
          : { severity: 'success', summary: 'Success', detail: INSIGHT_MESSAGES.undone(r.updated.length) }),
        onError: failed(INSIGHT_MESSAGES.undoFailed),
      }),
    },
  });
  const move = (insight: ComplianceInsight, status: InsightStatus) => confirmed(status, 1, () => update.mutate({ id: insight.id, status, reviewedById: userId }, {
    onSuccess: () => (status === 'dismissed' ? undoable([insight.id], INSIGHT_MESSAGES.updated) : showToast({ severity: 'success', summary: 'Success', detail: INSIGHT_MESSAGES.updated })),
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: INSIGHT_MESSAGES.updateFailed }),
  }));
  /**
   * Making a task from a card marks it acted upon (unless someone already closed it), and then
   * `next` runs: the task opens once the card is moved, so going back shows the card as it is.
   */
  const actedUpon = (insight: ComplianceInsight, next: () => void) => update.mutate({ id: insight.id, status: 'acted_upon', reviewedById: userId }, { onSettled: next });
  const leads: InsightLeadHandlers = {
    markFiled: (insight, item) => markFiled.mutate({ insightId: insight.id, reviewedById: userId, trackerItemId: item.trackerItemId, filedDate: todayCalendarDate() }, {
      onSuccess: (filed) => showToast({ severity: 'success', summary: 'Marked Filed', detail: `${filed.reportTypeName} ${filed.period} is filed` }),
      onError: failed('Failed to update status'),
    }),
    createTask: (insight) => createTask.mutate(taskFromInsight(insight), {
      onSuccess: (task) => actedUpon(insight, () => navigate(inCurrentFirm(taskActionUrl(task.id)))),
      onError: failed('Failed to create task'),
    }),
    requestDocuments: (_insight, item) => requestDocuments.mutate(item.trackerItemId, {
      onSuccess: (request) => navigate(inCurrentFirm(`/requests/${request.id}`)),
      onError: failed('Failed to create the document request'),
    }),
  };
  const leading = markFiled.isPending || createTask.isPending || requestDocuments.isPending;
  const select = (insight: ComplianceInsight, on: boolean) => setSelected((s) => {
    const next = new Set(s);
    if (on) next.add(insight.id); else next.delete(insight.id);
    return next;
  });
  const moveSelected = (ids: number[], status: InsightStatus) => confirmed(status, ids.length, () => bulk.mutate({ ids, status }, {
    onSuccess: (r) => {
      setSelected(new Set());
      const refused = r.refused.length ? ` (${r.refused.length} not changed: ${r.refused[0]!.message})` : '';
      const detail = `${INSIGHT_MESSAGES.bulkUpdated(r.updated.length)}${refused}`;
      if (status === 'dismissed' && r.updated.length) undoable(r.updated.map((i) => i.id), detail);
      else showToast({ severity: r.refused.length ? 'warn' : 'success', summary: 'Success', detail });
    },
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: INSIGHT_MESSAGES.updateFailed }),
  }));
  const runAnalysisOfAll = () => analyzeAll.mutate(undefined, {
    onSuccess: (r) => showToast({ severity: 'success', summary: INSIGHT_MESSAGES.analysisComplete, detail: r.message }),
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: INSIGHT_MESSAGES.triggerFailed }),
  });
  const runAnalysis = (clientId: number) => analyze.mutate(clientId, {
    onSuccess: (r) => showToast({ severity: 'success', summary: INSIGHT_MESSAGES.analysisComplete, detail: r.message }),
    onError: () => showToast({ severity: 'error', summary: 'Error', detail: INSIGHT_MESSAGES.triggerFailed }),
  });

  return (
    <div className="insights-page">
      <PageHeading title="AI Compliance Insights" subtitle="Missing documents, filings found in uploads, thresholds crossed and patterns across your clients"
        actions={<>
          {admin && <Button label="Analyze all clients" icon="pi pi-sparkles" outlined loading={analyzeAll.isPending} onClick={runAnalysisOfAll} />}
          {admin && <Button label="Rules" icon="pi pi-sliders-h" outlined onClick={() => setEditingRules(true)} />}
          <Button label="Refresh" icon="pi pi-refresh" outlined loading={insights.isFetching} onClick={() => void insights.refetch()} />
        </>} />
      <div className="insight-stats">
        <StatCard label="High Priority" value={stats.highPriority} icon="pi pi-exclamation-triangle" />
        <StatCard label="Pending Review" value={stats.pendingReview} icon="pi pi-clock" />
        <StatCard label="Acted Upon" value={stats.actedUpon} icon="pi pi-check-circle" />
        <StatCard label="Total Insights" value={stats.total} icon="pi pi-lightbulb" />
      </div>
      <div className="insight-filters">
        <Dropdown inputId="insights-client" aria-label="Client" placeholder="Client" showClear filter value={filters.clientId ?? null} options={clientOptions} onChange={(e) => setFilter('clientId', e.value)} />
        <Dropdown inputId="insights-status" aria-label="Status" placeholder="Status" showClear value={filters.status ?? null} options={INSIGHT_STATUSES.map((s) => ({ label: STATUS_LABELS[s], value: s }))} onChange={(e) => setFilter('status', e.value)} />
        <Dropdown inputId="insights-priority" aria-label="Priority" placeholder="Priority" showClear value={filters.priority ?? null} options={INSIGHT_PRIORITIES.map((p) => ({ label: PRIORITY_LABELS[p], value: p }))} onChange={(e) => setFilter('priority', e.value)} />
        {admin && (
          // §6: only an Admin sees the analysis action; choosing a client runs it.
          <Dropdown inputId="insights-analyze" aria-label="Analyze client" placeholder="Analyze client..." filter value={null} options={clientOptions} disabled={analyze.isPending}
            onChange={(e) => { if (typeof e.value === 'number') runAnalysis(e.value); }} />
        )}
      </div>
      <PageTabView activeIndex={tab} onTabChange={(e) => { setTab(e.index); setSelected(new Set()); }}>
        {INSIGHT_STATUSES.map((status) => {
          const inTab = list.filter((i) => i.status === status);
          const chosen = inTab.filter((i) => selected.has(i.id)).map((i) => i.id);
          const actions = insightActions(status);
          const selectable = !readOnly && (actions.review || actions.actUpon || actions.dismiss);
          return (
            <TabPanel key={status} header={`${STATUS_LABELS[status]} (${stats.byStatus[status]})`}>
              {selectable && inTab.length > 0 && (
                <div className="insight-bulk" role="toolbar" aria-label="Selected insights">
                  <Checkbox inputId={`insight-select-all-${status}`} checked={chosen.length === inTab.length}
                    onChange={(e) => setSelected(new Set(e.checked ? inTab.map((i) => i.id) : []))} />
                  <label htmlFor={`insight-select-all-${status}`}>{chosen.length ? `${chosen.length} selected` : 'Select all'}</label>
                  {chosen.length > 0 && <>
                    {actions.review && <Button label="Mark Reviewed" size="small" outlined disabled={bulk.isPending} onClick={() => moveSelected(chosen, 'reviewed')} />}
                    {actions.actUpon && <Button label="Mark Acted Upon" size="small" disabled={bulk.isPending} onClick={() => moveSelected(chosen, 'acted_upon')} />}
                    {actions.dismiss && <Button label="Dismiss" size="small" severity="secondary" outlined disabled={bulk.isPending} onClick={() => moveSelected(chosen, 'dismissed')} />}
                  </>}
                </div>
              )}
              {inTab.length === 0
                ? <EmptyState icon="pi pi-lightbulb" text={emptyTabText(status)} />
                : <div className="insight-list">{inTab.map((i) => (
                  <InsightCard key={i.id} insight={i} onMove={readOnly ? null : move} onLead={readOnly ? null : leads} busy={update.isPending || leading}
                    selected={selected.has(i.id)} onSelect={selectable ? select : null} />
                ))}</div>}
            </TabPanel>
          );
        })}
      </PageTabView>
      <ConfirmDialog />
      {admin && <RuleSettingsDialog visible={editingRules} onHide={() => setEditingRules(false)} />}
    </div>
  );
}
