import express, { type Response, type Router } from 'express';
import type { TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { Conflict } from '@ledgerline/kit/errors.ts';
import type { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { authenticate } from '@ledgerline/kit/http/authenticate.ts';
import { clientAddress } from '@ledgerline/kit/http/client-address.ts';
import { parsePathId } from '@ledgerline/kit/http/path-id.ts';
import type { ServiceTenants } from '@ledgerline/kit/tenancy/tenant-requests.ts';
import {
  declineSchema, identityAnswerSchema, SIGNATURE_MESSAGES, signatureListQuerySchema, signatureRequestInputSchema, signatureRequestUpdateSchema, signSchema,
} from '@ledgerline/contracts/signatures.contracts.ts';
import type { AuthenticatorCheck } from '../domain/authenticator-check.ts';
import type { SignatureService } from '../domain/signature.service.ts';
import type { Origin, SigningService } from '../domain/signing.service.ts';
import type { SignatureStore } from '../store/signature.store.ts';


export const originOf = (req: express.Request): Origin => ({ address: clientAddress(req), browser: (req.header('user-agent') ?? '').slice(0, 300) });

export function sendPdf(res: Response, pdf: Buffer, name: string): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Disposition', `inline; filename="${name.replace(/[^\w .-]+/g, '_')}"`);
  res.type('application/pdf').send(pdf);
}

/** Issue 41 staff calls and a signed-in Client user's signing (plain /api/… and, through the gateway, /api/{tenant}/…). */
export function createSignatureRequestsRouter(deps: { api: ApiRegistry; tokens: TokenVerifier; tenants: ServiceTenants; store: SignatureStore; service: SignatureService; signing: SigningService; authenticator: AuthenticatorCheck }): Router {
  const { api, tenants, store, service, signing, authenticator } = deps;
  const router = express.Router();
  const before = [authenticate(deps.tokens, deps.tenants.checkCaller)];
  const id = (v: string | undefined) => parsePathId(v, SIGNATURE_MESSAGES.notFound);
  const base = '/api/signature-requests';

  api.route(router, { method: 'get', path: base, query: signatureListQuerySchema, before, summary: 'Signature requests within the caller\'s reach, newest first (a Client user: those they sign)' }, async ({ res, query }) =>
    service.list(await tenants.ofRequest(res), query));

  api.route(router, {
    method: 'post', path: base, status: 201, body: signatureRequestInputSchema, before,
    summary: 'Ask signers to sign PDFs of a client (files of that client), with fields and an identity check; sendNow e-mails the first signers',
  }, async ({ res, body }) => service.create(await tenants.ofRequest(res), body));

  api.route(router, { method: 'get', path: `${base}/:id`, before, summary: 'A signature request with its signers, fields, documents and audit trail' }, async ({ res, params }) =>
    service.get(await tenants.ofRequest(res), id(params.id)));

  api.route(router, { method: 'patch', path: `${base}/:id`, body: signatureRequestUpdateSchema, before, summary: 'Edit a draft, or void a draft or sent request (status: voided)' }, async ({ res, params, body }) =>
    service.update(await tenants.ofRequest(res), id(params.id), body));

  api.route(router, { method: 'delete', path: `${base}/:id`, before, summary: 'Delete a draft, voided, declined or expired request' }, async ({ res, params }) =>
    service.delete(await tenants.ofRequest(res), id(params.id)));

  api.route(router, { method: 'post', path: `${base}/:id/send`, before, summary: 'Send a draft: the signers whose turn it is are e-mailed (a link each, or the portal for Client users)' }, async ({ res, params }) =>
    service.send(await tenants.ofRequest(res), id(params.id)));

  api.route(router, { method: 'post', path: `${base}/:id/remind`, before, summary: 'E-mail the signers whose turn it is again (link signers get a new link; the old one stops working)' }, async ({ res, params }) =>
    service.remind(await tenants.ofRequest(res), id(params.id)));

  api.route(router, { method: 'get', path: `${base}/:id/certificate`, before, summary: 'The sealed certificate of completion (PDF) once completed' }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const r = await service.get(t, id(params.id));
    const { certificate } = await store.sealed(t.db, r.id);
    if (r.status !== 'completed' || !certificate) throw new Conflict(SIGNATURE_MESSAGES.notCompleted);
    sendPdf(res, certificate, `${r.title} - certificate.pdf`);
  });

  api.route(router, { method: 'get', path: `${base}/:id/document`, before, summary: 'The signed, sealed PDF (with its certificate page) once completed' }, async ({ res, params }) => {
    const t = await tenants.ofRequest(res);
    const r = await service.get(t, id(params.id));
    const { signed } = await store.sealed(t.db, r.id);
    if (r.status !== 'completed' || !signed) throw new Conflict(SIGNATURE_MESSAGES.notCompleted);
    sendPdf(res, signed, `${r.title} - signed.pdf`);
  });

  // A signed-in Client user signing their own part.
  // Their authenticator app is identity's, asked as them.
  const me = async (res: Response, requestId: string | undefined) => {
    const t = await tenants.ofRequest(res);
    return signing.bySession(t, id(requestId), { factors: () => authenticator.factors(t), check: (code) => authenticator.check(t, code) });
  };
  const own = `${base}/:id/signing`;
  api.route(router, { method: 'get', path: own, before, summary: 'What the signed-in signer signs: disclosure, their fields, progress' }, async ({ res, params }) =>
    signing.view(await me(res, params.id)));
  api.route(router, { method: 'get', path: `${own}/document`, before, summary: 'The documents to sign as one PDF (the first call records viewing)' }, async ({ req, res, params }) => {
    sendPdf(res, await signing.document(await me(res, params.id), originOf(req)), 'documents.pdf');
  });
  api.route(router, { method: 'post', path: `${own}/consent`, before, summary: 'Agree to sign electronically (the ESIGN disclosure)' }, async ({ req, res, params }) =>
    signing.consent(await me(res, params.id), originOf(req)));
  api.route(router, { method: 'post', path: `${own}/code`, before, summary: 'E-mail a 6-digit identity code (sign_in_second_factor)' }, async ({ req, res, params }) =>
    signing.sendCode(await me(res, params.id), originOf(req)));
  api.route(router, { method: 'post', path: `${own}/identity`, body: identityAnswerSchema, before, summary: 'Pass the identity check: the e-mailed code (code), a fresh authenticator app code (totp, checked by identity; you.factors says whether it is offered), or the knowledge answers' }, async ({ req, res, params, body }) =>
    signing.verifyIdentity(await me(res, params.id), body, originOf(req)));
  api.route(router, { method: 'post', path: `${own}/sign`, body: signSchema, before, summary: 'Adopt a signature, fill the fields and sign (after consent, viewing and the identity check)' }, async ({ req, res, params, body }) =>
    signing.sign(await me(res, params.id), body, originOf(req)));
  api.route(router, { method: 'post', path: `${own}/decline`, body: declineSchema, before, summary: 'Decline to sign, with a reason (withdraws consent; the request ends)' }, async ({ req, res, params, body }) =>
    signing.decline(await me(res, params.id), body.reason, originOf(req)));
  return router;
}
