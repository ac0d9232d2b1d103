import { Button } from 'primereact/button';
import { Chips } from 'primereact/chips';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { useEffect, useState } from 'react';
import { DEFAULT_RULE_SETTINGS, INSIGHT_MESSAGES, type InsightRuleSettings } from '@ledgerline/contracts/insights.contracts.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useInsightReportTypes, useRuleSettings, useSaveRuleSettings } from './insights.api.ts';

const FORM_ID = 'insight-rules-form';
/** An override row being edited: its report type is chosen after the row is added. */
interface OverrideDraft { reportTypeId: number | null; threshold: number | null }

/**
 * The firm's threshold_alert rules (Admin): the words an amount must follow to count, the
 * firm-wide threshold and per-report-type overrides. The server validates; a refusal shows
 * its message. Saved rules apply from the next analysis.
 */
export function RuleSettingsDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const saved = useRuleSettings(visible);
  const reportTypes = useInsightReportTypes(visible).data ?? [];
  const save = useSaveRuleSettings();
  const [keywords, setKeywords] = useState<string[]>([]);
  const [defaultThreshold, setDefaultThreshold] = useState<number | null>(null);
  const [overrides, setOverrides] = useState<OverrideDraft[]>([]);
  const settings: InsightRuleSettings | undefined = saved.data;
  useEffect(() => {
    if (!visible || !settings) return;
    setKeywords(settings.keywords);
    setDefaultThreshold(settings.defaultThreshold);
    setOverrides(settings.thresholds);
  }, [visible, settings]);

  const setOverride = (index: number, change: Partial<OverrideDraft>) => setOverrides((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const submit = () => {
    // Rows left without a report type are not overrides yet: they are dropped, not refused.
    const thresholds = overrides.flatMap((o) => (o.reportTypeId === null ? [] : [{ reportTypeId: o.reportTypeId, threshold: o.threshold ?? 0 }]));
    save.mutate({ keywords, defaultThreshold: defaultThreshold ?? 0, thresholds }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Success', detail: INSIGHT_MESSAGES.rulesSaved }); onHide(); },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? INSIGHT_MESSAGES.rulesSaveFailed }),
    });
  };
  const options = reportTypes.map((r) => ({ label: r.name, value: r.id }));

  return (
    <Dialog header="Insight Rules" visible={visible} onHide={onHide} className="rules-dialog" breakpoints={{ '640px': '95vw' }}
      footer={<FormDialogFooter formId={FORM_ID} submitLabel="Save" pendingLabel="Saving..." pending={save.isPending} onCancel={onHide} />}>
      <form id={FORM_ID} className="rules-form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <p className="rules-form__intro">
          A threshold alert is raised when a client's document states an amount after one of these words above the threshold.
          Changes apply from the next analysis.
        </p>
        <label htmlFor="rules-keywords">Keywords (Enter adds one)</label>
        <Chips inputId="rules-keywords" value={keywords} onChange={(e) => setKeywords(e.value ?? [])} separator="," addOnBlur />
        <label htmlFor="rules-default-threshold">Threshold</label>
        <InputNumber inputId="rules-default-threshold" value={defaultThreshold} onValueChange={(e) => setDefaultThreshold(e.value ?? null)} min={0} />
        <fieldset className="rules-form__overrides">
          <legend>Per report type</legend>
          {overrides.length === 0 && <p className="rules-form__empty">Every report type uses the threshold above.</p>}
          {overrides.map((o, i) => (
            <div key={i} className="rules-form__override">
              <Dropdown aria-label={`Report type ${i + 1}`} value={o.reportTypeId} placeholder="Report type" filter
                options={options.filter((opt) => opt.value === o.reportTypeId || !overrides.some((other) => other.reportTypeId === opt.value))}
                onChange={(e) => setOverride(i, { reportTypeId: e.value as number })} />
              <InputNumber aria-label={`Threshold ${i + 1}`} value={o.threshold} min={0} onValueChange={(e) => setOverride(i, { threshold: e.value ?? null })} />
              <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remove override ${i + 1}`} onClick={() => setOverrides((rows) => rows.filter((_, j) => j !== i))} />
            </div>
          ))}
          <Button type="button" label="Add report type" icon="pi pi-plus" text className="rules-form__add" onClick={() => setOverrides((rows) => [...rows, { reportTypeId: null, threshold: defaultThreshold ?? DEFAULT_RULE_SETTINGS.defaultThreshold }])} />
        </fieldset>
      </form>
    </Dialog>
  );
}
