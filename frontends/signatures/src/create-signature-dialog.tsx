import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { RadioButton } from 'primereact/radiobutton';
import { useEffect, useState, type FormEvent } from 'react';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import type { PortalFile } from '@ledgerline/contracts/files.contracts.ts';
import type { User } from '@ledgerline/contracts/identity.contracts.ts';
import {
  AUTOMATIC_MERGE_FIELDS, SIGNATURE_LIMITS, type FieldInput, type SignatureRequest, type SignatureTemplate, type SignerInput,
} from '@ledgerline/contracts/signatures.contracts.ts';
import { apiJson, apiPath, apiQueryPath, apiRequest } from '@ledgerline/ui/api-client.ts';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { isClientRole } from '@ledgerline/ui/auth-storage.ts';
import { CreateEditDialog } from '@ledgerline/ui/create-edit-dialog.tsx';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import { getOptional } from '@ledgerline/ui/optional-query.ts';
import { useCanAdministerFirm } from '@ledgerline/ui/permissions.ts';
import { serverMessage } from '@ledgerline/ui/server-message.ts';
import type { SignaturePrefill } from '@ledgerline/ui/signature-requests.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { signatureBlockAtEnd } from './signature-placement.ts';
import { KIND_LABELS, MERGE_FIELD_LABELS } from './signature-templates.tsx';
import { PlacementEditor } from './placement-editor.tsx';
import { fieldInputs, signersWithoutSignature, type PlacedField } from './placement-geometry.ts';

/** A signer as the dialog edits it: a client user by id, or a name and an e-mail address. */
interface DraftSigner {
  key: number;
  userId: number | null;
  name: string;
  email: string;
  role: string;
  question: string;
  answer: string;
}

type Identity = 'sign_in_second_factor' | 'knowledge';
type Placement = 'end' | 'position';
type Source = 'pdf' | 'template';

interface FormState {
  clientId: number | null;
  reportTypeId: number | null;
  trackerItemId: number | null;
  title: string;
  message: string;
  fileId: number | null;
  source: Source;
  templateId: number | null;
  /** Values of the template's merge fields the portal does not fill itself (tax year, fee). */
  mergeValues: Record<string, string>;
  signers: DraftSigner[];
  identity: Identity;
  placement: Placement;
  /** The boxes of the placement editor (placement 'position'). */
  placed: PlacedField[];
  sendNow: boolean;
  /** The invoice whose payment releases the signed PDF to the client (Admins); null: filed released. */
  releaseOnPaymentOf: number | null;
}

const FORM_ID = 'create-signature-form';
/** A married couple's 8879 is the common case: the taxpayer, then the spouse. */
const ROLE_SUGGESTIONS = ['taxpayer', 'spouse', 'officer', 'partner'];
const IDENTITY_OPTIONS: { label: string; value: Identity }[] = [
  { label: 'Code by e-mail (at the moment of signing)', value: 'sign_in_second_factor' },
  { label: 'Knowledge check (answers you hold)', value: 'knowledge' },
];

let nextKey = 1;
const draftSigner = (index: number): DraftSigner => ({
  key: nextKey++, userId: null, name: '', email: '', role: ROLE_SUGGESTIONS[index] ?? 'signer', question: '', answer: '',
});
const blank = (prefill: Partial<SignaturePrefill>): FormState => ({
  clientId: prefill.clientId ?? null, reportTypeId: prefill.reportTypeId ?? null, trackerItemId: prefill.trackerItemId ?? null,
  title: prefill.title ?? '', message: '', fileId: null, source: 'pdf', templateId: null, mergeValues: {}, signers: [draftSigner(0)], identity: 'sign_in_second_factor', placement: 'end', placed: [], sendNow: true,
  releaseOnPaymentOf: null,
});

type Errors = Partial<Record<'clientId' | 'reportTypeId' | 'title' | 'fileId' | 'templateId' | 'mergeValues' | 'signers' | 'placement' | 'form', string>>;

