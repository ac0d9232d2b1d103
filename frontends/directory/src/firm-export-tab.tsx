import { apiPath } from '@ledgerline/ui/api-client.ts';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import { FirmExports } from '@ledgerline/ui/firm-exports.tsx';

/** Settings → Export (Admins): an archive of the whole firm to keep or to move to another installation. */
export function FirmExportTab() {
  const shortName = readCurrentTenant()?.shortName ?? 'firm';
  return (
    <section aria-labelledby="firm-export">
      <h3 id="firm-export">Export the firm</h3>
      <p className="firm-export__intro">
        One archive of everything in the firm: users with their sign-in, clients, files with their text, tasks, compliance,
        insights and messages. The firm keeps working while it is made. Keep it as a copy of your records, or give it to the
        administrator of another Ledgerline installation to import.
      </p>
      <FirmExports api={{ listUrl: apiPath('export'), startUrl: apiPath('export'), shortName }} />
    </section>
  );
}
