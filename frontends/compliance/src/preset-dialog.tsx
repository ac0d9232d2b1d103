import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { MultiSelect } from 'primereact/multiselect';
import { useEffect, useState } from 'react';
import type { PresetApplyResult } from '@ledgerline/contracts/compliance.contracts.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { monthNames } from './compliance-view.ts';
import { useClients, useComplianceMutations, usePresets } from './compliance.api.ts';

/**
 * Apply a statutory calendar (README "Compliance presets") to chosen clients: the jurisdiction's
 * entries with their sources, then what was created.
 */
export function PresetDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const presets = usePresets(visible).data;
  const clients = useClients().data;
  const [presetId, setPresetId] = useState<string | null>(null);
  const [clientIds, setClientIds] = useState<number[]>([]);
  const [result, setResult] = useState<PresetApplyResult | null>(null);
  const { applyPreset } = useComplianceMutations();
  useEffect(() => { if (visible) { setPresetId(null); setClientIds([]); setResult(null); } }, [visible]);
  const preset = presets.find((p) => p.id === presetId);
  const apply = () => {
    if (!presetId || clientIds.length === 0) return;
    applyPreset.mutate({ presetId, clientIds }, {
      onSuccess: (r) => {
        setResult(r);
        showToast({ severity: 'success', summary: 'Statutory Calendar Applied', detail: `${r.createdSchedules.length} schedules created` });
      },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to apply the statutory calendar' }),
    });
  };
  return (
    <Dialog header="Apply Statutory Calendar" visible={visible} onHide={onHide} style={{ width: 'min(44rem, 95vw)' }}
      footer={<div className="form-dialog-footer">
        <Button label={result ? 'Done' : 'Cancel'} outlined onClick={onHide} />
        {!result && <Button label={applyPreset.isPending ? 'Applying...' : 'Apply'} icon="pi pi-check" loading={applyPreset.isPending} disabled={!presetId || clientIds.length === 0} onClick={apply} />}
      </div>}>
      <div className="compliance-form">
        <label htmlFor="preset-jurisdiction">Jurisdiction</label>
        <Dropdown inputId="preset-jurisdiction" value={presetId} placeholder="Select a jurisdiction" options={presets.map((p) => ({ label: p.name, value: p.id }))} onChange={(e) => { setPresetId(e.value); setResult(null); }} />
        <label htmlFor="preset-clients">Clients</label>
        <MultiSelect inputId="preset-clients" value={clientIds} filter display="chip" placeholder="Select clients" options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setClientIds(e.value as number[])} />
        {preset && !result && (
          <ul className="compliance-preset-entries">
            {preset.entries.map((e) => (
              <li key={e.reportTypeName}>
                <strong>{e.reportTypeName}</strong> — {e.frequency}, day {e.dueDayOfMonth}{e.dueMonths.length ? ` of ${monthNames(e.dueMonths)}` : ''}
                {e.note && <small>{e.note}</small>}
                <small className="compliance-muted">Source: {e.source}</small>
              </li>
            ))}
          </ul>
        )}
        {result && (
          <div className="compliance-preset-result" role="status">
            <p>{result.createdSchedules.length} schedules created{result.skipped.length ? `, ${result.skipped.length} already existed` : ''}.</p>
            {result.createdReportTypes.length > 0 && <p>New report types: {result.createdReportTypes.map((t) => t.name).join(', ')}</p>}
          </div>
        )}
      </div>
    </Dialog>
  );
}
