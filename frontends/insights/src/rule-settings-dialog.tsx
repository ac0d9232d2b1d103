import { Button } from 'primereact/button';
import { Chips } from 'primereact/chips';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { InputNumber } from 'primereact/inputnumber';
import { MultiSelect } from 'primereact/multiselect';
import { useEffect, useState } from 'react';
import { ENTITY_TYPE_LABELS, ENTITY_TYPES, type EntityType } from '@ledgerline/contracts/directory.contracts.ts';
import {
  DEFAULT_THRESHOLDS, DOCUMENT_KIND_LABELS, DOCUMENT_KINDS, INSIGHT_MESSAGES, type DocumentKind, JURISDICTION_CURRENCY, JURISDICTION_NAMES, JURISDICTIONS,
  type InsightRuleSettings, type Jurisdiction, type ThresholdRule,
} from '@ledgerline/contracts/insights.contracts.ts';
import { FormDialogFooter } from '@ledgerline/ui/form-dialog-footer.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { useInsightReportTypes, useRuleSettings, useSaveRuleSettings } from './insights.api.ts';

const FORM_ID = 'insight-rules-form';
/** A threshold row being edited: its amount may be cleared while typing. */
type ThresholdDraft = Omit<ThresholdRule, 'threshold'> & { threshold: number | null };

const entityTypeOptions = ENTITY_TYPES.map((value) => ({ value, label: ENTITY_TYPE_LABELS[value] }));
const capitalized = (label: string) => label.charAt(0).toUpperCase() + label.slice(1);
const documentKindOptions = DOCUMENT_KINDS.map((value) => ({ value, label: capitalized(DOCUMENT_KIND_LABELS[value]) }));
const jurisdictionOptions = JURISDICTIONS.map((j) => ({ label: `${JURISDICTION_NAMES[j]} (${JURISDICTION_CURRENCY[j]})`, value: j }));

/** A new row for `jurisdiction`: its law's registration threshold, source and all. */
function newThreshold(jurisdiction: Jurisdiction): ThresholdDraft {
  const law = DEFAULT_THRESHOLDS.find((t) => t.jurisdiction === jurisdiction)!;
  return { ...law };
}

/**
 * The firm's threshold_alert rules (Admin): the words an amount must follow to count, and
 * thresholds by jurisdiction in its currency (a report type's own, or all of them); a
 * jurisdiction without a threshold gets no alert. The server validates; a refusal shows its
 * message. Saved rules apply from the next analysis.
 */
export function RuleSettingsDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const saved = useRuleSettings(visible);
  const reportTypes = useInsightReportTypes(visible).data ?? [];
  const save = useSaveRuleSettings();
  const [keywords, setKeywords] = useState<string[]>([]);
  const [defaultJurisdiction, setDefaultJurisdiction] = useState<Jurisdiction>('IN');
  const [thresholds, setThresholds] = useState<ThresholdDraft[]>([]);
  const settings: InsightRuleSettings | undefined = saved.data;
  useEffect(() => {
    if (!visible || !settings) return;
    setKeywords(settings.keywords);
    setDefaultJurisdiction(settings.defaultJurisdiction);
    setThresholds(settings.thresholds);
  }, [visible, settings]);

  const setRow = (index: number, change: Partial<ThresholdDraft>) => setThresholds((rows) => rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const submit = () => {
    const rules = thresholds.map((t) => ({ ...t, threshold: t.threshold ?? 0 }));
    save.mutate({ keywords, defaultJurisdiction, thresholds: rules }, {
      onSuccess: () => { showToast({ severity: 'success', summary: 'Success', detail: INSIGHT_MESSAGES.rulesSaved }); onHide(); },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? INSIGHT_MESSAGES.rulesSaveFailed }),
    });
  };
  const reportTypeOptions = [{ label: 'All report types', value: null as number | null }, ...reportTypes.map((r) => ({ label: r.name, value: r.id as number | null }))];

  return (
    <Dialog header="Insight Rules" visible={visible} onHide={onHide} className="rules-dialog" breakpoints={{ '640px': '95vw' }}
      footer={<FormDialogFooter formId={FORM_ID} submitLabel="Save" pendingLabel="Saving..." pending={save.isPending} onCancel={onHide} />}>
      <form id={FORM_ID} className="rules-form" noValidate onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <p className="rules-form__intro">
          A threshold alert is raised when a client's document states an amount after one of these words above the threshold of the
          client's jurisdiction. Changes apply from the next analysis.
        </p>
        <label htmlFor="rules-keywords">Keywords (Enter adds one)</label>
        <Chips inputId="rules-keywords" value={keywords} onChange={(e) => setKeywords(e.value ?? [])} separator="," addOnBlur />
        <label htmlFor="rules-default-jurisdiction">Jurisdiction of clients that name none</label>
        <Dropdown inputId="rules-default-jurisdiction" value={defaultJurisdiction} options={jurisdictionOptions} onChange={(e) => setDefaultJurisdiction(e.value as Jurisdiction)} />
        <fieldset className="rules-form__overrides">
          <legend>Thresholds by jurisdiction</legend>
          {thresholds.length === 0 && <p className="rules-form__empty">No thresholds: no threshold alerts are raised.</p>}
          {thresholds.map((t, i) => (
            <div key={i} className="rules-form__threshold">
              <div className="rules-form__override">
                <Dropdown aria-label={`Jurisdiction ${i + 1}`} value={t.jurisdiction} options={jurisdictionOptions}
                  onChange={(e) => setRow(i, { ...newThreshold(e.value as Jurisdiction), reportTypeId: t.reportTypeId, threshold: t.threshold })} />
                <Dropdown aria-label={`Report type ${i + 1}`} value={t.reportTypeId} options={reportTypeOptions} filter placeholder="All report types"
                  onChange={(e) => setRow(i, { reportTypeId: e.value as number | null })} />
                <InputNumber aria-label={`Threshold ${i + 1}`} value={t.threshold} min={0} mode="currency" currency={t.currency}
                  locale={t.currency === 'INR' ? 'en-IN' : 'en-US'} minFractionDigits={0} maxFractionDigits={2} onValueChange={(e) => setRow(i, { threshold: e.value ?? null })} />
                <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={`Remove threshold ${i + 1}`} onClick={() => setThresholds((rows) => rows.filter((_, j) => j !== i))} />
              </div>
              {/* What the threshold is about: none picked means every client type, every kind of document. */}
              <div className="rules-form__scope">
                <MultiSelect aria-label={`Client types ${i + 1}`} value={t.entityTypes} options={entityTypeOptions} display="chip" placeholder="All client types"
                  maxSelectedLabels={3} selectedItemsLabel="{0} client types" onChange={(e) => setRow(i, { entityTypes: e.value as EntityType[] })} />
                <MultiSelect aria-label={`Documents ${i + 1}`} value={t.documentKinds} options={documentKindOptions} display="chip" placeholder="All documents"
                  maxSelectedLabels={3} selectedItemsLabel="{0} kinds of document" onChange={(e) => setRow(i, { documentKinds: e.value as DocumentKind[] })} />
              </div>
              <small className="rules-form__source">{t.obligation}{t.source ? ` — ${t.source}` : ''}</small>
            </div>
          ))}
          <Button type="button" label="Add threshold" icon="pi pi-plus" text className="rules-form__add" onClick={() => setThresholds((rows) => [...rows, newThreshold(defaultJurisdiction)])} />
        </fieldset>
      </form>
    </Dialog>
  );
}
