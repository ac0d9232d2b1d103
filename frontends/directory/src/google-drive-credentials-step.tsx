import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Password } from 'primereact/password';
import { googleCredentialsInputSchema, type GoogleCredentialsInput } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { readCurrentTenant } from '@ledgerline/ui/auth-storage.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import { TextFormField } from '@ledgerline/ui/text-form-field.tsx';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { googleDrivePath } from './directory.api.ts';

/** The redirect URI the administrator registers with Google for this client (spec 000 §7). */
function callbackUrl(clientId: number): string {
  const tenant = readCurrentTenant()?.shortName;
  const path = `${window.location.origin}/api/auth/google/callback/${clientId}`;
  return tenant ? `${path}?tenant=${encodeURIComponent(tenant)}` : path;
}

/** Step 1: the OAuth client of the firm's Google Cloud project. Shown while none is saved. */
export function GoogleDriveCredentialsStep({ clientId, onSaved }: { clientId: number; onSaved(): void }) {
  const [values, setValues] = useState<GoogleCredentialsInput>({ clientId: '', clientSecret: '' });
  const save = useMutation({
    mutationFn: (body: GoogleCredentialsInput) => apiJson('POST', googleDrivePath(clientId, '/credentials'), body),
    onSuccess: () => {
      showToast({ severity: 'success', summary: 'Credentials Saved', detail: 'Google Drive credentials have been saved successfully.' });
      onSaved();
    },
    onError: (error) => showToast({ severity: 'error', summary: 'Error', detail: serverMessage(error) ?? 'Failed to save credentials' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = googleCredentialsInputSchema.safeParse(values);
    if (!checked.success) {
      showToast({ severity: 'warn', summary: 'Missing Credentials', detail: 'Please provide both Client ID and Client Secret' });
      return;
    }
    save.mutate(checked.data);
  };

  return (
    <section className="drive-step">
      <h4 className="drive-step__title">
        <span className="drive-step__number">1</span> Enter OAuth Credentials
      </h4>
      <p className="drive-step__text">
        Create an OAuth client (type “Web application”) in your Google Cloud project with the Google Drive API enabled, and add this
        authorized redirect URI:
      </p>
      <code className="drive-step__uri">{callbackUrl(clientId)}</code>
      <form className="drive-step__form" onSubmit={submit} noValidate>
        <TextFormField
          id="drive-client-id"
          label="Client ID"
          value={values.clientId}
          placeholder="1234567890-abc.apps.googleusercontent.com"
          onChange={(clientIdValue) => setValues((current) => ({ ...current, clientId: clientIdValue }))}
        />
        <FormField label="Client Secret" htmlFor="drive-client-secret">
          <Password
            inputId="drive-client-secret"
            value={values.clientSecret}
            onChange={(event) => setValues((current) => ({ ...current, clientSecret: event.target.value }))}
            feedback={false}
            toggleMask
            autoComplete="off"
          />
        </FormField>
        <Button type="submit" label={save.isPending ? 'Saving...' : 'Save Credentials'} icon="pi pi-key" loading={save.isPending} />
      </form>
    </section>
  );
}
