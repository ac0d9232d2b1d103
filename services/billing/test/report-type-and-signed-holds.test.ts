import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { eventually } from '@ledgerline/kit/testing/eventually.ts';
import { testMailbox } from '@ledgerline/kit/testing/test-mailbox.ts';
import { uploadBlankPdf } from '@ledgerline/kit/testing/upload-blank-pdf.ts';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';
import type { RunningPortal } from '@ledgerline/server/portal.ts';
import type { Invoice } from '@ledgerline/contracts/billing.contracts.ts';
import type { Client, ReportType } from '@ledgerline/contracts/directory.contracts.ts';
import { PAYMENT_HOLD_MESSAGES, type PortalFile, type ReportTypePaymentHold } from '@ledgerline/contracts/files.contracts.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { SIGNATURE_MESSAGES, type SignatureRequest } from '@ledgerline/contracts/signatures.contracts.ts';

/*
 * Documents released on payment (issue 43), beyond a single file: a report type of a client
 * (its files there and those filed while it holds) and a signed document filed held. Both
 * are file holds of the files service; billing's "paid" event releases them.
 */

/** Invoices, clients and report types reach the files and signatures services as events (RabbitMQ in CI). */
const BUS_WAIT_MS = 20_000;
type Portal = RunningPortal & { gatewayUrl: string; adminToken: string };
let portal: Portal;
let call: ReturnType<typeof apiClient>;
const mailbox = testMailbox();
const suffix = randomBytes(3).toString('hex');
const FIRM = `holds${suffix}`;
const BETA = `betaholds${suffix}`;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

const holdPath = (clientId: number, reportTypeId: number, tenant = FIRM) => `/api/${tenant}/files/clients/${clientId}/report-types/${reportTypeId}/payment-hold`;
const holdReportType = (who: string, clientId: number, reportTypeId: number, body: unknown, tenant = FIRM) =>
  call<ReportTypePaymentHold & { message: string }>('PUT', holdPath(clientId, reportTypeId, tenant), tokens[who], body);

async function sentInvoice(clientKey: string, amount: number): Promise<Invoice> {
  const d = await call<Invoice>('POST', `/api/${FIRM}/invoices`, tokens.admin, { clientId: ids[clientKey], lines: [{ description: 'Form 1040 preparation', unitPrice: amount }], dueDate: '2099-01-31' });
  expect(d.status).toBe(201);
  const s = await call<Invoice>('POST', `/api/${FIRM}/invoices/${d.body.id}/send`, tokens.admin);
  expect(s.status).toBe(200);
  return s.body;
}
const payInFull = async (invoice: Invoice) =>
  expect((await call('POST', `/api/${FIRM}/invoices/${invoice.id}/payments`, tokens.admin, { amount: invoice.balance, method: 'cheque' })).status).toBe(201);