/** The merge fields the firm fills in for a template (the rest the portal knows). */
const fillIns = (t: SignatureTemplate | undefined): string[] => (t?.mergeFields ?? []).filter((f) => !(AUTOMATIC_MERGE_FIELDS as readonly string[]).includes(f));
/** A template brings its document unless it saves only a placement for an uploaded form. */
const needsUpload = (form: FormState, t: SignatureTemplate | undefined): boolean => form.source === 'pdf' || (t !== undefined && !t.body && t.fileId === null);

/** What the form says is missing, before anything is sent (the server checks again). */
function problems(form: FormState, template: SignatureTemplate | undefined): Errors {
  const found: Errors = {};
  if (form.clientId === null) found.clientId = 'Client is required';
  if (form.reportTypeId === null) found.reportTypeId = 'Report type is required';
  if (!form.title.trim()) found.title = 'Title is required';
  if (form.source === 'template' && !template) found.templateId = 'Choose a template';
  const empty = fillIns(template).filter((f) => !form.mergeValues[f]?.trim());
  if (form.source === 'template' && empty.length) found.mergeValues = `Fill in: ${empty.map((f) => MERGE_FIELD_LABELS[f as keyof typeof MERGE_FIELD_LABELS] ?? f).join(', ')}`;
  if (needsUpload(form, template) && form.fileId === null) found.fileId = 'Choose the PDF to sign';
  const bad = form.signers.findIndex((s) => !s.role.trim() || (s.userId === null && (!s.name.trim() || !/^\S+@\S+\.\S+$/.test(s.email.trim())))
    || (form.identity === 'knowledge' && (!s.question.trim() || !s.answer.trim())));
  if (bad >= 0) {
    found.signers = form.identity === 'knowledge'
      ? `Signer ${bad + 1}: a client user or a name and e-mail, a role, and a question with its answer`
      : `Signer ${bad + 1}: a client user or a name and e-mail, and a role`;
  }
  const unsigned = form.source === 'pdf' && form.placement === 'position' ? signersWithoutSignature(form.placed, form.signers.map((s) => s.key)) : [];
  if (unsigned.length > 0) found.placement = `Place a signature box for signer ${unsigned.join(', ')}`;
  return found;
}

function signerInput(s: DraftSigner, identity: Identity): SignerInput {
  const knowledge = identity === 'knowledge' ? [{ question: s.question.trim(), answer: s.answer.trim() }] : undefined;
  return s.userId !== null
    ? { userId: s.userId, name: null, role: s.role.trim(), order: 1, ...(knowledge ? { knowledge } : {}) }
    : { name: s.name.trim(), email: s.email.trim(), role: s.role.trim(), order: 1, ...(knowledge ? { knowledge } : {}) };
}

/** Opens the letter a template would make for the chosen client and values (nothing is saved); the server's refusal is a toast. */
async function previewLetter(form: FormState, template: SignatureTemplate): Promise<void> {
  // Opened before anything is awaited, while the click still counts as the user's.
  const tab = window.open('', '_blank');
  try {
    const mergeValues = Object.fromEntries(fillIns(template).filter((k) => form.mergeValues[k]?.trim()).map((k) => [k, form.mergeValues[k]!.trim()]));
    const r = await apiRequest('POST', apiPath(`signature-templates/${template.id}/preview`), { clientId: form.clientId, title: form.title.trim() || null, mergeValues });
    if (!r.ok) throw new Error(((await r.json().catch(() => ({}))) as { message?: string }).message ?? 'The preview could not be made.');
    const url = URL.createObjectURL(await r.blob());
    if (tab) tab.location.href = url; else window.open(url, '_blank', 'noopener');
  } catch (err) {
    tab?.close();
    showToast({ severity: 'error', summary: 'Error', detail: (err as Error).message });
  }
}

/**
 * "New signature request" (issue 41): the PDF among the client's files, the signers (the
 * client's users or anyone by name and e-mail; two for a married couple's 8879), where each
 * signs (a signature block at the end of the last page, or fields placed on the rendered pages
 * with the placement editor), and the identity check. Made as a draft, its fields placed, then
 * sent: a failure on the way removes the draft again.
 */
