import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { Dropdown } from 'primereact/dropdown';
import { MultiSelect } from 'primereact/multiselect';
import { useEffect, useMemo, useState } from 'react';
import { entryFits, type PresetApplyResult } from '@ledgerline/contracts/compliance.contracts.ts';
import { ENTITY_TYPE_LABELS } from '@ledgerline/contracts/directory.contracts.ts';
import { FIRM_COUNTRY_FACTS, type FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { parseCalendarDate, toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { useFirmInfo, useFirmToday } from '@ledgerline/ui/firm-today.ts';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { monthNames, trackerDate } from './compliance-view.ts';
import { LeftOutList } from './generation-outcome.tsx';
import { useClients, useComplianceMutations, usePresets, useReportTypes, useUsers } from './compliance.api.ts';

/** The firm's own country's calendars first (issue 44), the rest in the server's order. */
export function firmPresetsFirst<T extends { country: string }>(presets: readonly T[], firmCountry: FirmCountry | null): T[] {
  if (!firmCountry) return [...presets];
  const own = FIRM_COUNTRY_FACTS[firmCountry].jurisdiction;
  return [...presets.filter((p) => p.country === own), ...presets.filter((p) => p.country !== own)];
}

/** Admin, DTA and Client users have no report-type list to extend (identity grants CPAs and custom roles). */
const GRANTLESS = ['admin', 'dta'];

/**
 * Apply a statutory calendar (docs/using/compliance.md) to chosen clients: per client the entries
 * that fit its entity type and registrations, pre-checked and editable; who will be granted the
 * calendar's report types (the CPAs and custom-role users serving the clients, editable); whether
 * to make the items due from a day on (the firm's today by default); then what was created, what
 * was left out and why, and who got what.
 */
export function PresetDialog({ visible, onHide }: { visible: boolean; onHide(): void }) {
  const listedPresets = usePresets(visible).data;
  const firmCountry = useFirmInfo(undefined, visible)?.country ?? null;
  const presets = useMemo(() => firmPresetsFirst(listedPresets, firmCountry), [listedPresets, firmCountry]);
  const clients = useClients().data;
  const users = useUsers(visible).data;
  const reportTypes = useReportTypes(visible).data;
  const [presetId, setPresetId] = useState<string | null>(null);
  const [clientIds, setClientIds] = useState<number[]>([]);
  const [chosen, setChosen] = useState<Record<number, string[]>>({});
  const [grantees, setGrantees] = useState<number[] | null>(null);
  const [result, setResult] = useState<PresetApplyResult | null>(null);
  // Onboarding (issue 39): the items due from this day on are made with the schedules, whatever periods they cover.
  const today = useFirmToday();
  const [createItems, setCreateItems] = useState(true);
  const [itemsFrom, setItemsFrom] = useState<Date | null>(null);
  const from = createItems ? (itemsFrom ? toCalendarDate(itemsFrom) : today) : undefined;
  const { applyPreset } = useComplianceMutations();
  // Granting report types is user administration: an Admin's (a DTA applies without granting).
  const mayGrant = useCanAdministerFirm();
  useEffect(() => { if (visible) { setPresetId(null); setClientIds([]); setChosen({}); setGrantees(null); setResult(null); setCreateItems(true); setItemsFrom(null); } }, [visible]);
  // The firm's own country's calendar is chosen to begin with, once the list and the firm's country are in.
  const ownPresetId = firmCountry ? presets.find((p) => p.country === FIRM_COUNTRY_FACTS[firmCountry].jurisdiction)?.id ?? null : null;
  useEffect(() => { if (visible && ownPresetId) setPresetId((chosenId) => chosenId ?? ownPresetId); }, [visible, ownPresetId]);
  const preset = presets.find((p) => p.id === presetId);
  const grantable = useMemo(() => users.filter((u) => !isClientRole(u.role) && !GRANTLESS.includes(u.role.toLowerCase())), [users]);
  // Until the firm changes the list: the staff whose client list holds any of the chosen clients.
  const defaultGrantees = grantable.filter((u) => (u.clientIds ?? []).some((c) => clientIds.includes(c))).map((u) => u.id);
  const granteeIds = mayGrant ? grantees ?? defaultGrantees : [];

  const entriesOf = (clientId: number): string[] => {
    if (chosen[clientId]) return chosen[clientId]!;
    const client = clients.find((c) => c.id === clientId);
    return preset ? preset.entries.filter((e) => entryFits(e, client?.entityType ?? null, client?.registrations ?? null)).map((e) => e.id) : [];
  };
  const toggle = (clientId: number, entryId: string, on: boolean) => setChosen((c) => {
    const current = entriesOf(clientId);
    return { ...c, [clientId]: on ? [...current, entryId] : current.filter((id) => id !== entryId) };
  });
  const total = clientIds.reduce((n, id) => n + entriesOf(id).length, 0);

  const apply = () => {
    if (!presetId || clientIds.length === 0) return;
    const entryIds = Object.fromEntries(clientIds.map((id) => [String(id), entriesOf(id)]));
    applyPreset.mutate({ presetId, clientIds, entryIds, grantToUserIds: granteeIds, ...(from ? { from } : {}) }, {
      onSuccess: (r) => {
        setResult(r);
        showToast({ severity: 'success', summary: 'Statutory Calendar Applied', detail: `${r.createdSchedules.length} schedules created${from ? `, ${r.createdItems} items` : ''}` });
      },
      onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to apply the statutory calendar' }),
    });
  };
  const userName = (id: number) => { const u = users.find((x) => x.id === id); return u ? (u.fullName || u.username) : `User ${id}`; };
  const typeName = (id: number) => result?.createdReportTypes.find((t) => t.id === id)?.name
    ?? result?.createdSchedules.find((s) => s.reportTypeId === id)?.reportTypeName ?? reportTypes.find((t) => t.id === id)?.name ?? `Report type ${id}`;

  return (
    <Dialog header="Apply Statutory Calendar" visible={visible} onHide={onHide} style={{ width: 'min(48rem, 95vw)' }}
      footer={<div className="form-dialog-footer">
        <Button label={result ? 'Done' : 'Cancel'} outlined onClick={onHide} />
        {!result && <Button label={applyPreset.isPending ? 'Applying...' : 'Apply'} icon="pi pi-check" loading={applyPreset.isPending} disabled={!presetId || total === 0} onClick={apply} />}
      </div>}>
      <div className="compliance-form">
        <label htmlFor="preset-jurisdiction">Jurisdiction</label>
        <Dropdown inputId="preset-jurisdiction" value={presetId} placeholder="Select a jurisdiction" options={presets.map((p) => ({ label: p.name, value: p.id }))}
          onChange={(e) => { setPresetId(e.value); setChosen({}); setResult(null); }} />
        <label htmlFor="preset-clients">Clients</label>
        <MultiSelect inputId="preset-clients" value={clientIds} filter display="chip" placeholder="Select clients" options={clients.map((c) => ({ label: c.name, value: c.id }))}
          onChange={(e) => setClientIds(e.value as number[])} />
        {preset && !result && clientIds.map((clientId) => {
          const client = clients.find((c) => c.id === clientId);
          const picked = entriesOf(clientId);
          return (
            <fieldset key={clientId} className="compliance-preset-client" aria-label={`Entries for ${client?.name ?? clientId}`}>
              <legend>{client?.name} <small className="compliance-muted">{client?.entityType ? ENTITY_TYPE_LABELS[client.entityType] : 'entity type not specified'} · {client?.jurisdiction}</small></legend>
              {preset.entries.map((e) => (
                <span key={e.id} className="compliance-preset-entry">
                  <Checkbox inputId={`preset-${clientId}-${e.id}`} checked={picked.includes(e.id)} onChange={(c) => toggle(clientId, e.id, !!c.checked)} />
                  <label htmlFor={`preset-${clientId}-${e.id}`}>{e.reportTypeName}</label>
                </span>
              ))}
            </fieldset>
          );
        })}
        {preset && !result && clientIds.length > 0 && (<>
          {mayGrant ? (<>
            <label htmlFor="preset-grantees">Who will see the new report types</label>
            <MultiSelect inputId="preset-grantees" value={granteeIds} display="chip" placeholder="Nobody besides Admins and DTAs"
              options={grantable.map((u) => ({ label: u.fullName || u.username, value: u.id }))} onChange={(e) => setGrantees(e.value as number[])} />
          </>) : <p className="compliance-muted">An Admin grants the new report types to the CPAs who serve these clients (Users).</p>}
          <span className="compliance-form__switch">
            <Checkbox inputId="preset-create-items" checked={createItems} onChange={(e) => setCreateItems(e.checked === true)} />
            <label htmlFor="preset-create-items">Create the items due from</label>
            <Calendar inputId="preset-items-from" value={itemsFrom ?? parseCalendarDate(today)} disabled={!createItems} showIcon aria-label="Items due from"
              onChange={(e) => setItemsFrom((e.value as Date | null) ?? null)} />
          </span>
          <p className="compliance-muted">{total} schedules will be created (those a client already has are kept); the people chosen are granted the report types of their clients&apos; entries.</p>
        </>)}
        {preset && !result && (
          <details className="compliance-preset-sources">
            <summary>About this calendar: due dates and sources</summary>
            <ul className="compliance-preset-entries">
              {preset.entries.map((e) => (
                <li key={e.id}>
                  <strong>{e.reportTypeName}</strong> — {e.frequency}, day {e.dueDayOfMonth}{e.dueMonths.length ? ` of ${monthNames(e.dueMonths)}` : ''}
                  {e.note && <small>{e.note}</small>}
                  <small className="compliance-muted">Source: {e.source}</small>
                </li>
              ))}
            </ul>
          </details>
        )}
        {result && (
          <div className="compliance-preset-result" role="status">
            <p><strong>Created</strong>: {result.createdSchedules.length} schedules{result.skipped.length ? ` (${result.skipped.length} already existed)` : ''}.</p>
            {result.createdSchedules.length > 0 && (
              <ul className="compliance-preset-created" aria-label="Created">
                {result.createdSchedules.map((s) => <li key={s.id}>{s.clientName} — {s.reportTypeName}</li>)}
              </ul>
            )}
            {from && (<>
              <p>{result.createdItems} items created, due from {trackerDate(from)}.</p>
              {result.leftOut.length === 0 ? <p><strong>Left out</strong>: nothing.</p> : (
                <details open={result.leftOut.length <= 10}>
                  <summary><strong>Left out</strong> ({result.leftOut.length}): items not created, and why</summary>
                  <LeftOutList leftOut={result.leftOut} />
                </details>
              )}
            </>)}
            {result.createdReportTypes.length > 0 && <p>New report types: {result.createdReportTypes.map((t) => t.name).join(', ')}</p>}
            {result.grantedReportTypes.length > 0
              ? <ul>{result.grantedReportTypes.map((g) => <li key={g.userId}>{userName(g.userId)} now sees {g.reportTypeIds.map(typeName).join(', ')}</li>)}</ul>
              : <p>Nobody needed new report types.</p>}
          </div>
        )}
      </div>
    </Dialog>
  );
}