async function upload(clientKey: string, reportTypeKey: string, name: string): Promise<number> {
  const form = new FormData();
  form.append('fileType', 'report');
  form.append('clientId', String(ids[clientKey]));
  form.append('reportTypeId', String(ids[reportTypeKey]));
  form.append('file', new Blob([`Contents of ${name}`], { type: 'text/plain' }), name);
  const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokens.admin}` }, body: form });
  expect(r.status).toBe(201);
  return ((await r.json()) as { files: { id: number }[] }).files[0]!.id;
}
const download = async (who: string, fileId: number) => {
  const r = await fetch(`${portal.gatewayUrl}/api/${FIRM}/files/${fileId}`, { headers: { authorization: `Bearer ${tokens[who]}` } });
  return { status: r.status, text: await r.text() };
};
const listed = async (who: string, clientKey: string, fileId: number) =>
  (await call<PortalFile[]>('GET', `/api/${FIRM}/files?clientId=${ids[clientKey]}&limit=500`, tokens[who])).body.find((f) => f.id === fileId);

beforeAll(async () => {
  portal = await startTestPortal({ SCHEDULER_POLL_MS: '100', SIGNING_LINK_ATTEMPTS_PER_MINUTE: '1000', ...mailbox.env }, { logger: mailbox.logger });
  call = apiClient(portal.gatewayUrl);
  tokens.platform = portal.adminToken;
  for (const shortName of [FIRM, BETA]) {
    expect((await call<Company>('POST', '/api/companies', tokens.platform, { name: `${shortName} CPAs`, shortName, country: 'US' })).status).toBe(201);
  }
  for (const [key, tenant] of [['own', FIRM], ['other', FIRM], ['beta', BETA]] as const) {
    const r = await call<Client>('POST', `/api/${tenant}/clients`, tokens.platform, testClient(`${key} ${suffix}`));
    expect(r.status).toBe(201);
    ids[key] = r.body.id;
  }
  for (const [key, name] of [['f1040', 'Form 1040'], ['engagement', 'Engagement letter'], ['f8879', 'Form 8879']] as const) {
    const r = await call<ReportType>('POST', `/api/${FIRM}/report-types`, tokens.platform, { name });
    expect(r.status).toBe(201);
    ids[key] = r.body.id;
  }
  const users: [string, string, number, number[] | null][] = [
    ['admin', FIRM, 1, null], ['cpa', FIRM, 3, [ids.own!]], ['client', FIRM, 4, [ids.own!]], ['clientOther', FIRM, 4, [ids.other!]], ['betaAdmin', BETA, 1, null],
  ];
  for (const [who, tenant, roleId, clientIds] of users) {
    // The CPA reaches the own client and every report type of it.
    const reportTypeIds = who === 'cpa' ? [ids.f1040!, ids.engagement!, ids.f8879!] : null;
    const created = await createSignedInUser(call, tokens.platform, tenant, { username: `${who}_${tenant}`, fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds });
    ids[who] = created.id;
    tokens[who] = created.token;
  }
}, 180_000);

afterAll(async () => { await portal?.stop(); });

describe('a report type of a client released on payment', () => {
  it('holds the client\'s files of that type, those there and those uploaded later, until the invoice is paid; nothing else waits', async () => {
    const invoice = await sentInvoice('own', 50_000);
    const before = await upload('own', 'f1040', `1040 draft ${suffix}.txt`);
    const otherType = await upload('own', 'engagement', `Engagement ${suffix}.txt`);
    const otherClient = await upload('other', 'f1040', `Other 1040 ${suffix}.txt`);
    // The files service learns the invoice from billing's event: the hold is accepted once it has.
    let held: ReportTypePaymentHold | undefined;
    await eventually(async () => {
      const r = await holdReportType('admin', ids.own!, ids.f1040!, { invoiceId: invoice.id });
      expect(r.status).toBe(200);
      held = r.body;
    }, BUS_WAIT_MS, 200);
    expect(held).toEqual({ clientId: ids.own, reportTypeId: ids.f1040, invoiceId: invoice.id, invoiceNumber: invoice.number, filesWaiting: 1 });

    const later = await upload('own', 'f1040', `1040 final ${suffix}.txt`);
    for (const fileId of [before, later]) {
      expect(await listed('client', 'own', fileId)).toMatchObject({ waitingForPayment: { invoiceId: invoice.id, invoiceNumber: invoice.number } });
      expect(await download('client', fileId)).toEqual({ status: 403, text: expect.stringContaining(PAYMENT_HOLD_MESSAGES.waiting(invoice.number!)) });
      // Staff open it meanwhile.
      expect((await download('cpa', fileId)).status).toBe(200);
    }
    expect(await listed('client', 'own', otherType)).not.toHaveProperty('waitingForPayment');
    expect((await download('client', otherType)).status).toBe(200);
    expect(await listed('clientOther', 'other', otherClient)).not.toHaveProperty('waitingForPayment');
    expect((await download('clientOther', otherClient)).status).toBe(200);

    // Staff who reach the client read what waits; a Client user may not ask.
    for (const who of ['admin', 'cpa']) {
      expect((await call<ReportTypePaymentHold[]>('GET', `/api/${FIRM}/files/clients/${ids.own}/payment-holds`, tokens[who])).body)
        .toEqual([{ clientId: ids.own, reportTypeId: ids.f1040, invoiceId: invoice.id, invoiceNumber: invoice.number, filesWaiting: 2 }]);
    }
    expect((await call('GET', `/api/${FIRM}/files/clients/${ids.own}/payment-holds`, tokens.client)).status).toBe(403);

    await payInFull(invoice);
    await eventually(async () => {
      for (const fileId of [before, later]) expect(await download('client', fileId)).toEqual({ status: 200, text: expect.stringContaining('Contents of') });
    }, BUS_WAIT_MS, 200);
    expect(await listed('client', 'own', later)).not.toHaveProperty('waitingForPayment');
    expect((await call('GET', `/api/${FIRM}/files/clients/${ids.own}/payment-holds`, tokens.admin)).body).toEqual([]);
    // Paid: what is uploaded now is not held, and there is nothing to wait for.
    const afterPaid = await upload('own', 'f1040', `1040 amended ${suffix}.txt`);
    expect((await download('client', afterPaid)).status).toBe(200);
    expect(await holdReportType('admin', ids.own!, ids.f1040!, { invoiceId: invoice.id })).toMatchObject({ status: 409, body: { message: PAYMENT_HOLD_MESSAGES.paidAlready } });
  });

  it('an Admin releases it by hand, with the files it held; only Admins hold, only for a sent, open invoice of that client; another firm cannot', async () => {
    const invoice = await sentInvoice('own', 20_000);
    const otherInvoice = await sentInvoice('other', 20_000);
    const voided = await sentInvoice('own', 5_000);
    expect((await call('POST', `/api/${FIRM}/invoices/${voided.id}/void`, tokens.admin)).status).toBe(200);
    const file = await upload('own', 'engagement', `Engagement signed ${suffix}.txt`);
    await eventually(async () => expect((await holdReportType('admin', ids.own!, ids.engagement!, { invoiceId: invoice.id })).status).toBe(200), BUS_WAIT_MS, 200);
    await eventually(async () => expect(await holdReportType('admin', ids.own!, ids.engagement!, { invoiceId: voided.id }))
      .toMatchObject({ status: 409, body: { message: PAYMENT_HOLD_MESSAGES.voidInvoice } }), BUS_WAIT_MS, 200);
    await eventually(async () => expect(await holdReportType('admin', ids.own!, ids.engagement!, { invoiceId: otherInvoice.id }))
      .toMatchObject({ status: 404, body: { message: PAYMENT_HOLD_MESSAGES.clientInvoiceNotFound } }), BUS_WAIT_MS, 200);
    expect((await holdReportType('admin', ids.own!, ids.engagement!, { invoiceId: 999_999 })).status).toBe(404);
    expect((await holdReportType('admin', ids.own!, 999_999, { invoiceId: invoice.id })).status).toBe(404);
    expect((await holdReportType('admin', 999_999, ids.engagement!, { invoiceId: invoice.id })).status).toBe(404);
    expect((await holdReportType('admin', ids.own!, ids.engagement!, { invoiceId: 'x' })).status).toBe(400);
    expect((await holdReportType('admin', ids.own!, ids.engagement!, {})).status).toBe(400);
    for (const who of ['cpa', 'client']) expect((await holdReportType(who, ids.own!, ids.engagement!, { invoiceId: invoice.id })).status).toBe(403);
    expect((await holdReportType('betaAdmin', ids.own!, ids.engagement!, { invoiceId: invoice.id })).status).toBeGreaterThanOrEqual(401);
    expect((await holdReportType('betaAdmin', ids.beta!, ids.engagement!, { invoiceId: invoice.id }, BETA)).status).toBe(404);
    // Another firm's Admin: its own client (whatever its id) holds nothing of this firm's.
    expect((await call('GET', `/api/${BETA}/files/clients/${ids.beta}/payment-holds`, tokens.betaAdmin))).toMatchObject({ status: 200, body: [] });
    expect((await call('GET', `/api/${BETA}/files/clients/999999/payment-holds`, tokens.betaAdmin)).status).toBe(404);
    expect((await call('GET', `/api/${FIRM}/files/clients/${ids.own}/payment-holds`, tokens.betaAdmin)).status).toBeGreaterThanOrEqual(401);
    // The refusals changed nothing: still held for the first invoice.
    expect(await listed('client', 'own', file)).toMatchObject({ waitingForPayment: { invoiceId: invoice.id } });

    for (const who of ['cpa', 'client', 'betaAdmin']) expect((await call('DELETE', holdPath(ids.own!, ids.engagement!), tokens[who])).status).toBeGreaterThanOrEqual(401);
    expect((await call('DELETE', holdPath(ids.own!, ids.engagement!), tokens.admin)).body).toEqual({ message: PAYMENT_HOLD_MESSAGES.released });
    expect((await download('client', file)).status).toBe(200);
    const next = await upload('own', 'engagement', `Engagement countersigned ${suffix}.txt`);
    expect((await download('client', next)).status).toBe(200);
    expect(await call('DELETE', holdPath(ids.own!, ids.engagement!), tokens.admin)).toMatchObject({ status: 404, body: { message: PAYMENT_HOLD_MESSAGES.noReportTypeHold } });
    // Another client's user never sees the file, held or not.
    expect((await download('clientOther', file)).status).toBe(404);
  });

  it('a file waiting for an invoice of its own keeps it when its report type is held for another', async () => {
    const own = await sentInvoice('own', 1_000);
    const typeInvoice = await sentInvoice('own', 2_000);
    const file = await upload('own', 'f8879', `8879 ${suffix}.txt`);
    await eventually(async () => expect((await call('PUT', `/api/${FIRM}/files/${file}/payment-hold`, tokens.admin, { invoiceId: own.id })).status).toBe(200), BUS_WAIT_MS, 200);
    await eventually(async () => expect((await holdReportType('admin', ids.own!, ids.f8879!, { invoiceId: typeInvoice.id })).body.filesWaiting).toBe(0), BUS_WAIT_MS, 200);
    expect(await listed('client', 'own', file)).toMatchObject({ waitingForPayment: { invoiceId: own.id } });
    // Releasing the report type leaves the file's own hold.
    expect((await call('DELETE', holdPath(ids.own!, ids.f8879!), tokens.admin)).status).toBe(200);
    expect((await download('client', file)).status).toBe(403);
    expect((await call('DELETE', `/api/${FIRM}/files/${file}/payment-hold`, tokens.admin)).status).toBe(200);
  });
});

describe('a signed document released on payment', () => {
  const signatures = `/api/${FIRM}/signature-requests`;
  const signer = `signer.${suffix}@example.com`;
  const body = (extra: Record<string, unknown>) => ({
    clientId: ids.own, reportTypeId: ids.f8879, title: `Form 8879 ${suffix}`, identity: 'knowledge', documents: [{ fileId: ids.pdf }],
    signers: [{ name: 'Pat Taxpayer', email: signer, role: 'taxpayer', knowledge: [{ question: 'Prior-year AGI', answer: '52300' }] }],
    fields: [{ documentIndex: 0, page: 1, x: 50, y: 600, width: 200, height: 40, type: 'signature', signerIndex: 0 }], ...extra,
  });

  beforeAll(async () => {
    ids.pdf = await uploadBlankPdf(portal.gatewayUrl, FIRM, tokens.admin!, { clientId: ids.own!, reportTypeId: ids.f8879!, name: `8879 unsigned ${suffix}.pdf` });
  });

  it('is filed held for the invoice, listed to the client as waiting, and released when the invoice is paid', async () => {
    const invoice = await sentInvoice('own', 30_000);
    const r = await call<SignatureRequest>('POST', signatures, tokens.admin, body({ releaseOnPaymentOf: invoice.id, sendNow: true }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'sent', releaseOnPaymentOf: invoice.id, releaseInvoiceNumber: invoice.number });

    const mail = await mailbox.waitForMail(signer, 1, BUS_WAIT_MS);
    const token = /\/sign\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)/.exec(mail.Text)![1]!;
    const step = (method: string, path: string, stepBody?: unknown) => call(method, `/api/public/signing/${token}${path}`, null, stepBody);
    expect((await step('POST', '/consent')).status).toBe(200);
    expect((await fetch(`${portal.gatewayUrl}/api/public/signing/${token}/document`)).status).toBe(200);
    expect((await step('POST', '/identity', { answers: ['52,300'] })).status).toBe(200);
    expect((await step('POST', '/sign', { adoption: { kind: 'typed', text: 'Pat Taxpayer' }, confirm: true })).status).toBe(200);

    let signedFileId = 0;
    await eventually(async () => {
      const filed = (await call<SignatureRequest>('GET', `${signatures}/${r.body.id}`, tokens.admin)).body;
      expect(filed.signedFileId).not.toBeNull();
      signedFileId = filed.signedFileId!;
    }, BUS_WAIT_MS, 300);
    expect(await listed('client', 'own', signedFileId)).toMatchObject({ originalName: `Form 8879 ${suffix} - signed.pdf`, waitingForPayment: { invoiceId: invoice.id, invoiceNumber: invoice.number } });
    expect(await download('client', signedFileId)).toMatchObject({ status: 403, text: expect.stringContaining(PAYMENT_HOLD_MESSAGES.waiting(invoice.number!)) });
    expect((await download('admin', signedFileId)).status).toBe(200);

    await payInFull(invoice);
    await eventually(async () => expect((await download('client', signedFileId)).status).toBe(200), BUS_WAIT_MS, 200);
  });

  it('only an Admin asks for it, only with a sent, open invoice of the request\'s client; a draft can drop it', async () => {
    const invoice = await sentInvoice('own', 4_000);
    const otherInvoice = await sentInvoice('other', 4_000);
    const paid = await sentInvoice('own', 3_000);
    await payInFull(paid);
    const refused = async (who: string, invoiceId: unknown, status: number, message?: string) => {
      const r = await call<{ message: string }>('POST', signatures, tokens[who], body({ releaseOnPaymentOf: invoiceId }));
      expect([r.status, message ?? r.body.message]).toEqual([status, r.body.message]);
    };
    await refused('cpa', invoice.id, 403, SIGNATURE_MESSAGES.adminsOnlyRelease);
    await refused('client', invoice.id, 403);
    await refused('admin', otherInvoice.id, 404, SIGNATURE_MESSAGES.releaseInvoiceNotFound);
    await refused('admin', 999_999, 404, SIGNATURE_MESSAGES.releaseInvoiceNotFound);
    await refused('admin', paid.id, 409, SIGNATURE_MESSAGES.releaseInvoicePaid);
    await refused('admin', 'INV-1', 400);
    expect((await call('POST', `/api/${BETA}/signature-requests`, tokens.betaAdmin, { ...body({ releaseOnPaymentOf: invoice.id }), clientId: ids.beta })).status).toBe(404);

    // A CPA's draft without it is fine; an Admin sets it on a draft and clears it again.
    const draft = await call<SignatureRequest>('POST', signatures, tokens.cpa, body({}));
    expect([draft.status, draft.body.releaseOnPaymentOf]).toEqual([201, null]);
    expect((await call('PATCH', `${signatures}/${draft.body.id}`, tokens.cpa, { releaseOnPaymentOf: invoice.id })).status).toBe(403);
    expect((await call<SignatureRequest>('PATCH', `${signatures}/${draft.body.id}`, tokens.admin, { releaseOnPaymentOf: invoice.id })).body)
      .toMatchObject({ releaseOnPaymentOf: invoice.id, releaseInvoiceNumber: invoice.number });
    expect((await call<SignatureRequest>('PATCH', `${signatures}/${draft.body.id}`, tokens.admin, { releaseOnPaymentOf: null })).body)
      .toMatchObject({ releaseOnPaymentOf: null, releaseInvoiceNumber: null });
  });
});
