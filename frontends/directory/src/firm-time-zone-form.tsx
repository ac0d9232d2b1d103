import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { useEffect, useMemo, useState } from 'react';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { timeZoneOptions } from '@ledgerline/ui/time-zone-options.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';

interface FirmInfo { timeZone: string }

/**
 * The firm's time zone (docs/using/time-zones-and-thresholds.md): "today", "due" and
 * "overdue" and the instants reminders fire at are worked out in it. Admins only (the
 * settings page shows this form to them alone; the server refuses anyone else).
 */
export function FirmTimeZoneForm() {
  const infoPath = apiPath('info');
  const info = useQuery<FirmInfo>({ queryKey: [infoPath] });
  const queryClient = useQueryClient();
  const [zone, setZone] = useState<string | undefined>();
  useEffect(() => { if (info.data) setZone(info.data.timeZone); }, [info.data]);
  const options = useMemo(() => timeZoneOptions(info.data?.timeZone), [info.data?.timeZone]);
  const save = useMutation({
    mutationFn: (timeZone: string) => apiJson<Company>('PUT', apiPath('firm-settings'), { timeZone }),
    onSuccess: (company) => {
      queryClient.setQueryData([infoPath], (old: FirmInfo | undefined) => ({ ...old, timeZone: company.timeZone }));
      showToast({ severity: 'success', summary: 'Success', detail: `The firm's time zone is now ${company.timeZone}` });
    },
    onError: (err) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(err) ?? 'Failed to save the time zone' }),
  });

  if (info.isError) return <Message severity="error" text="The firm's settings could not be loaded." className="page-error" />;
  return (
    <form className="firm-settings-form" onSubmit={(e) => { e.preventDefault(); if (zone) save.mutate(zone); }}>
      <label htmlFor="firm-time-zone">Firm time zone</label>
      <Dropdown inputId="firm-time-zone" value={zone} options={options} filter onChange={(e) => setZone(e.value as string)} placeholder="Loading..." />
      <small className="firm-settings-form__help">
        Due dates are calendar dates: a task due on a date is overdue once that date has passed here, and reminders go out at 09:00 on these clocks.
      </small>
      <Button type="submit" label="Save Time Zone" loading={save.isPending} disabled={!zone || zone === info.data?.timeZone} />
    </form>
  );
}