export function CreateSignatureDialog({ visible, prefill, onHide }: { visible: boolean; prefill: Partial<SignaturePrefill>; onHide(created?: SignatureRequest): void }) {
  const [form, setForm] = useState<FormState>(() => blank(prefill));
  const [errors, setErrors] = useState<Errors>({});
  const queryClient = useQueryClient();
  useEffect(() => { if (visible) { setForm(blank(prefill)); setErrors({}); } }, [visible, prefill]);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setSigner = (key: number, change: Partial<DraftSigner>) => setForm((f) => ({ ...f, signers: f.signers.map((s) => (s.key === key ? { ...s, ...change } : s)) }));

  const clients = useQuery<Client[]>({ queryKey: [apiPath('clients')], enabled: visible, staleTime: 30_000 }).data ?? [];
  const reportTypes = useQuery<ReportType[]>({ queryKey: [apiPath('report-types')], enabled: visible, staleTime: 30_000 }).data ?? [];
  const users = useQuery<User[]>({ queryKey: [apiPath('users')], enabled: visible, staleTime: 30_000 }).data ?? [];
  const files = useQuery<PortalFile[]>({ queryKey: [apiQueryPath('files', { clientId: form.clientId ?? undefined, limit: 200 })], enabled: visible && form.clientId !== null });
  const pdfs = (files.data ?? []).filter((f) => f.mimeType === 'application/pdf' || f.originalName.toLowerCase().endsWith('.pdf'));
  // Holding a document until payment is the Admin's (issue 43): the client's sent invoices with something still to pay.
  const admin = useCanAdministerFirm();
  const invoicesUrl = apiQueryPath('invoices', { clientId: form.clientId ?? undefined, limit: 500 });
  const openInvoices = (useQuery<Invoice[]>({
    queryKey: [invoicesUrl], enabled: visible && admin && form.clientId !== null,
    queryFn: async ({ signal }) => (await getOptional<Invoice[]>(invoicesUrl, signal)) ?? [],
  }).data ?? []).filter((i) => i.status === 'sent' || i.status === 'partially_paid');
  // The client's own users (an Admin's list carries their clients; other staff enter name and e-mail).
  const clientUsers = users.filter((u) => isClientRole(u.role) && u.clientIds?.[0] === form.clientId);
  const templates = useQuery<SignatureTemplate[]>({ queryKey: [apiPath('signature-templates')], enabled: visible, staleTime: 30_000 }).data ?? [];
  const template = form.source === 'template' ? templates.find((t) => t.id === form.templateId) : undefined;
  /** Choosing a template takes its signer roles (as many signers as it names) and, by default, its name as the title. */
  const chooseTemplate = (id: number | null) => setForm((f) => {
    const t = templates.find((o) => o.id === id);
    if (!t) return { ...f, templateId: null };
    const signers = t.signers.map((r, i) => ({ ...(f.signers[i] ?? draftSigner(i)), role: r.role }));
    return { ...f, templateId: t.id, signers, title: f.title.trim() ? f.title : t.name, reportTypeId: f.reportTypeId ?? t.reportTypeId };
  });

  const create = useMutation({
    mutationFn: async (f: FormState): Promise<SignatureRequest> => {
      const signers = f.signers.map((s) => signerInput(s, f.identity));
      if (f.source === 'template') {
        // One call: the template gives the document (its letter rendered with the merge values, or its PDF) and the fields.
        return apiJson<SignatureRequest>('POST', apiPath('signature-requests'), {
          clientId: f.clientId, reportTypeId: f.reportTypeId, trackerItemId: f.trackerItemId, title: f.title.trim(), message: f.message.trim() || null,
          templateId: f.templateId, mergeValues: Object.fromEntries(fillIns(template).map((k) => [k, f.mergeValues[k]!.trim()])),
          documents: needsUpload(f, template) ? [{ fileId: f.fileId }] : [], signers, identity: f.identity, sendNow: f.sendNow,
        });
      }
      const positioned: FieldInput[] = fieldInputs(f.placed, f.signers.map((s) => s.key));
      const draft = await apiJson<SignatureRequest>('POST', apiPath('signature-requests'), {
        clientId: f.clientId, reportTypeId: f.reportTypeId, trackerItemId: f.trackerItemId, title: f.title.trim(), message: f.message.trim() || null,
        documents: [{ fileId: f.fileId }], signers, fields: f.placement === 'position' ? positioned : [], identity: f.identity, sendNow: false,
        ...(f.releaseOnPaymentOf !== null ? { releaseOnPaymentOf: f.releaseOnPaymentOf } : {}),
      });
      try {
        if (f.placement === 'end') {
          await apiJson('PATCH', apiPath(`signature-requests/${draft.id}`), { fields: signatureBlockAtEnd(draft.documents[0]!.pages, signers.length) });
        }
        if (f.sendNow) await apiJson('POST', apiPath(`signature-requests/${draft.id}/send`));
      } catch (err) {
        await apiJson('DELETE', apiPath(`signature-requests/${draft.id}`)).catch(() => undefined);
        throw err;
      }
      return draft;
    },
    onSettled: () => invalidateApiResources(queryClient, ['signature-requests', 'compliance-tracker']),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problems(form, template);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(form, {
      onSuccess: (created) => {
        showToast({ severity: 'success', summary: 'Request Created', detail: form.sendNow ? `${created.title}: the signers have been e-mailed.` : `${created.title} (draft)` });
        onHide(created);
      },
      onError: (err) => setErrors({ form: serverMessage(err) ?? 'Failed to create the signature request' }),
    });
  };

  return (
    <CreateEditDialog visible={visible} editing={false} noun="Signature Request" createHeader="New Signature Request" formId={FORM_ID} pending={create.isPending}
      className="form-dialog signature-dialog" onClose={() => onHide()}>
      <form id={FORM_ID} className="signature-form" onSubmit={submit} noValidate>
        {errors.form && <p className="signature-form__error" role="alert">{errors.form}</p>}
        <div className="signature-form__row">
          <FormField label="Client *" htmlFor="signature-client" error={errors.clientId}>
            <Dropdown inputId="signature-client" value={form.clientId} filter placeholder="Select a client" disabled={form.trackerItemId !== null}
              options={clients.map((c) => ({ label: c.name, value: c.id }))} onChange={(e) => setForm((f) => ({ ...f, clientId: e.value ?? null, fileId: null, releaseOnPaymentOf: null, signers: f.signers.map((s) => ({ ...s, userId: null })) }))} />
          </FormField>
          <FormField label="Report type *" htmlFor="signature-report-type" error={errors.reportTypeId} hint="The signed PDF is filed as a report of this type.">
            <Dropdown inputId="signature-report-type" value={form.reportTypeId} filter placeholder="Select a report type" disabled={form.trackerItemId !== null}
              options={reportTypes.map((r) => ({ label: r.name, value: r.id }))} onChange={(e) => set('reportTypeId', e.value ?? null)} />
          </FormField>
        </div>
        {form.trackerItemId !== null && <p className="signature-form__note">For the tracker item: sending moves it to &quot;Ready to sign&quot;.</p>}
        <FormField label="Title *" htmlFor="signature-title" error={errors.title}>
          <InputText id="signature-title" value={form.title} onChange={(e) => set('title', e.target.value)} />
        </FormField>
        <fieldset className="signature-form__placement">
          <legend>What to sign</legend>
          <span className="signature-form__check">
            <RadioButton inputId="signature-source-pdf" name="source" checked={form.source === 'pdf'} onChange={() => set('source', 'pdf')} />
            <label htmlFor="signature-source-pdf">From a PDF</label>
          </span>
          <span className="signature-form__check">
            <RadioButton inputId="signature-source-template" name="source" checked={form.source === 'template'} onChange={() => set('source', 'template')} />
            <label htmlFor="signature-source-template">From a template</label>
          </span>
        </fieldset>
        {form.source === 'template' && (
          <>
            <FormField label="Template *" htmlFor="signature-template" error={errors.templateId} hint={templates.length ? undefined : 'No template yet: an Admin or DTA saves them on the Templates tab.'}>
              <Dropdown inputId="signature-template" value={form.templateId} placeholder="Select a template"
                options={templates.map((t) => ({ label: `${t.name} (${KIND_LABELS[t.kind]})`, value: t.id }))} onChange={(e) => chooseTemplate(e.value ?? null)} />
            </FormField>
            {fillIns(template).length > 0 && (
              <div className="signature-form__row" role="group" aria-label="Merge fields">
                {fillIns(template).map((f) => (
                  <FormField key={f} label={`${MERGE_FIELD_LABELS[f as keyof typeof MERGE_FIELD_LABELS] ?? f} *`} htmlFor={`merge-${f}`}
                    hint={f === 'fee' ? 'An amount, printed in the firm\'s currency' : undefined}>
                    <InputText id={`merge-${f}`} value={form.mergeValues[f] ?? ''} inputMode={f === 'fee' || f === 'tax_year' ? 'decimal' : undefined}
                      onChange={(e) => setForm((o) => ({ ...o, mergeValues: { ...o.mergeValues, [f]: e.target.value } }))} />
                  </FormField>
                ))}
              </div>
            )}
            {errors.mergeValues && <small className="form-field__error" role="alert">{errors.mergeValues}</small>}
            {template?.body && (
              <div className="signature-form__preview">
                <p className="signature-form__note">The letter is made from the template with these values; a signature and date line per signer closes it.</p>
                <Button type="button" size="small" outlined icon="pi pi-eye" label="Preview letter" disabled={form.clientId === null} onClick={() => void previewLetter(form, template)} />
              </div>
            )}
          </>
        )}
        {needsUpload(form, template) && <FormField label="Document (PDF) *" htmlFor="signature-document" error={errors.fileId}
          hint={form.clientId === null ? 'Choose the client first.' : (files.isSuccess && pdfs.length === 0 ? 'This client has no PDF yet: upload it under Documents.' : undefined)}>
          <Dropdown inputId="signature-document" value={form.fileId} filter placeholder="Select the PDF to sign" disabled={form.clientId === null}
            options={pdfs.map((f) => ({ label: f.reportTypeName ? `${f.originalName} (${f.reportTypeName})` : f.originalName, value: f.id }))} onChange={(e) => set('fileId', e.value ?? null)} />
        </FormField>}
        {admin && (
          <FormField label="Release on payment of" htmlFor="signature-release-invoice"
            hint="Optional: the signed PDF is filed for the client as waiting for payment, and opens once this invoice is paid.">
            <Dropdown inputId="signature-release-invoice" value={form.releaseOnPaymentOf} showClear placeholder="No invoice: filed released" disabled={form.clientId === null}
              options={openInvoices.map((i) => ({ label: `${i.number} — ${formatMinorUnits(i.balance, i.currency)} due`, value: i.id }))}
              emptyMessage="No sent, unpaid invoice for this client" onChange={(e) => set('releaseOnPaymentOf', (e.value as number | undefined) ?? null)} />
          </FormField>
        )}
        <FormField label="Message" htmlFor="signature-message">
          <InputTextarea id="signature-message" rows={2} value={form.message} onChange={(e) => set('message', e.target.value)} />
        </FormField>
        <FormField label="Identity check" htmlFor="signature-identity" hint="Each signer passes it on their own, at the moment of signing.">
          <Dropdown inputId="signature-identity" value={form.identity} options={IDENTITY_OPTIONS} onChange={(e) => set('identity', e.value as Identity)} />
        </FormField>
        {form.source === 'pdf' && <fieldset className="signature-form__placement">
          <legend>Where each signs</legend>
          <span className="signature-form__check">
            <RadioButton inputId="signature-place-end" name="placement" value="end" checked={form.placement === 'end'} onChange={() => set('placement', 'end')} />
            <label htmlFor="signature-place-end">Signature blocks at the end of the last page</label>
          </span>
          <span className="signature-form__check">
            <RadioButton inputId="signature-place-position" name="placement" value="position" checked={form.placement === 'position'} onChange={() => set('placement', 'position')} />
            <label htmlFor="signature-place-position">Place fields on the pages</label>
          </span>
          {errors.placement && <small className="form-field__error" role="alert">{errors.placement}</small>}
          {form.placement === 'position' && (form.fileId === null ? <p className="signature-form__note">Choose the PDF first.</p>
            : <PlacementEditor fileId={form.fileId} signers={form.signers.map((s) => ({ key: s.key, name: s.userId !== null ? (clientUsers.find((u) => u.id === s.userId)?.fullName ?? '') : s.name }))}
              value={form.placed} onChange={(placed) => set('placed', placed)} />)}
        </fieldset>}
        <fieldset className="signature-form__signers">
          <legend>Signers</legend>
          {errors.signers && <small className="form-field__error" role="alert">{errors.signers}</small>}
          {form.signers.map((s, i) => (
            <div key={s.key} className="signature-form__signer" aria-label={`Signer ${i + 1}`} role="group">
              <div className="signature-form__signer-head">
                <strong>Signer {i + 1}</strong>
                {form.signers.length > 1 && <Button type="button" icon="pi pi-times" text size="small" aria-label={`Remove signer ${i + 1}`}
                  onClick={() => set('signers', form.signers.filter((o) => o.key !== s.key))} />}
              </div>
              <div className="signature-form__row">
                <FormField label="Client user" htmlFor={`signer-user-${i}`} hint={clientUsers.length ? undefined : 'No portal user of this client to choose.'}>
                  <Dropdown inputId={`signer-user-${i}`} value={s.userId} showClear placeholder="Someone else"
                    options={clientUsers.map((u) => ({ label: u.email ? `${u.fullName} (${u.email})` : u.fullName, value: u.id }))}
                    onChange={(e) => setSigner(s.key, { userId: e.value ?? null })} />
                </FormField>
                <FormField label="Role *" htmlFor={`signer-role-${i}`}>
                  <InputText id={`signer-role-${i}`} value={s.role} list="signature-roles" onChange={(e) => setSigner(s.key, { role: e.target.value })} />
                </FormField>
              </div>
              {s.userId === null && (
                <div className="signature-form__row">
                  <FormField label="Name *" htmlFor={`signer-name-${i}`}>
                    <InputText id={`signer-name-${i}`} value={s.name} autoComplete="off" onChange={(e) => setSigner(s.key, { name: e.target.value })} />
                  </FormField>
                  <FormField label="E-mail *" htmlFor={`signer-email-${i}`}>
                    <InputText id={`signer-email-${i}`} type="email" value={s.email} autoComplete="off" onChange={(e) => setSigner(s.key, { email: e.target.value })} />
                  </FormField>
                </div>
              )}
              {form.identity === 'knowledge' && (
                <div className="signature-form__row">
                  <FormField label="Question *" htmlFor={`signer-question-${i}`} hint="e.g. Your adjusted gross income last year">
                    <InputText id={`signer-question-${i}`} value={s.question} onChange={(e) => setSigner(s.key, { question: e.target.value })} />
                  </FormField>
                  <FormField label="Answer *" htmlFor={`signer-answer-${i}`} hint="Checked on the server, never shown to the signer.">
                    <InputText id={`signer-answer-${i}`} value={s.answer} autoComplete="off" onChange={(e) => setSigner(s.key, { answer: e.target.value })} />
                  </FormField>
                </div>
              )}
            </div>
          ))}
          <datalist id="signature-roles">{ROLE_SUGGESTIONS.map((r) => <option key={r} value={r} />)}</datalist>
          {form.signers.length < SIGNATURE_LIMITS.signers && (
            <Button type="button" label="Add signer" icon="pi pi-plus" outlined size="small" onClick={() => set('signers', [...form.signers, draftSigner(form.signers.length)])} />
          )}
        </fieldset>
        <span className="signature-form__check">
          <Checkbox inputId="signature-send-now" checked={form.sendNow} onChange={(e) => set('sendNow', !!e.checked)} />
          <label htmlFor="signature-send-now">Send now (e-mail the signers)</label>
        </span>
      </form>
    </CreateEditDialog>
  );
}
